"""Response bodies in public shapes: feeds (RSS 2.0, Atom, JSON Feed) and the second
wave of sources (Workable, SmartRecruiters, Recruitee, Personio, Workday, Hacker News
through Algolia, Remote OK, Remotive, Himalayas), each as the service answers.

`answer_plan` runs a source's plan against such bodies in memory. Greenhouse, Lever
and Ashby bodies are in servers/boards.py, beside the server.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import format_datetime
from typing import Any
from xml.sax.saxutils import escape as xml_escape

from jobtracker.sources.base import Request, Response

# --- feeds --------------------------------------------------------------------------

@dataclass(frozen=True)
class Item:
    """One feed item, written out by `rss`, `atom` or `json_feed`."""

    guid: str
    title: str
    link: str
    blurb_html: str = "<p>A short blurb.</p>"
    published: datetime = datetime(2026, 9, 1, 9, 30, tzinfo=UTC)
    author: str = ""
    location: str = ""


def rss(items: Iterable[Item], title: str = "Jobs") -> str:
    parts = [f'<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" '
             f'xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>{xml_escape(title)}'
             f"</title><link>https://example.org/</link><description>jobs</description>"]
    for item in items:
        parts.append(
            f"<item><title>{xml_escape(item.title)}</title><link>{xml_escape(item.link)}</link>"
            f'<guid isPermaLink="false">{xml_escape(item.guid)}</guid>'
            f"<description>{xml_escape(item.blurb_html)}</description>"
            f"<pubDate>{format_datetime(item.published)}</pubDate>"
            + (f"<dc:creator>{xml_escape(item.author)}</dc:creator>" if item.author else "")
            + (f"<location>{xml_escape(item.location)}</location>" if item.location else "")
            + "</item>")
    parts.append("</channel></rss>")
    return "".join(parts)


def atom(items: Iterable[Item], title: str = "Jobs") -> str:
    parts = ['<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">'
             f"<title>{xml_escape(title)}</title><id>urn:jobs</id>"
             "<updated>2026-09-01T00:00:00Z</updated>"]
    for item in items:
        parts.append(
            f"<entry><id>{xml_escape(item.guid)}</id><title type=\"text\">"
            f"{xml_escape(item.title)}</title><link rel=\"alternate\" "
            f"href=\"{xml_escape(item.link)}\"/><updated>{item.published.isoformat()}</updated>"
            f"<summary type=\"html\">{xml_escape(item.blurb_html)}</summary>"
            + (f"<author><name>{xml_escape(item.author)}</name></author>" if item.author else "")
            + "</entry>")
    parts.append("</feed>")
    return "".join(parts)


def json_feed(items: Iterable[Item], title: str = "Jobs") -> dict[str, Any]:
    return {
        "version": "https://jsonfeed.org/version/1.1",
        "title": title,
        "items": [
            {"id": item.guid, "url": item.link, "title": item.title,
             "content_html": item.blurb_html, "date_published": item.published.isoformat(),
             **({"authors": [{"name": item.author}]} if item.author else {})}
            for item in items
        ],
    }



def workable_job(shortcode: str, title: str, *, city: str = "Berlin",
                 country: str = "Germany", remote: bool = False, workplace: str = "on_site",
                 published: str = "2026-09-01T00:00:00.000Z",
                 department: Any = ("Engineering",)) -> dict[str, Any]:
    """One item of `POST /api/v3/accounts/{slug}/jobs` (`results`)."""
    return {"id": 1000 + len(shortcode), "shortcode": shortcode, "title": title,
            "remote": remote, "workplace": workplace,
            "location": {"country": country, "countryCode": "DE", "city": city,
                         "region": "Berlin"},
            "locations": [{"country": country, "city": city, "region": "Berlin",
                           "hidden": False}],
            "state": "published", "isInternal": False,
            "department": list(department) if isinstance(department, tuple) else department,
            "published": published, "type": "full", "employment_type": "Full-time",
            "language": "en", "accessibility": None}


def workable_page(jobs: list[dict[str, Any]], next_page: str | None = None,
                  total: int | None = None) -> dict[str, Any]:
    page: dict[str, Any] = {"total": len(jobs) if total is None else total, "results": jobs}
    if next_page:
        page["nextPage"] = next_page
    return page


def workable_detail(shortcode: str, title: str, *, description_html: str = "<p>Build.</p>",
                    requirements: str = "<ul><li>Go</li></ul>",
                    benefits: str = "<p>Lunch.</p>") -> dict[str, Any]:
    """`GET /api/v2/accounts/{slug}/jobs/{shortcode}`."""
    return {"shortcode": shortcode, "title": title, "description": description_html,
            "requirements": requirements, "benefits": benefits, "remote": False,
            "location": {"city": "Berlin", "country": "Germany"}}


def smartrecruiters_posting(posting_id: str, name: str, *, city: str = "Paris",
                            country: str = "fr", remote: bool = False,
                            department: str = "Engineering",
                            released: str = "2026-09-01T10:00:00.000Z",
                            company: str = "acme") -> dict[str, Any]:
    """One item of `GET /v1/companies/{id}/postings` (`content`)."""
    return {"id": posting_id, "name": name, "uuid": f"uuid-{posting_id}",
            "refNumber": f"REF{posting_id}",
            "company": {"identifier": company, "name": company.title()},
            "releasedDate": released,
            "location": {"city": city, "region": "IDF", "country": country,
                         "remote": remote, "fullLocation": f"{city}, {country}"},
            "industry": {"id": "it", "label": "Information Technology"},
            "department": {"id": "1", "label": department},
            "function": {"id": "eng", "label": "Engineering"},
            "typeOfEmployment": {"id": "permanent", "label": "Full-time"},
            "experienceLevel": {"id": "mid_senior_level", "label": "Mid-Senior Level"},
            "ref": f"https://api.smartrecruiters.com/v1/companies/{company}/postings/{posting_id}"}


def smartrecruiters_page(content: list[dict[str, Any]], offset: int = 0,
                         total: int | None = None) -> dict[str, Any]:
    return {"offset": offset, "limit": 100,
            "totalFound": len(content) if total is None else total, "content": content}


def smartrecruiters_detail(posting_id: str, name: str,
                           job_html: str = "<p>Ship it.</p>") -> dict[str, Any]:
    """`GET /v1/companies/{id}/postings/{postingId}`."""
    sections = {
        "companyDescription": {"title": "Company Description", "text": "<p>We are Acme.</p>"},
        "jobDescription": {"title": "Job Description", "text": job_html},
        "qualifications": {"title": "Qualifications", "text": "<ul><li>Java</li></ul>"},
        "additionalInformation": {"title": "Additional Information", "text": ""},
    }
    return {"id": posting_id, "name": name, "jobAd": {"sections": sections}}


def recruitee_offer(offer_id: int, title: str, *, city: str = "Amsterdam",
                    country: str = "Netherlands", remote: bool = False,
                    created_at: str = "2026-09-01 10:00:00 UTC", slug: str = "acme",
                    location: str | None = None) -> dict[str, Any]:
    """One item of `GET /api/offers/` (`offers`)."""
    return {"id": offer_id, "slug": f"job-{offer_id}", "title": title,
            "careers_url": f"https://{slug}.recruitee.com/o/job-{offer_id}",
            "careers_apply_url": f"https://{slug}.recruitee.com/o/job-{offer_id}/c/new",
            "city": city, "country": country, "country_code": "NL", "remote": remote,
            "location": location if location is not None else f"{city}, {country}",
            "department": "Engineering", "employment_type_code": "fulltime",
            "created_at": created_at, "published_at": created_at, "status": "published",
            "description": "<p>Our product.</p>", "requirements": "<ul><li>Ruby</li></ul>"}


def personio_position(job_id: int, name: str, *, office: str = "Munich",
                      additional: Iterable[str] = (), department: str = "Engineering",
                      created_at: str = "2026-09-01T10:00:00+00:00",
                      sections: Iterable[tuple[str, str]] = (("Your tasks", "<p>Code.</p>"),
                                                             ("Your profile", "<ul><li>"
                                                              "Kotlin</li></ul>"))) -> str:
    """One `<position>` of `GET /xml?language=en` (descriptions in CDATA)."""
    extra = "".join(f"<office>{xml_escape(o)}</office>" for o in additional)
    descriptions = "".join(
        f"<jobDescription><name>{xml_escape(title)}</name><value><![CDATA[{value}]]></value>"
        "</jobDescription>" for title, value in sections)
    return (f"<position><id>{job_id}</id><subcompany>Acme GmbH</subcompany>"
            f"<office>{xml_escape(office)}</office>"
            + (f"<additionalOffices>{extra}</additionalOffices>" if extra else "")
            + f"<department>{xml_escape(department)}</department>"
            f"<recruitingCategory>Tech</recruitingCategory><name>{xml_escape(name)}</name>"
            f"<jobDescriptions>{descriptions}</jobDescriptions>"
            "<employmentType>permanent</employmentType><seniority>experienced</seniority>"
            "<schedule>full-time</schedule><yearsOfExperience>3-5</yearsOfExperience>"
            f"<occupation>software</occupation><createdAt>{created_at}</createdAt></position>")


def personio_xml(positions: Iterable[str]) -> str:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<workzag-jobs>'
            + "".join(positions) + "</workzag-jobs>")


def workday_job(req: str, title: str, *, location: str = "Berlin, Germany",
                posted_on: str = "Posted 3 Days Ago") -> dict[str, Any]:
    """One item of `POST /wday/cxs/{tenant}/{site}/jobs` (`jobPostings`)."""
    slug = title.replace(" ", "-")
    return {"title": title, "externalPath": f"/job/Berlin/{slug}_{req}",
            "locationsText": location, "postedOn": posted_on, "bulletFields": [req]}


def workday_page(jobs: list[dict[str, Any]], total: int) -> dict[str, Any]:
    return {"total": total, "jobPostings": jobs,
            "facets": [{"facetParameter": "locationMainGroup", "values": []}]}


def workday_detail(req: str, title: str, description_html: str = "<p>Plan.</p>",
                   start_date: str = "2026-09-01") -> dict[str, Any]:
    """`GET /wday/cxs/{tenant}/{site}{externalPath}`."""
    return {"jobPostingInfo": {"id": req.lower(), "title": title,
                               "jobDescription": description_html, "location": "Berlin",
                               "postedOn": "Posted 3 Days Ago", "startDate": start_date,
                               "timeType": "Full time", "jobReqId": req,
                               "externalUrl": f"https://acme.wd5.myworkdayjobs.com/x/{req}"},
            "hiringOrganization": {"name": "Acme", "url": ""}}


def hn_search(*threads: tuple[int, str]) -> dict[str, Any]:
    """`GET /api/v1/search_by_date?tags=story,author_whoishiring`, newest first."""
    return {"hits": [{"objectID": str(story), "title": title, "author": "whoishiring",
                      "created_at": "2026-11-01T15:00:00.000Z", "story_id": story}
                     for story, title in threads],
            "nbHits": len(threads), "page": 0, "hitsPerPage": 20}


def hn_comment(comment_id: int, text: str | None, *, author: str | None = "founder",
               created_at: str = "2026-11-01T16:00:00.000Z") -> dict[str, Any]:
    return {"id": comment_id, "created_at": created_at, "type": "comment",
            "author": author, "text": text, "parent_id": 1, "story_id": 1,
            "points": None, "options": [], "children": []}


def hn_thread(story: int, comments: list[dict[str, Any]]) -> dict[str, Any]:
    """`GET /api/v1/items/{id}`: the story, its comments as `children`."""
    return {"id": story, "type": "story", "author": "whoishiring",
            "title": "Ask HN: Who is hiring? (November 2026)", "children": comments}


REMOTEOK_LEGAL = {"last_updated": 1793000000, "legal": "API Terms of Service: please link "
                  "back to the URL on Remote OK and mention Remote OK as a source."}


def remoteok_job(job_id: str, position: str, *, company: str = "Acme",
                 salary: tuple[int, int] = (0, 0), location: str = "Worldwide",
                 date: str = "2026-09-01T10:00:00+00:00") -> dict[str, Any]:
    return {"slug": f"remote-{job_id}", "id": job_id, "epoch": 1788256800, "date": date,
            "company": company, "company_logo": "", "position": position,
            "tags": ["python", "backend"], "logo": "",
            "description": "<p>Remote work.</p>", "location": location,
            "salary_min": salary[0], "salary_max": salary[1],
            "apply_url": f"https://remoteok.com/remote-jobs/{job_id}/apply",
            "url": f"https://remoteOK.com/remote-jobs/remote-{job_id}"}


def remotive_job(job_id: int, title: str, *, company: str = "Acme",
                 location: str = "Europe") -> dict[str, Any]:
    return {"id": job_id, "url": f"https://remotive.com/remote-jobs/software-dev/x-{job_id}",
            "title": title, "company_name": company, "company_logo": "",
            "category": "Software Development", "tags": ["python"],
            "job_type": "full_time", "publication_date": "2026-09-01T10:00:00",
            "candidate_required_location": location, "salary": "$100k - $120k",
            "description": "<p>Async team.</p>"}


def remotive_board(jobs: list[dict[str, Any]]) -> dict[str, Any]:
    return {"00-warning": "Remotive API", "0-legal-notice": "link back to remotive.com",
            "job-count": len(jobs), "total-job-count": len(jobs), "jobs": jobs}


def himalayas_job(slug: str, title: str, *, company: str = "Acme",
                  salary: tuple[float, float, str] | None = (90000, 120000, "USD"),
                  pub_date: int = 1788256800,
                  locations: Iterable[str] = ("Germany", "France")) -> dict[str, Any]:
    low, high, currency = salary if salary else (None, None, None)
    return {"title": title, "excerpt": "Short.", "companyName": company,
            "companySlug": company.lower(), "companyLogo": "", "employmentType": "Full Time",
            "minSalary": low, "maxSalary": high, "currency": currency,
            "seniority": ["Senior"], "locationRestrictions": list(locations),
            "timezoneRestrictions": [1, 2], "categories": ["Software-Engineering"],
            "parentCategories": ["Engineering"], "description": "<p>Himalayas job.</p>",
            "pubDate": pub_date, "expiryDate": pub_date + 86400 * 30,
            "applicationLink": f"https://himalayas.app/companies/{company.lower()}/jobs/{slug}/apply",
            "guid": f"https://himalayas.app/companies/{company.lower()}/jobs/{slug}"}


def himalayas_page(jobs: list[dict[str, Any]], offset: int, total: int) -> dict[str, Any]:
    return {"comments": "Himalayas API", "updatedAt": 1788256800, "offset": offset,
            "limit": 20, "totalCount": total, "jobs": jobs}


# --- plans without a network ----------------------------------------------------------

def answer_plan(plan: Any, respond: Any) -> tuple[Any, list[Any]]:
    """Run a source's plan against `respond(request) -> Response`, in memory.

    Returns (what the plan returned, the requests it made). Plans are pure, so the
    unit tests and the fuzz test read every source's paging and detail logic this way.
    """
    asked = []
    try:
        request = next(plan)
        while True:
            asked.append(request)
            if len(asked) > 5000:
                raise AssertionError("the plan never stopped asking")
            request = plan.send(respond(request))
    except StopIteration as done:
        return done.value, asked


def json_body(data: Any) -> bytes:
    """`data` as the JSON body a server would send."""
    return json.dumps(data).encode()


def ok(data: Any) -> Response:
    """A 200 response with `data` as its body (JSON unless it is bytes already)."""
    return Response(200, data if isinstance(data, bytes) else json_body(data))


NOT_FOUND = Response(404, b"")


def run_source(ats: str, board: Any, respond: Callable[[Request], Response],
               known: dict[str, str] | None = None) -> tuple[Any, list[Any]]:
    """The registered source `ats` fetching `board` against `respond`, in memory."""
    from jobtracker.sources import REGISTRY

    url = board.url or REGISTRY[ats].default_url(board.token)
    return answer_plan(REGISTRY[ats].start(board, url, known or {}), respond)
