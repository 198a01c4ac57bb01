"""Job-alert mails per sender and template, written from shared/facts-wave3.md §1, and
the postings each must give (the labelled set).

Each mail is built the way its sender sends it: multipart/alternative with a text
and an HTML part (Google's text part base64 and format=flowed; LinkedIn's French
text part in ISO-8859-1), encoded subjects, three links per LinkedIn card, tracking
parameters (trackingId, refId, midToken, otpToken, trk, lk, tsid ...), the chrome
before and after the cards, badges, invisible padding. `SAMPLES` names them;
`Expected` is what a card must become.
"""

from __future__ import annotations

import base64
import zlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime
from urllib.parse import quote

DATE = datetime(2026, 11, 30, 7, 30, tzinfo=UTC)
PAD = "\u034f " * 160            # LinkedIn's preheader padding
ZWNJ = "\u200c"


@dataclass(frozen=True)
class Expected:
    title: str
    company: str
    location: str
    url: str
    external_id: str = ""            # '' : a hash the test does not spell out
    salary: tuple[float, float | None, str] | None = None
    snippet: str | None = None       # a substring the description must hold


@dataclass
class Sample:
    raw: bytes
    sender: str
    template: str
    expected: list[Expected] = field(default_factory=list)


def mail(sender: str, subject: str, text: str | None, html: str | None, *,
         date: datetime = DATE, message_id: str = "", charset: str = "utf-8",
         text_cte: str = "quoted-printable", html_cte: str = "quoted-printable",
         flowed: bool = False, headers: dict[str, str] | None = None) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "Ada Lovelace <ada@example.org>"
    msg["Subject"] = subject
    msg["Date"] = format_datetime(date)
    msg["Message-ID"] = message_id or f"<{abs(hash((sender, subject)))}@mail.example>"
    for name, value in (headers or {}).items():
        msg[name] = value
    if text is not None:
        params = {"format": "flowed", "delsp": "yes"} if flowed else {}
        if charset == "utf-8":
            msg.set_content(text, cte=text_cte, params=params)
        else:
            msg.set_content(text.encode(charset), maintype="text", subtype="plain",
                            cte=text_cte, params={"charset": charset, **params})
    if html is not None:
        if text is None:
            msg.set_content(html, subtype="html", cte=html_cte)
        else:
            msg.add_alternative(html, subtype="html", cte=html_cte)
    return msg.as_bytes(policy=SMTP)


def flow(text: str, width: int = 40) -> str:
    """`text` as format=flowed with delsp=yes: long lines broken, each break a space
    the reader removes."""
    out = []
    for line in text.split("\n"):
        while len(line) > width:
            cut = line.rfind(" ", 0, width) + 1 or width      # after a space of the text
            out.append(line[:cut] + " ")         # delsp=yes: this space is not the text's
            line = line[cut:]
        out.append(" " + line if line.startswith(" ") else line)   # space-stuffed
    return "\n".join(out)


# --- LinkedIn -------------------------------------------------------------------------

def li_link(job_id: str, trk: str) -> str:
    return (f"https://www.linkedin.com/comm/jobs/view/{job_id}/?trackingId=Zk3%2Fq8uQ%3D%3D"
            f"&refId=abc123&lipi=urn%3Ali%3Apage%3Aemail&midToken=AQH-secret-mid"
            f"&midSig=1x2y3z&trk=eml-email_job_alert_digest_01-{trk}"
            f"&trkEmail=eml-email_job_alert_digest_01-null-0&eid=e1&otpToken=SIGNIN-TOKEN-42")


LI_JOBS = [
    ("4317109784", "Senior Backend Engineer", "Acme", "Berlin, Germany (Hybrid)"),
    ("4318220011", "Staff Software Engineer, Payments", "Globex GmbH", "Remote"),
    ("4319330022", "Backend Developer (Python)", "Initech", "Munich, Bavaria, Germany"),
]
LI_FOOTER_TEXT = (
    "This email was intended for Ada Lovelace (Staff Engineer at a $250M+ fintech)\n"
    "Learn why we included this: https://www.linkedin.com/help/linkedin/answer/4788\n"
    "You are receiving Job Alert emails.\n"
    "Unsubscribe: https://www.linkedin.com/comm/psettings/email-unsubscribe?lipi=x\n"
    f"© 2026 LinkedIn Corporation, 1{ZWNJ}000 West Maude Avenue, Sunnyvale, CA 94085.\n")


def linkedin_saved_search(jobs: list[tuple[str, str, str, str]] | None = None,
                          message_id: str = "<1739.saved@ses.linkedin.com>") -> Sample:
    jobs = jobs or LI_JOBS
    badges = [["3 connections", "Easy Apply"], ["Actively recruiting"], ["1 company alum"]]
    cards = []
    for n, (job_id, title, company, place) in enumerate(jobs):
        extra = badges[n % 3]
        cards.append("\n".join([title, company, place, *extra,
                                f"View job: {li_link(job_id, 'jobcard_body_0')}"]))
    text = ("Your job alert for backend engineer in Germany\n"
            "3 new jobs match your preferences.\n\n"
            + ("\n\n" + "-" * 60 + "\n\n").join(cards)
            + "\n\n" + "-" * 60 + "\n\n"
            "See all jobs: https://www.linkedin.com/comm/jobs/search?keywords=backend&geoId=1\n\n"
            + LI_FOOTER_TEXT)
    rows = []
    for job_id, title, company, place in jobs:
        # The "current" layout (dreamjob): title and "Employer · Place" both inside the
        # posting's link, as two paragraphs; a logo link before it.
        rows.append(f"""
<tr><td style="padding:0 24px 16px">
 <table role="presentation" width="100%"><tr>
  <td width="48"><a href="{li_link(job_id, 'job_card-0-company_logo')}"
      style="text-decoration:none"><img src="https://media.licdn.com/logo.png"
      alt="{company}" width="48" height="48"></a></td>
  <td style="padding-left:12px">
   <a href="{li_link(job_id, 'job_card-0-job_posting')}" style="color:#0a66c2">
    <p style="margin:0;font-weight:600;font-size:16px">{title}</p>
    <p style="margin:0;font-size:14px">{company} &middot; {place}</p></a>
   <p style="margin:4px 0 0"><a href="{li_link(job_id, 'job_card-0-jobcard_body')}"
      style="color:#666">Easy Apply</a></p>
  </td></tr></table></td></tr>""")
    html = f"""<!DOCTYPE html><html><head><meta charset="utf-8"><title>LinkedIn</title>
<style>td {{ font-family: -apple-system, sans-serif; }}</style></head><body>
<div style="display:none;max-height:0;overflow:hidden">Senior Backend Engineer at Acme{PAD}</div>
<table role="presentation" width="100%"><tr><td>
<table role="presentation" width="600" align="center">
<tr><td><img src="https://static.licdn.com/logo.png" alt="LinkedIn" width="84"></td></tr>
<tr><td><h2 style="font-size:20px">Your job alert for <b>backend engineer</b> in Germany</h2>
<p>3 new jobs match your preferences.</p></td></tr>
{''.join(rows)}
<tr><td><a href="https://www.linkedin.com/comm/jobs/search?keywords=backend&amp;geoId=1&amp;trk=x"
>See all jobs</a></td></tr>
<tr><td style="font-size:12px;color:#666">
<p>This email was intended for Ada Lovelace (Staff Engineer at a $250M+ fintech)</p>
<p><a href="https://www.linkedin.com/help/linkedin/answer/4788">Learn why we included this.</a></p>
<p>You are receiving Job Alert emails. <a href="https://www.linkedin.com/comm/psettings/email-unsubscribe?lipi=x">Unsubscribe</a></p>
<p>&copy; 2026 LinkedIn Corporation, 1{ZWNJ}000 West Maude Avenue, Sunnyvale, CA 94085.</p>
</td></tr></table></td></tr></table></body></html>"""
    raw = mail("LinkedIn Job Alerts <jobalerts-noreply@linkedin.com>",
               "Senior Backend Engineer at Acme", text, html,
               message_id=message_id,
               headers={"X-LinkedIn-Class": "SAVEDSEARCH",
                        "X-LinkedIn-Template": "email_job_alert_digest_01"})
    return Sample(raw, "linkedin", "saved search", [
        Expected(title, company, place, f"https://www.linkedin.com/jobs/view/{job_id}/",
                 f"linkedin:{job_id}") for job_id, title, company, place in jobs])


LI_SIMILAR = [
    ("4320440033", "Platform Engineer", "Hooli", "London, England, United Kingdom (Remote)"),
    ("4321550044", "Senior Site Reliability Engineer", "Umbrella Corp", "Dublin (On-site)"),
]


def linkedin_similar() -> Sample:
    """The "similar jobs" table template (adamkwhite's fixture): a 48 px logo cell,
    a body cell with the title link and "Company · Location", three links a card."""
    def link(job_id: str, trk: str) -> str:
        return (f"https://www.linkedin.com/comm/jobs/view/{job_id}/?refId=r1&trackingId=t1"
                f"&trk=eml-email_jobs_viewed_job_reminder_01-{trk}&otpToken=tok")
    rows = "".join(f"""
<tr><td width="48" valign="top"><a href="{link(job_id, 'job_card-0-company_logo')}"><img
 alt="{company}" width="48" src="https://media.licdn.com/x.png"></a></td>
<td><a href="{link(job_id, 'job_card-0-job_posting')}"><span>{title}</span></a>
<p>{company} · {place}</p>
<a href="{link(job_id, 'job_card-0-jobcard_body')}"><span style="color:#777">Fast growing</span>
</a></td></tr>"""
                   for job_id, title, company, place in LI_SIMILAR)
    html = f"""<html><body><table>
<tr><td colspan="2"><a href="https://www.linkedin.com/comm/jobs/view/4300000001/?refId=v&amp;t=2"
>Jobs similar to <b>Backend Engineer</b> at <b>Acme</b></a></td></tr>
{rows}
<tr><td colspan="2"><a href="https://www.linkedin.com/comm/jobs/collections/similar-jobs?\
referenceJobId=4300000001&amp;trk=see_all">See all jobs</a></td></tr>
<tr><td colspan="2"><p>This email was intended for Ada Lovelace (Engineer)</p></td></tr>
</table></body></html>"""
    text = ("Jobs similar to Backend Engineer at Acme\n\n"
            + "\n".join(f"{title}\n{company}\n{place}\nFast growing\n"
                        f"View job: {link(job_id, 'jobcard_body')}\n\n" + "-" * 40 + "\n"
                        for job_id, title, company, place in LI_SIMILAR)
            + "\nSee all jobs: https://www.linkedin.com/comm/jobs/collections/similar-jobs"
              "?referenceJobId=4300000001\n\n" + LI_FOOTER_TEXT)
    raw = mail("LinkedIn <jobs-noreply@linkedin.com>",
               "New jobs similar to Backend Engineer at Acme", text, html)
    return Sample(raw, "linkedin", "similar jobs", [
        Expected(title, company, place, f"https://www.linkedin.com/jobs/view/{job_id}/",
                 f"linkedin:{job_id}") for job_id, title, company, place in LI_SIMILAR])


def linkedin_hiring() -> Sample:
    """"<Company> is hiring a <Title>": one company's recommendations, subject encoded."""
    jobs = [("4322660055", "Engineering Manager — Data", "Zürcher Kantonalbank",
             "Zürich, Switzerland")]
    job_id, title, company, place = jobs[0]
    link = f"https://www.linkedin.com/comm/jobs/view/{job_id}/?trackingId=a&trk=hiring"
    html = (f"<html><body><h1>{company} is hiring a {title}</h1>"
            f"<table><tr><td><a href='{link}'><img alt='{company}'></a></td><td>"
            f"<a href='{link}'>{title}</a><p>{company} · {place}</p></td></tr></table>"
            "<p><a href='https://www.linkedin.com/comm/jobs/search?keywords=x'>See more jobs</a>"
            "</p></body></html>")
    text = f"{company} is hiring a {title}\n\n{title}\n{company}\n{place}\nView job: {link}\n"
    raw = mail("LinkedIn <jobs-noreply@linkedin.com>", f"{company} is hiring a {title}",
               text, html)
    return Sample(raw, "linkedin", "recommendations", [
        Expected(title, company, place, f"https://www.linkedin.com/jobs/view/{job_id}/",
                 f"linkedin:{job_id}")])


def linkedin_french() -> Sample:
    """Localised chrome, "(Hybride)" / "(Sur site)", the text part in ISO-8859-1, base64."""
    jobs = [("4323770066", "Développeur Python Senior", "Société Générale",
             "Paris, Île-de-France, France (Hybride)"),
            ("4324880077", "Ingénieur DevOps", "Crédit Agricole", "Lyon (Sur site)")]
    text = ("Offres d'emploi similaires à Développeur Python chez Acme\n\n"
            + "".join(f"{t}\n{c}\n{p}\nCandidature simplifiée\nVoir l'offre : "
                      f"https://www.linkedin.com/comm/jobs/view/{i}/?trk=fr&midToken=m\n\n"
                      + "-" * 30 + "\n\n" for i, t, c, p in jobs)
            + "Vous recevez des alertes emploi.\n")
    html = ("<html><body><p>Offres d'emploi similaires à <b>Développeur Python</b> chez "
            "<b>Acme</b></p><table>"
            + "".join(f"<tr><td><a href='https://www.linkedin.com/comm/jobs/view/{i}/?trk=fr1'>"
                      f"<img alt='{c}'></a></td><td><a href='https://www.linkedin.com/comm/jobs/"
                      f"view/{i}/?trk=fr2'>{t}</a><p>{c} · {p}</p></td></tr>"
                      for i, t, c, p in jobs)
            + "</table><p>Vous recevez des alertes emploi.</p></body></html>")
    raw = mail("LinkedIn <jobs-noreply@linkedin.com>",
               "Offres d'emploi similaires à Développeur Python chez Acme", text, html,
               charset="iso-8859-1", text_cte="base64")
    return Sample(raw, "linkedin", "similar jobs", [
        Expected(t, c, p, f"https://www.linkedin.com/jobs/view/{i}/", f"linkedin:{i}")
        for i, t, c, p in jobs])


def linkedin_top_picks() -> Sample:
    """Guest pages with a slug before the id (which breaks `jobs/view/(\\d+)`) and
    `currentJobId` on a collections link."""
    html = """<html><body><h2>Top job picks for you</h2>
<div><a href="https://www.linkedin.com/jobs/view/senior-engineer-at-bolt-3746286426?refId=x&amp;trackingId=y&amp;position=1&amp;pageNum=0&amp;trk=public_jobs_jserp-result_search-card">
<div>Senior Engineer</div><div>Bolt · Tallinn, Estonia</div></a></div>
<div><a href="https://www.linkedin.com/jobs/collections/recommended/?currentJobId=4325990088&amp;trk=picks">
<div>Data Engineer</div><div>Vandelay Industries · New York, NY</div></a></div>
<p><a href="https://www.linkedin.com/jobs/collections/recommended/">See all</a></p>
</body></html>"""
    raw = mail("LinkedIn <jobs-listings@linkedin.com>", "Top job picks for you", None, html)
    return Sample(raw, "linkedin", "top picks", [
        Expected("Senior Engineer", "Bolt", "Tallinn, Estonia",
                 "https://www.linkedin.com/jobs/view/3746286426/", "linkedin:3746286426"),
        Expected("Data Engineer", "Vandelay Industries", "New York, NY",
                 "https://www.linkedin.com/jobs/view/4325990088/", "linkedin:4325990088")])


# --- Indeed -------------------------------------------------------------------------------

IN_JOBS = [
    ("a1b2c3d4e5f60718", "Backend Engineer", "Initech", "3.5", "Austin, TX",
     "$120,000 - $150,000 a year", "Build and run the billing APIs in Python and Go.",
     "Just posted", "https://www.indeed.com/rc/clk?jk=a1b2c3d4e5f60718&from=ja&qd=tok&rd=x&tk=1"),
    ("0f1e2d3c4b5a6978", "Senior Python Developer", "Hooli", "4.1", "Remote",
     "$60 - $70 an hour", "Own our data pipeline end to end.", "3 days ago",
     "https://www.indeed.com/pagead/clk?mo=r&ad=-6NYlbfkN0&vjk=0f1e2d3c4b5a6978&p=2&sk=&fvj=1"),
    ("99aa88bb77cc66dd", "Software Engineer II", "Pied Piper", "", "London",
     "£65,000 - £80,000 a year", "Compression at scale.", "30+ days ago",
     "https://uk.indeed.com/rc/clk/dl?jk=99aa88bb77cc66dd&from=ja&tk=2"),
]


def indeed_digest(jobs: list[tuple[str, ...]] | None = None, message_id: str = "") -> Sample:
    jobs = jobs or IN_JOBS
    cards = []
    for _jk, title, company, rating, place, pay, snippet, age, link in jobs:
        rated = f"{company}  {rating}  {rating}/5 rating" if rating else company
        cards.append(f"""
<tr><td style="padding:16px"><a href="{link}" style="text-decoration:none;color:#2d2d2d">
<table><tr><td><h2 style="font-size:18px">{title}</h2></td></tr>
<tr><td>{rated}</td></tr>
<tr><td>{place}</td></tr>
<tr><td><b>{pay}</b></td></tr>
<tr><td><span>Easily apply</span></td></tr>
<tr><td style="color:#595959">{snippet}</td></tr>
<tr><td style="font-size:12px">{age}</td></tr></table></a></td></tr>""")
    html = ("<html><body><table width='600'><tr><td><h1>python developer in Austin, TX</h1>"
            "</td></tr>" + "".join(cards)
            + "<tr><td><a href='https://www.indeed.com/jobs?q=python&amp;l=Austin'>See all "
              "jobs</a></td></tr><tr><td><a href='https://www.indeed.com/unsubscribe?t=x'>"
              "Unsubscribe</a> &copy; 2026 Indeed</td></tr></table></body></html>")
    # The text part: zero-width characters inside the words, as Indeed sends them.
    text = "New jobs for python developer in Austin, TX\n\n" + "\n\n".join(
        f"{title.replace('Engineer', 'Engi' + chr(0x200b) + 'neer')}\n{company} - {place}\n"
        f"{pay}\n{age}\nhttps://www.indeed.com/rc/clk/dl?jk={jk}&from=ja&tk=zz"
        for jk, title, company, _, place, pay, _, age, _ in jobs) + (
        "\n\nUnsubscribe: https://www.indeed.com/unsubscribe?t=x\n")
    raw = mail("Indeed <donotreply@jobalert.indeed.com>",
               "python developer in Austin, TX: Backend Engineer at Initech and 2 more new jobs",
               text, html, message_id=message_id)
    return Sample(raw, "indeed", "digest", [
        Expected("Backend Engineer", "Initech", "Austin, TX",
                 "https://www.indeed.com/viewjob?jk=a1b2c3d4e5f60718", "indeed:a1b2c3d4e5f60718",
                 (120000.0, 150000.0, "USD"), "billing APIs"),
        Expected("Senior Python Developer", "Hooli", "Remote",
                 "https://www.indeed.com/viewjob?jk=0f1e2d3c4b5a6978", "indeed:0f1e2d3c4b5a6978",
                 None),
        Expected("Software Engineer II", "Pied Piper", "London",
                 "https://uk.indeed.com/viewjob?jk=99aa88bb77cc66dd", "indeed:99aa88bb77cc66dd",
                 (65000.0, 80000.0, "GBP"))])


def indeed_match() -> Sample:
    link = "https://cts.indeed.com/v3/H4sIAAAAAAAA_opaque_token_without_jk?x=1"
    html = f"""<html><body><p>Your background could be a match for this job</p>
<table><tr><td><a href="{link}"><div><b>Site Reliability Engineer</b></div>
<div>Massive Dynamic</div><div>Boston, MA</div>
<div>Minimum base pay $135,000 a year</div><div>Responsive employer</div></a></td></tr></table>
<p><a href="{link}">View job</a></p></body></html>"""
    text = (f"Your background could be a match for this job\n\nSite Reliability Engineer\n"
            f"Massive Dynamic\nBoston, MA\nMinimum base pay $135,000 a year\n{link}\n")
    raw = mail("Indeed <donotreply@match.indeed.com>",
               "Massive Dynamic is hiring: your background could be a match", text, html)
    return Sample(raw, "indeed", "match", [
        Expected("Site Reliability Engineer", "Massive Dynamic", "Boston, MA",
                 "https://www.indeed.com/jobs?q=Site+Reliability+Engineer+Massive+Dynamic"
                 "&l=Boston%2C+MA", "", (135000.0, None, "USD"))])


# --- Glassdoor ------------------------------------------------------------------------------

GD_JOBS = [
    ("1009512345678", "Globex", "3.7", "Backend Engineer", "Springfield, IL",
     "$183K - $237K (Employer est.)", "Easy Apply", "21h"),
    ("1009587654321", "Stark Industries", "", "Principal Engineer", "Remote",
     "", "", "7d"),
    ("1009511112222", "Wayne Enterprises", "4.2", "Data Platform Engineer", "Gotham, NJ",
     "$140K - $170K (Glassdoor est.)", "", "24h"),
]


def glassdoor_alert() -> Sample:
    def link(listing: str) -> str:
        return (f"https://www.glassdoor.com/partner/jobListing.htm?pos=101&ao=1136043&s=224"
                f"&guid=0000018c-guid&src=GD_JOB_AD&t=ESR&vt=e&cs=1_ab&cb=17&jobListingId={listing}"
                f"&jrtk=5-yul1-0-secret&utm_source=jobalert&utm_medium=email")
    cards = "".join(f"""
<tr><td><a href="{link(lid)}" style="color:#000">
<table><tr><td><span>{employer}</span></td></tr>
{'<tr><td>' + rating + ' ★</td></tr>' if rating else ''}
<tr><td><b>{title}</b></td></tr><tr><td>{place}</td></tr>
{'<tr><td>' + pay + '</td></tr>' if pay else ''}
{'<tr><td>' + badge + '</td></tr>' if badge else ''}
<tr><td>{age}</td></tr></table></a></td></tr>"""
                    for lid, employer, rating, title, place, pay, badge, age in GD_JOBS)
    html = (f"<html><body><table><tr><td><h2>Jobs for Ada</h2></td></tr>{cards}"
            "<tr><td><a href='https://www.glassdoor.com/Job/jobs.htm?sc.keyword=x'>See all jobs"
            "</a></td></tr><tr><td>&copy; 2026 Glassdoor LLC</td></tr></table></body></html>")
    text = "Jobs for Ada\n\n" + "\n\n".join(
        "\n".join(x for x in (employer, f"{rating} ★" if rating else "", title, place, pay,
                              badge, age, link(lid)) if x)
        for lid, employer, rating, title, place, pay, badge, age in GD_JOBS) + "\n"
    raw = mail("Glassdoor Jobs <noreply@glassdoor.com>",
               "Backend Engineer at Globex and 2 more", text, html)
    return Sample(raw, "glassdoor", "alert", [
        Expected(title, employer, place,
                 f"https://www.glassdoor.com/partner/jobListing.htm?jobListingId={lid}",
                 f"glassdoor:{lid}", sal)
        for (lid, employer, _, title, place, _, _, _), sal in zip(
            GD_JOBS, [(183000.0, 237000.0, "USD"), None, (140000.0, 170000.0, "USD")],
            strict=True)])


# --- ZipRecruiter ---------------------------------------------------------------------------

ZR_JOBS = [
    ("Senior Software Engineer", "Acme Robotics", "Pittsburgh, PA", "Remote", "$107K - $195K/yr"),
    ("Backend Engineer", "Soylent Corp", "Denver, CO", "Hybrid", "$95K - $130K/yr"),
]


def ziprecruiter_alert() -> Sample:
    cards = ""
    for n, (title, company, city, where, pay) in enumerate(ZR_JOBS):
        ekm = f"https://www.ziprecruiter.com/ekm/AAKx{n}9secretTOKEN?lk=LK{n}&lvk=LVK&tsid=TS{n}"
        km = f"https://www.ziprecruiter.com/km/BBQ{n}token?expires=1798000000&lk=LK{n}&tsid=TS"
        cards += f"""<table class="job"><tr><td>
<a href="{ekm}" style="font-size:18px">{title}</a>
<p>{company} &bull; {city} &bull; {where}</p>
<p>{pay}</p><p style="font-size:11px">Estimated Pay</p>
<a href="{km}">View Details</a> <a href="{km}&amp;apply=1">1-Click Apply</a>
</td></tr></table>"""
    html = (f"<html><body><h1>Here are today's jobs recommended for you</h1>{cards}"
            "<p><a href='https://www.ziprecruiter.com/candidate/alerts'>Manage your job alerts"
            "</a></p></body></html>")
    text = "Here are today's jobs recommended for you\n\n" + "\n\n".join(
        f"{title}\n{company} • {city} • {where}\n{pay}\nView Details: "
        f"https://www.ziprecruiter.com/km/CC{n}tok?expires=1798000000&tsid=T"
        for n, (title, company, city, where, pay) in enumerate(ZR_JOBS)) + "\n"
    raw = mail("ZipRecruiter <alerts@ziprecruiter.com>",
               "Senior Software Engineer and more jobs for you", text, html)
    return Sample(raw, "ziprecruiter", "alert", [
        Expected(title, company, f"{city} ({where})",
                 "https://www.ziprecruiter.com/jobs-search?search="
                 + quote(f"{title} {company}").replace("%20", "+")
                 + "&location=" + quote(f"{city} ({where})", safe="").replace("%20", "+"),
                 "", (lo, hi, "USD"))
        for (title, company, city, where, _), (lo, hi) in zip(
            ZR_JOBS, [(107000.0, 195000.0), (95000.0, 130000.0)], strict=True)])


# --- Wellfound ---------------------------------------------------------------------------

WF_JOBS = [
    ("2894821", "staff-engineer", "Staff Engineer", "Hooli", "51-200",
     "$173–233k | Remote only, United States | 4 years of exp | Full-time",
     "Hooli's infra team is small and ships weekly; the role owns the storage layer."),
    ("3001122", "founding-backend-engineer", "Founding Backend Engineer", "Raviga", "1-10",
     "$150–190k | San Francisco | 3 years of exp | Full-time",
     "An early bet on developer tools with a strong founding team."),
]


def wellfound_alert() -> Sample:
    text = "New jobs for you\n\n" + "\n\n".join(
        f"{title}\n{company} / {size} Employees\n{facets}\nActively Hiring\n\nOur Take\n{take}\n\n"
        f"Learn More\nhttps://wellfound.com/jobs?job_listing_slug{lid}-{slug}&utm_source=email"
        for lid, slug, title, company, size, facets, take in WF_JOBS) + "\n\nUnsubscribe\n"
    html = "<html><body><h2>New jobs for you</h2>" + "".join(
        f"<div><h3>{title}</h3><p>{company} / {size} Employees</p><p>{facets}</p>"
        f"<p>Actively Hiring</p><p><b>Our Take</b></p><p>{take}</p>"
        f"<p><a href='https://wellfound.com/jobs?job_listing_slug={lid}-{slug}&amp;utm_campaign=x'>"
        "Learn More</a></p></div>"
        for lid, slug, title, company, size, facets, take in WF_JOBS) + "</body></html>"
    raw = mail("Wellfound <team@hi.wellfound.com>",
               "New jobs: Staff Engineer at Hooli and 1 more jobs", text, html)
    return Sample(raw, "wellfound", "alert", [
        Expected("Staff Engineer", "Hooli", "Remote only, United States",
                 "https://wellfound.com/jobs/2894821-staff-engineer", "wellfound:2894821",
                 (173000.0, 233000.0, "USD"), "storage layer"),
        Expected("Founding Backend Engineer", "Raviga", "San Francisco",
                 "https://wellfound.com/jobs/3001122-founding-backend-engineer",
                 "wellfound:3001122", (150000.0, 190000.0, "USD"), "developer tools")])


# --- Welcome to the Jungle ---------------------------------------------------------------

def sendgrid(page: str | None, tail: str, seed: str) -> str:
    if page is None:
        token = "u001." + base64.b64encode(("opaque:" + seed).encode() * 3).decode().replace(
            "+", "-2B").replace("/", "-2F").replace("=", "-3D")
    else:
        token = "u001." + base64.b64encode(page.encode()).decode().replace(
            "+", "-2B").replace("/", "-2F").replace("=", "-3D")
    return f"http://t.welcometothejungle.com/ls/click?upn={token}{tail}"


def wttj_alert(french: bool = False) -> Sample:
    jobs = [("Doctolib", "Data Engineer", "CDI - Paris",
             "https://www.welcometothejungle.com/fr/companies/doctolib/jobs/data-engineer_paris"),
            ("Alan", "Senior Backend Engineer", "CDI - Paris", None)]
    boxes = ""
    for n, (company, title, contract, page) in enumerate(jobs):
        cells = [(company, "text-transform:uppercase;font-size:12px"),
                 (title, "font-size:20px"), (contract, "font-size:14px")]
        boxes += '<table class="job-item" width="100%"><tr>' + "".join(
            f'<td style="{style}"><a href="{sendgrid(page, f"-2Bcell{i}xyz", str(n))}">'
            f"{value}</a></td>" for i, (value, style) in enumerate(cells)) + "</tr></table>"
    head = "Nouveau job pour vous" if french else "New match for you"
    html = (f"<html><body><h1>{head}</h1>{boxes}<p><a href='{sendgrid(None, '-2Bfoot', 'f')}'>"
            + ("Se désinscrire" if french else "Unsubscribe") + "</a></p></body></html>")
    text = f"{head}\n\n" + "\n\n".join(
        f"{company}\n{title}\n{contract}\n{sendgrid(page, '-2Btext', str(n))}"
        for n, (company, title, contract, page) in enumerate(jobs)) + "\n"
    subject = ("Nouveau job : Data Engineer chez Doctolib" if french
               else "New match: Data Engineer at Doctolib")
    raw = mail("Welcome to the Jungle <alerts@welcometothejungle.com>", subject, text, html)
    return Sample(raw, "wttj", "alert", [
        Expected("Data Engineer", "Doctolib", "Paris",
                 "https://www.welcometothejungle.com/fr/companies/doctolib/jobs/data-engineer_paris",
                 "wttj:doctolib/data-engineer_paris"),
        Expected("Senior Backend Engineer", "Alan", "Paris",
                 "https://www.welcometothejungle.com/en/jobs?query=Senior+Backend+Engineer+Alan")])


# --- Google -----------------------------------------------------------------------------------

def google_redirect(destination: str) -> str:
    r = base64.urlsafe_b64encode(zlib.compress(destination.encode())).decode().rstrip("=")
    return f"https://notifications.googleapis.com/email/redirect?t=AFG8qyV-secret&r={r}"


GO_JOBS = [
    ("Solutions Architect, AI", "Initrode", "Springfield, IL", "LinkedIn", "3 days ago",
     "Full-time", "abc123"),
    ("Senior Solutions Architect", "Cyberdyne Systems", "Springfield, MO", "Indeed",
     "21 days ago", "Contractor", "def456"),
]


def google_alert(german: bool = False) -> Sample:
    via = "über" if german else "via"
    cards = "".join(
        f"""<tr><td><a href="{google_redirect(
            'https://www.google.com/search?q=' + quote(t) + '&ibp=htl;jobs&htidocid=' + d
            + '&sa=X&ved=secret')}" style="text-decoration:none">
<table><tr><td><div style="border-radius:50%">{c[0]}</div></td><td>
<div>{t}</div><div>{c}</div><div>{p}</div><div>{via} {v}</div>
<div><img alt="Time icon" src="x.png"> {age} <img alt="Work icon" src="y.png"> {kind}</div>
</td></tr></table></a></td></tr>"""
        for t, c, p, v, age, kind, d in GO_JOBS)
    html = (f"<html><body><table><tr><td>Job Alerts from Google</td></tr>{cards}"
            f"<tr><td><a href=\"{google_redirect('https://www.google.com/alerts/manage')}\">"
            "Unsubscribe</a></td></tr></table></body></html>")
    text = ("Job Alerts from Google\n\n" + "\n\n".join(
        f"{c[0]}\n{t}\n{c}\n{p}\n{via} {v}\nTime icon {age} Work icon {kind}"
        for t, c, p, v, age, kind, _ in GO_JOBS) + "\n\nUnsubscribe\n")
    subject = ('2 neue Jobs für "Solutions Architect" - 30. Nov.' if german
               else '("Solutions Architect") AND ("AI") near Springfield')
    raw = mail("Job Alerts from Google <notify-noreply@google.com>", subject, flow(text), html,
               text_cte="base64", flowed=True)
    return Sample(raw, "google", "alert", [
        Expected(t, c, p, f"https://www.google.com/search?q={quote(t).replace('%20', '+')}"
                 .replace("%2C", "%2C") + f"&ibp=htl;jobs&htidocid={d}", "", None, f"{via} {v}")
        for t, c, p, v, _, _, d in GO_JOBS])


# --- mail that is not an alert -----------------------------------------------------------------

def lookalike() -> bytes:
    """A real LinkedIn alert's body from a domain that only looks like LinkedIn's."""
    good = linkedin_saved_search().raw
    return good.replace(b"jobalerts-noreply@linkedin.com",
                        b"jobalerts-noreply@linkedin.com.example")


NOT_ALERTS = {
    "look-alike domain": lookalike(),
    "linkedin message": mail("Grace via LinkedIn <messages-noreply@linkedin.com>",
                             "Grace sent you a message", "Hi Ada, are you free?", None),
    "google tag manager": mail("Google Tag Manager <notify-noreply@google.com>",
                               "You have been invited to a container",
                               "Grace invited you to the container GTM-XYZ.", None),
    "indeed application": mail("Indeed Apply <indeedapply@indeed.com>",
                               "Application submitted: Backend Engineer",
                               "Your application has been submitted. "
                               "https://www.indeed.com/viewjob?jk=a1b2c3d4e5f60718", None),
    "a friend's links": mail("Grace <grace@gmail.com>", "saw these jobs at Acme",
                             "https://www.linkedin.com/jobs/view/4317109784/", None),
}


def all_samples() -> dict[str, Sample]:
    return {
        "linkedin saved search": linkedin_saved_search(),
        "linkedin similar jobs": linkedin_similar(),
        "linkedin is hiring": linkedin_hiring(),
        "linkedin french": linkedin_french(),
        "linkedin top picks": linkedin_top_picks(),
        "indeed digest": indeed_digest(),
        "indeed match": indeed_match(),
        "glassdoor": glassdoor_alert(),
        "ziprecruiter": ziprecruiter_alert(),
        "wellfound": wellfound_alert(),
        "wttj": wttj_alert(),
        "wttj french": wttj_alert(french=True),
        "google": google_alert(),
        "google german": google_alert(german=True),
    }


SAMPLES = all_samples()
