"""LinkedIn: saved-search alerts, "jobs similar to", recommendations, top picks.

Three senders at linkedin.com send job mail (its other mail — messages,
invitations, security notices — comes from other addresses). Every card links to
`/comm/jobs/view/<id>/` (the logo, the title and the body: three links, one card),
or to a guest page `/jobs/view/<title>-at-<company>-<id>`, or carries
`currentJobId=<id>`; the id (7 digits or more) is the stable part, so the page is
rebuilt as `https://www.linkedin.com/jobs/view/<id>/` and every tracking parameter
(trackingId, refId, midToken, otpToken, trk ...) is dropped.

Card layouts read alike: in HTML the title, then "Company · Place (Arrangement)"
(in one paragraph, or the two inside the link); in text "Title / Company / Place",
badge lines, then "View job: <link>", cards split by a rule of hyphens.
"""

from __future__ import annotations

import re

from jobtracker.alerts.base import (
    CardText,
    JobLink,
    Mail,
    Sender,
    host_of,
    join_wrapped,
    looks_like_salary,
    pattern,
    posting,
    query,
)
from jobtracker.hosts import host_is
from jobtracker.sources.base import NormalizedPosting

_VIEW = re.compile(r"/(?:comm/)?jobs/view/(?:[^/?#]*?-)?(\d{7,})(?:[/?#]|$)")
_TEMPLATES = {
    "jobalerts-noreply": "saved search",
    "jobs-listings": "top picks",
}


class LinkedIn(Sender):
    name = "linkedin"
    label = "LinkedIn"
    domains = ("linkedin.com",)
    locals = ("jobalerts-noreply", "jobs-noreply", "jobs-listings")
    subjects = pattern(
        r"\bis hiring\b", r"\bnew\b.*\bjobs?\b", r"\bjobs? (?:for you|similar to)\b",
        r"\bjob picks\b", r"\bjobs you may be interested in\b", r"\bat\b",
        r"offres d'emploi", r"\bchez\b", r"\bbei\b.*\bjobs?\b", r"stellenangebote")
    markers = ("/jobs/view/", "currentjobid=", "view job", "voir l'offre", "your job alert",
               "jobs similar to", "job alert")
    chrome = pattern(
        r"^your job alert for\b", r"^votre alerte", r"^jobs? similar to\b",
        r"^new jobs? similar to\b", r"^offres d'emploi similaires", r"^\d+ new jobs? match",
        r"^\d+ nouvelles? offres?", r"^(?:new )?jobs? (?:that )?match(?:es)? your",
        r"^top job picks", r"^jobs you may be interested in", r"^see all(?: jobs)?\b",
        r"^voir toutes", r"^see more jobs", r"^view job:?$", r"^voir l'offre:?$",
        r"^apply now$", r"^this email was intended for", r"^cet e-mail est destiné",
        r"^you are receiving", r"^vous recevez", r"^unsubscribe", r"^se désabonner",
        r"^help$", r"^aide$", r"^©", r"linkedin corporation", r"^learn why we included",
        r"^install (?:the )?linkedin", r"^get the new linkedin", r"^manage (?:your )?job alerts",
        r"^gérer", r"^is hiring\b", r"\bis hiring (?:a|an)\b",
        r"^\d+\+? new jobs? match", r"^new jobs? match your preferences",
        r"^here are your job alert",
        r"your job alert for\b", r"^results from the new ai-powered job search",
        r"^new jobs from your other alerts", r"^<strong\b", r"^job search smarter with premium",
        r"^learn why we included", r"^jobs? similar to your alert", r"^there were no results",
        # Spanish chrome, as other projects' readers of real Spanish mail list it.
        r"^ver anuncio de empleo$", r"^el empleo guardado sigue disponible",
        r"^tu alerta de empleo",
        r"^ver todos los empleos", r"^nuevos empleos", r"^\d+\+? nuevos? empleos?",
        r"^tus otros empleos", r"^empleos similares")
    badges = pattern(
        r"^\d+ (?:school alumni|connections?|company alumni|company alum|anciens?)\b",
        r"^1 company alum$", r"^fast growing$", r"^actively (?:recruiting|hiring)$",
        r"^top applicant$", r"^easy apply$", r"^apply with resume$", r"^promoted$",
        r"^be an early applicant$", r"^\d+ applicants?$", r"^candidature simplifiée$",
        r"^recrutement actif$", r"^en pleine croissance$", r"^new$", r"^viewed$",
        r"^your profile matches", r"^\d+ (?:days?|weeks?|hours?) ago$", r"^just now$",
        r"^\d+ (?:school|company) alum(?:ni)?$", r"^this company is actively hiring$",
        r"^apply with resume(?: & profile)?$", r"^actively reviewing applicants$",
        r"^be an early applicant$", r"^\d+ connections? work here$",
        r"^esta empresa busca personal activamente$", r"^solicitar con perfil y cv$",
        r"^\d+ contactos?$", r"^promocionado$", r"^sé uno de los primeros",
        r"^\d+ personas? (?:estudi|trabaj)", r"^solicitud sencilla$",
        r"^(?:high |medium |low )?skills? match$", r"^expand your search$",
        r"^recommendations based on your activity")

    def template(self, mail: Mail) -> str:
        header = mail.headers.get("x-linkedin-template", "")
        if "job_alert" in header:
            return "saved search"
        subject = mail.subject.lower()
        if "similar" in subject or "similaires" in subject:
            return "similar jobs"
        if mail.local in _TEMPLATES:
            return _TEMPLATES[mail.local]
        return "recommendations"

    def job_link(self, href: str) -> JobLink | None:
        host = host_of(href)
        if host_is(host, "lnkd.in"):   # a short link: no id offline, never stored
            return JobLink(key=href.split("?", 1)[0])
        if not host_is(host, "linkedin.com"):
            return None
        found = _VIEW.search(href.split("?", 1)[0] + "/")
        job_id = found.group(1) if found else ""
        if not job_id:
            values = query(href)
            if "referenceJobId" in values or "keywords" in values:
                return None            # "see all similar jobs", a search: not a card
            job_id = next((v[0] for k, v in values.items()
                           if k in ("currentJobId", "jobId") and re.fullmatch(r"\d{7,}", v[0])),
                          "")
        if not job_id:
            return None
        return JobLink(job_id, f"linkedin:{job_id}", f"https://www.linkedin.com/jobs/view/{job_id}/")

    def read(self, card: CardText) -> NormalizedPosting | None:
        lines = join_wrapped(card.lines)
        if not lines:
            return None
        pay = ""
        if len(lines) > 3 and looks_like_salary(lines[-1]):
            pay = lines.pop()             # "£65K-£74K / year" under the place
        if card.part == "text" and not any(" · " in line for line in lines[1:3]):
            # Title / Company / Place read back from the card's link: the last three
            # lines, so a header the mail left above the first card is never its title.
            title, company, place = lines[-3:] if len(lines) >= 3 else [*lines, "", ""][:3]
            return posting(self.name, card, title=_TITLE_CUT.sub("", title), company=company,
                           location=place, pay=pay)
        title, rest = _TITLE_CUT.sub("", lines[0]), lines[1:]
        company = place = ""
        if rest and " · " in rest[0]:
            company, _, place = rest[0].partition(" · ")
            # "$150K-$260K / year" under "Company · Place", before the badges.
            pay = pay or next((line for line in rest[1:3] if looks_like_salary(line)), "")
        elif rest:
            company = rest[0]
            place = rest[1] if len(rest) > 1 else ""
        return posting(self.name, card, title=title, company=company, location=place, pay=pay)


# A title sometimes carries a badge or pay after a middle dot ("Engineer · Easy Apply").
_TITLE_CUT = re.compile(r"\s+·\s+.*$|\s+\$\d.*$|\s+easy apply$|\s+actively recruiting$", re.I)


SENDER = LinkedIn()

__all__ = ["SENDER", "LinkedIn"]
