"""A real HTTP server on 127.0.0.1 serving job boards and feeds, for tests and benchmarks.

Each route is a path with a fixed response; the body builders below produce each
ATS's public API shape (Greenhouse, Lever, Ashby) and each feed format (RSS 2.0,
Atom, JSON Feed)::

    with BoardServer() as server:
        server.set("/gh/acme", greenhouse_board([greenhouse_job(1, "Senior Engineer")]),
                   etag='"v1"')
        url = server.url("/gh/acme")

Unknown paths answer a plain-text 404 (as Ashby does). A route can be slow
(`delay` seconds, without holding up other requests), have any status and body,
and carry an ETag and/or Last-Modified: a request whose If-None-Match or
If-Modified-Since matches gets 304 with no body. `server.requests` records
(path, lower-cased headers) of every request; `server.peak_in_flight` is the most
requests it was answering at once.

`python tests/servers/boards.py --boards 300 --postings 100` serves a benchmark set
(`/bench/{i}` in Greenhouse shape) and prints its base URL on the first line.
"""

from __future__ import annotations

import argparse
import contextlib
import html
import json
import sys
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import format_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from xml.sax.saxutils import escape as xml_escape


@dataclass(frozen=True)
class Route:
    body: bytes
    status: int = 200
    content_type: str = "application/json"
    delay: float = 0.0
    etag: str | None = None
    last_modified: str | None = None
    drip: float = 0.0                     # seconds between single bytes of the body
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Recorded:
    path: str
    headers: dict[str, str]
    method: str = "GET"
    body: bytes = b""

    def json(self) -> Any:
        return json.loads(self.body)


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


def _as_bytes(body: bytes | str | Any) -> bytes:
    if isinstance(body, bytes):
        return body
    if isinstance(body, str):
        return body.encode("utf-8")
    return json.dumps(body).encode("utf-8")


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"     # keep-alive, as real boards serve
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # quiet in tests
        return None

    def do_GET(self) -> None:
        self._handle("GET", b"")

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self._handle("POST", self.rfile.read(length) if length else b"")

    def _handle(self, method: str, body: bytes) -> None:
        owner = self.server.owner
        owner.record(Recorded(self.path, {k.lower(): v for k, v in self.headers.items()},
                              method, body))
        owner.entered()
        try:
            self._answer(owner.route_for(method, self.path, body))
        finally:
            owner.left()

    def _answer(self, route: Route | None) -> None:
        if route is None:
            self._send(404, b"Not Found", "text/plain")
            return
        if route.delay:
            time.sleep(route.delay)
        if self._not_modified(route):
            self.send_response(304)
            self._validators(route)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self._send(route.status, route.body, route.content_type, route)

    def _not_modified(self, route: Route) -> bool:
        if route.status != 200:
            return False
        if route.etag and self.headers.get("If-None-Match") == route.etag:
            return True
        return bool(route.last_modified
                    and self.headers.get("If-Modified-Since") == route.last_modified)

    def _validators(self, route: Route) -> None:
        if route.etag:
            self.send_header("ETag", route.etag)
        if route.last_modified:
            self.send_header("Last-Modified", route.last_modified)

    def _send(self, status: int, body: bytes, content_type: str,
              route: Route | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        if route is not None:
            self._validators(route)
            for name, value in route.headers:
                self.send_header(name, value)
        self.end_headers()
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # client gave up
            if route is not None and route.drip:
                self._drip(body, route.drip)
            else:
                self.wfile.write(body)

    def _drip(self, body: bytes, pause: float) -> None:
        """One byte, a pause, the next: a server no per-read timeout ever catches."""
        for index in range(len(body)):
            self.wfile.write(body[index:index + 1])
            self.wfile.flush()
            if self.server.owner.stopping.wait(pause):
                return


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    owner: BoardServer


class BoardServer:
    """Job boards and feeds on 127.0.0.1, on a free port, in a background thread."""

    def __init__(self) -> None:
        self.routes: dict[str, Route] = {}
        # POST routes: (path, JSON body as sorted text) → route; a body of None matches any.
        self.post_routes: dict[tuple[str, str | None], Route] = {}
        self.stopping = threading.Event()
        self._requests: list[Recorded] = []
        self._lock = threading.Lock()
        self.in_flight = 0
        self.peak_in_flight = 0       # most requests being answered at once
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    def set(self, path: str, body: bytes | str | Any, *, status: int = 200,
            content_type: str | None = None, delay: float = 0.0, etag: str | None = None,
            last_modified: str | None = None, drip: float = 0.0,
            headers: dict[str, str] | None = None, post: Any = ...) -> str:
        """Serve `body` at `path` (dicts and lists as JSON). Returns the full URL.

        With `post`, the route answers POST requests whose JSON body equals `post`
        (`post=None`: any body) instead of GET.
        """
        if content_type is None:
            content_type = ("application/json" if not isinstance(body, bytes | str)
                            else "application/xml" if _as_bytes(body).lstrip()[:1] == b"<"
                            else "text/plain")
        route = Route(_as_bytes(body), status, content_type, delay, etag, last_modified, drip,
                      tuple((headers or {}).items()))
        if post is ...:
            self.routes[path] = route
        else:
            self.post_routes[(path, None if post is None else _canonical(post))] = route
        return self.url(path)

    def route_for(self, method: str, path: str, body: bytes) -> Route | None:
        if method == "GET":
            return self.routes.get(path)
        try:
            key = _canonical(json.loads(body)) if body else None
        except ValueError:
            key = None
        return self.post_routes.get((path, key)) or self.post_routes.get((path, None))

    def url(self, path: str) -> str:
        assert self._server is not None, "start the server first"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}{path}"

    def record(self, request: Recorded) -> None:
        with self._lock:
            self._requests.append(request)

    def entered(self) -> None:
        with self._lock:
            self.in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self.in_flight)

    def left(self) -> None:
        with self._lock:
            self.in_flight -= 1

    @property
    def requests(self) -> list[Recorded]:
        with self._lock:
            return list(self._requests)

    def start(self) -> BoardServer:
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.owner = self
        # A short poll interval: stop() returns within 50 ms, not the default 0.5 s.
        self._thread = threading.Thread(target=self._server.serve_forever,
                                        kwargs={"poll_interval": 0.05},
                                        name="board-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> BoardServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


# --- body builders: each ATS's public API shape -------------------------------------

def greenhouse_job(job_id: int, title: str, *, content_html: str = "<p>About the role.</p>",
                   location: str | None = "Berlin", updated_at: str = "2026-09-01T10:00:00-04:00",
                   departments: Iterable[str] = ("Engineering",),
                   offices: Iterable[str] = ("Berlin",), token: str = "acme") -> dict[str, Any]:
    """One job of `GET /v1/boards/{token}/jobs?content=true`: `content` entity-escaped."""
    return {
        "absolute_url": f"https://boards.greenhouse.io/{token}/jobs/{job_id}",
        "data_compliance": [{"type": "gdpr", "requires_consent": False}],
        "internal_job_id": job_id + 1_000_000,
        "location": {"name": location} if location is not None else None,
        "metadata": None,
        "id": job_id,
        "updated_at": updated_at,
        "requisition_id": f"R{job_id}",
        "title": title,
        "content": html.escape(content_html, quote=True),
        "departments": [{"id": i, "name": name, "child_ids": [], "parent_id": None}
                        for i, name in enumerate(departments)],
        "offices": [{"id": i, "name": name, "location": name, "child_ids": [],
                     "parent_id": None} for i, name in enumerate(offices)],
    }


def greenhouse_board(jobs: list[dict[str, Any]]) -> dict[str, Any]:
    return {"jobs": jobs, "meta": {"total": len(jobs)}}


def lever_posting(posting_id: str, title: str, *, location: str = "Remote - EU",
                  team: str = "Platform", department: str = "Engineering",
                  commitment: str = "Full-time",
                  description_html: str = "<div>We build tools.</div>",
                  lists: Iterable[tuple[str, str]] = (("Requirements", "<li>Python</li>"),),
                  additional: str = "<div>Benefits.</div>", created_at_ms: int = 1_788_000_000_000,
                  workplace_type: str = "remote", token: str = "acme",
                  salary: dict[str, Any] | None = None) -> dict[str, Any]:
    """One element of `GET /v0/postings/{token}?mode=json` (a JSON array)."""
    posting = {
        "additional": additional,
        "additionalPlain": "Benefits.",
        "categories": {"commitment": commitment, "department": department,
                       "location": location, "team": team, "allLocations": [location]},
        "createdAt": created_at_ms,
        "descriptionPlain": "We build tools.",
        "description": description_html,
        "id": posting_id,
        "lists": [{"text": text, "content": content} for text, content in lists],
        "text": title,
        "country": "DE",
        "workplaceType": workplace_type,
        "hostedUrl": f"https://jobs.lever.co/{token}/{posting_id}",
        "applyUrl": f"https://jobs.lever.co/{token}/{posting_id}/apply",
    }
    if salary is not None:
        posting["salaryRange"] = salary
    return posting


def ashby_job(job_id: str, title: str, *, location: str = "Berlin",
              description_html: str = "<p>Join us.</p>", is_remote: bool | None = None,
              workplace_type: str | None = "Hybrid",
              published_at: str = "2026-08-30T12:00:00.000+00:00",
              token: str = "acme", salary: tuple[float, float, str] | None = None,
              is_listed: bool = True) -> dict[str, Any]:
    """One job of `GET /posting-api/job-board/{token}?includeCompensation=true`."""
    job: dict[str, Any] = {
        "id": job_id,
        "title": title,
        "department": "Engineering",
        "team": "Infrastructure",
        "employmentType": "FullTime",
        "location": location,
        "secondaryLocations": [],
        "publishedAt": published_at,
        "isListed": is_listed,
        "isRemote": is_remote,
        "workplaceType": workplace_type,
        "address": {"postalAddress": {"addressLocality": location}},
        "jobUrl": f"https://jobs.ashbyhq.com/{token}/{job_id}",
        "applyUrl": f"https://jobs.ashbyhq.com/{token}/{job_id}/application",
        "descriptionHtml": description_html,
        "descriptionPlain": "Join us.",
    }
    if salary is not None:
        low, high, currency = salary
        component = {"compensationType": "Salary", "interval": "1 YEAR",
                     "currencyCode": currency, "minValue": low, "maxValue": high,
                     "summary": f"{low}-{high} {currency}"}
        job["compensation"] = {
            "compensationTierSummary": component["summary"],
            "scrapeableCompensationSalarySummary": component["summary"],
            "compensationTiers": [{"id": "t1", "tierSummary": component["summary"],
                                   "title": "Zone A", "components": [component]}],
            "summaryComponents": [component,
                                  {"compensationType": "EquityPercentage", "interval": "NONE",
                                   "currencyCode": None, "minValue": 0.1, "maxValue": 0.2}],
        }
    return job


def ashby_board(jobs: list[dict[str, Any]]) -> dict[str, Any]:
    return {"apiVersion": "1", "jobs": jobs}


# --- the second wave of sources (each its public shape) ----------------------------

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


# --- the benchmark set --------------------------------------------------------------

BENCH_PARAGRAPH = (
    "<p>We are looking for an engineer to join our <strong>platform</strong> team. You will "
    "design, build and run services that thousands of customers rely on every day.</p>"
    "<ul><li>Five or more years with Python or Go</li><li>Experience with PostgreSQL "
    "&amp; distributed systems</li><li>Care for <em>operability</em> and clear docs</li></ul>"
)
BENCH_TITLES = ("Senior Backend Engineer", "Staff Engineer", "Software Engineer II",
                "Engineering Manager", "Junior Frontend Developer", "Principal Engineer")


def bench_board(board: int, postings: int) -> bytes:
    """A Greenhouse-shaped board of `postings` jobs with ~3 KB descriptions each."""
    content = BENCH_PARAGRAPH * 6
    jobs = [greenhouse_job(board * 100_000 + i, f"{BENCH_TITLES[i % len(BENCH_TITLES)]} {i}",
                           content_html=content, token=f"bench{board}")
            for i in range(postings)]
    return json.dumps(greenhouse_board(jobs)).encode()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="serve a benchmark set of boards")
    parser.add_argument("--boards", type=int, default=300)
    parser.add_argument("--postings", type=int, default=100)
    args = parser.parse_args(argv)
    server = BoardServer()
    for board in range(args.boards):
        server.routes[f"/bench/{board}"] = Route(bench_board(board, args.postings),
                                                 etag=f'"bench-{board}"')
    server.start()
    print(server.url("/bench/"), flush=True)
    try:
        sys.stdin.read()          # serve until the parent closes our stdin
    finally:
        server.stop()


if __name__ == "__main__":
    main()


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
