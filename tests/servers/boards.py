"""A real HTTP server on 127.0.0.1 serving job boards and feeds, for tests and benchmarks.

Each route is a path (query included) with a fixed response, for GET, or for a
POST with a given JSON body (`post=`); the body builders below produce the public
API shape of Greenhouse, Lever and Ashby::

    with BoardServer() as server:
        server.set("/gh/acme", greenhouse_board([greenhouse_job(1, "Senior Engineer")]),
                   etag='"v1"')
        url = server.url("/gh/acme")

Unknown paths answer a plain-text 404 (as Ashby does). A route can be slow
(`delay` seconds, without holding up other requests), send its body one byte at a
time (`drip` seconds apart), carry extra headers (`Retry-After`), have any status and body,
and carry an ETag and/or Last-Modified: a request whose If-None-Match or
If-Modified-Since matches gets 304 with no body. `server.requests` records
(path, lower-cased headers) of every request; `server.peak_in_flight` is the most
requests it was answering at once.

Feed bodies and the second wave of sources are in servers/shapes.py; the
benchmark set is servers/bench_boards.py.
"""

from __future__ import annotations

import contextlib
import html
import json
import sys
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


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
    # Headers and body go out as two writes: with Nagle's algorithm the body waits for
    # the client's delayed ACK (~40 ms a response), which real servers do not impose.
    disable_nagle_algorithm = True
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

    def handle_error(self, request: object, client_address: object) -> None:
        # A client that hangs up mid-answer is what the byte-budget and deadline tests
        # do on purpose; anything else is still printed, as socketserver does.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)  # type: ignore[arg-type]


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
        """Serve `body` at `path` (dicts and lists as JSON). Returns the full URL
        (the path, before the server starts).

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
        return self.url(path) if self._server is not None else path

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


# --- Greenhouse application forms (`GET .../jobs/{id}?questions=true`) -----------------

def gh_field(name: str, type: str = "input_text", values: Iterable[str] = ()) -> dict[str, Any]:
    return {"name": name, "type": type,
            "values": [{"label": label, "value": index} for index, label in enumerate(values)]}


def gh_question(label: str, *fields: dict[str, Any], required: bool = False,
                description: str | None = None) -> dict[str, Any]:
    return {"label": label, "required": required, "description": description,
            "fields": list(fields)}


def greenhouse_form(job_id: int, title: str, *, questions: list[dict[str, Any]] | None = None,
                    token: str = "acme", **job: Any) -> dict[str, Any]:
    """One job with `?questions=true`, in the public shape: text, textarea, single and
    multi select, file, location questions, an EEO compliance section and demographic
    questions (which carry `answer_options`, not `fields`)."""
    decline = "I don't wish to answer"
    standard = [
        gh_question("First Name", gh_field("first_name"), required=True),
        gh_question("Last Name", gh_field("last_name"), required=True),
        gh_question("Email", gh_field("email"), required=True),
        gh_question("Phone", gh_field("phone")),
        gh_question("Resume/CV", gh_field("resume", "input_file"),
                    gh_field("resume_text", "textarea"), required=True),
        gh_question("Cover Letter", gh_field("cover_letter", "input_file"),
                    gh_field("cover_letter_text", "textarea")),
        gh_question("LinkedIn Profile", gh_field("question_1")),
        gh_question("Are you legally authorized to work in Germany?",
                    gh_field("question_2", "multi_value_single_select", ("Yes", "No")),
                    required=True),
        gh_question("Will you now or in the future require sponsorship for a work visa?",
                    gh_field("question_3", "multi_value_single_select", ("Yes", "No")),
                    required=True),
        gh_question("How did you hear about this job?", gh_field("question_4", "textarea")),
        gh_question("Which languages do you write?",
                    gh_field("question_5", "multi_value_multi_select", ("Python", "Go", "Rust"))),
        gh_question("Why do you want to work at Acme?", gh_field("question_6", "textarea"),
                    required=True),
        gh_question("Hidden", gh_field("question_7", "input_hidden")),
    ]
    return {
        **greenhouse_job(job_id, title, token=token, **job),
        "questions": standard if questions is None else questions,
        "location_questions": [gh_question("Location (City)", gh_field("location"),
                                           required=True)],
        "compliance": [{"type": "eeoc", "description": "<p>EEO</p>", "questions": [
            gh_question("Gender", gh_field("gender", "multi_value_single_select",
                                           ("Male", "Female", "Decline To Self Identify"))),
            gh_question("Veteran Status", gh_field("veteran_status",
                                                   "multi_value_single_select",
                                                   ("I am a veteran", decline))),
        ]}],
        "demographic_questions": {"header": "Voluntary", "questions": [
            {"id": 41, "label": "What are your pronouns?", "required": False,
             "type": "multi_value_multi_select",
             "answer_options": [{"id": 1, "label": "she/her", "free_form": False},
                                {"id": 2, "label": "I prefer not to answer",
                                 "free_form": False}]}]},
        "data_compliance": [{"type": "gdpr", "requires_consent": False}],
    }
