"""What every source module produces, and the small helpers they share.

A source module is pure: it turns response bodies into `NormalizedPosting`s.
It does no HTTP (jobtracker/postings/download.py does), opens no connection and reads no clock.
A source that needs more than one request (paging, a POST, per-job descriptions)
says which requests as a *plan*: a generator that yields `Request`s, is sent each
`Response`, and returns the postings (see `Plan`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import quote, urlsplit

from jobtracker import hosts, jsonbound
from jobtracker.text import clean_text, one_line, web_url

if TYPE_CHECKING:   # the form types load when a form is read, not with every source
    from jobtracker.sources.forms import Form

log = logging.getLogger(__name__)
T = TypeVar("T")

# Longer descriptions are cut: nothing a model or a person reads needs more, and one
# pasted blob must not bloat the database or the TUI.
MAX_DESCRIPTION_CHARS = 100_000
# An http(s) address with a plain host: the common case, kept without parsing it.
_PLAIN_WEB = re.compile(r"https?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?(?:[/?#]|$)", re.I)
# Jobs one board may list (every page together); more is no employer's board.
MAX_ITEMS = 20_000
TRUNCATED_MARK = "\n\n[description truncated]"
# The longest each stored text field may be, whichever source built it: a field made
# by joining a list (a job's 300,000 offices, its teams) is bounded here too.
FIELD_CHARS = {"external_id": 2000, "title": 500, "company": 300, "location": 500,
               "url": 2000, "department": 300, "salary_currency": 8,
               "posted_at": 64, "updated_at": 64,
               "description": MAX_DESCRIPTION_CHARS + len(TRUNCATED_MARK)}


class SourceError(Exception):
    """A response that is not the shape its source promises (or says "not found")."""


@dataclass(frozen=True)
class NormalizedPosting:
    """One job as a source read it, cleaned, in the units of the `postings` table."""

    external_id: str
    title: str
    company: str = ""
    location: str = ""
    remote: bool | None = None
    url: str = ""
    department: str = ""
    description: str | None = None
    description_source: str = "ats"       # 'ats' (the full prose) or 'feed' (a blurb)
    salary_min: float | None = None
    salary_max: float | None = None
    salary_currency: str | None = None
    posted_at: str | None = None          # ISO 8601, UTC when the source gave an offset
    updated_at: str | None = None

    def __post_init__(self) -> None:
        # The one gate every source's postings pass: each text field bounded, and a page
        # that is not http(s) dropped (frozen, so fields are set the dataclass way).
        for name, limit in FIELD_CHARS.items():
            value = getattr(self, name)
            if isinstance(value, str) and len(value) > limit:
                object.__setattr__(self, name, value[:limit - 1].rstrip() + "…")
        if self.url and not _PLAIN_WEB.match(self.url) and web_url(self.url) != self.url:
            object.__setattr__(self, "url", web_url(self.url))


class Postings(list[NormalizedPosting]):
    """A parser's postings, and how many items it skipped as unreadable."""

    skipped: int = 0


@dataclass(frozen=True)
class Request:
    """One HTTP request a plan asks for.

    `conditional`: the board's stored ETag / Last-Modified may be sent, and a 304
    ends the fetch as "not modified" (only for a single-request listing).
    `optional`: an HTTP error is handed back to the plan instead of failing the
    board (a per-job description that 404s leaves that job without one).
    """

    url: str
    method: str = "GET"
    json: Any = None
    conditional: bool = False
    optional: bool = False


@dataclass(frozen=True)
class Response:
    status: int
    body: bytes
    headers: Mapping[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.status == 200


# A plan: yields Requests, is sent their Responses, returns the board's postings.
Plan = Generator[Request, Response, list[NormalizedPosting]]
# What the database already holds for a board, for plans that fetch descriptions
# per job: external id → the stored change stamp (`updated_at`, else `posted_at`,
# else ""), listing only jobs that have a description.
Known = Mapping[str, str]
# Pass as `known` to read a listing only, without any per-job description request
# (`jobtracker add --check` counts postings; it does not need their prose).
LISTING_ONLY: Known = {"": "listing only"}


@dataclass(frozen=True)
class BoardRef:
    """The board a careers or job page belongs to, as `jobtracker add` stores it: its
    token, an address replacing the default one (Lever's EU boards), and the name a
    company name is guessed from (the token when None)."""

    token: str
    url: str | None = None
    name: str | None = None


@dataclass(frozen=True)
class Page:
    """A shape of careers or job URL people paste (`boards.greenhouse.io/TOKEN`): how it
    reads, for messages, and its pattern (after an optional scheme; the token is
    group 1 unless the source's `board_of` reads it otherwise)."""

    shape: str
    pattern: re.Pattern[str]


_SCHEME = r"^(?:https?://)?"


def page(shape: str, pattern: str) -> Page:
    """A Page whose pattern, matched case-insensitively, may start with http(s)://."""
    return Page(shape, re.compile(_SCHEME + pattern, re.I))


def _token_board(found: re.Match[str], url: str) -> BoardRef:
    return BoardRef(found.group(1))


class FormReader:
    """How a source publishes a job's application form.

    `url(listing_url, external_id)` is the form's address: the board's listing address
    (its own `url` in sources.yaml, so a mirror serves its own forms) and the job's id;
    ValueError when the id cannot be part of an address. `parse(body)` reads what the
    address answers into a bounded `Form` (jobtracker/sources/forms.py) whose `kind` is
    the source's name; SourceError when the body is not a form. A plain class, not a
    dataclass: every source loads with `--help`."""

    __slots__ = ("parse", "url")

    def __init__(self, url: Callable[[str, str], str], parse: Callable[[Any], Form]) -> None:
        self.url = url
        self.parse = parse


@dataclass(frozen=True)
class Source:
    """A job-board API: its public address, its parser and, if it needs several
    requests, its plan.

    `match_url` recognises one of this ATS's public job pages (as a feed item links
    to) and returns `(token, external_id)`, so a feed's blurb and the ATS's posting
    are stored as one row. `pages` are the careers-page shapes `jobtracker add`
    recognises, and `board_of` turns a page's match into the board (by default:
    the token is group 1). `aggregator` marks a listing of many companies' jobs.
    `form` says how the source publishes each job's application form, if it does.
    """

    name: str
    default_url: Callable[[str], str]
    parse: Callable[..., list[NormalizedPosting]]
    match_url: Callable[[str], tuple[str, str] | None]
    plan: Callable[[Any, str, Known], Plan] | None = None
    pages: tuple[Page, ...] = ()
    board_of: Callable[[re.Match[str], str], BoardRef] = _token_board
    # Many companies in one listing (Hacker News, Remote OK, ...): its postings are
    # copies; a company's own board, where one lists the same job, leads the job.
    aggregator: bool = False
    # How the source publishes each job's application form (`FormReader`); None: it
    # publishes none, and prepare uses the standard set.
    form: FormReader | None = None

    def start(self, board: Any, url: str, known: Known) -> Plan:
        """The requests that fetch `board` from `url`: the plan, or one GET and `parse`."""
        if self.plan is not None:
            return self.plan(board, url, known)
        return single_get(self.parse, board, url)

    def recognise(self, url: str) -> BoardRef | None:
        """The board whose careers or job page `url` is (one of `pages`), or None."""
        url = url.strip()
        for shape in self.pages:
            found = shape.pattern.match(url)
            if found:
                board = self.board_of(found, url)
                # A token goes into the board's address as a path segment, like any id:
                # `..` (boards.greenhouse.io/../../x) names no board.
                return board if token_ok(board.token) else None
        return None


def single_get(parse: Callable[..., list[NormalizedPosting]], config: Any, url: str) -> Plan:
    """The plan of a listing that is one conditional GET."""
    response = yield Request(url, conditional=True)
    return parse(response.body, config)


def guarded(items: Iterable[T], read: Callable[[T], NormalizedPosting | None],
            skipped: int = 0) -> Postings:
    """`read` applied to each item; an item it cannot read is skipped and counted.

    One odd item (a field of the wrong type, a value no parser foresaw) must never
    fail the board: only a bad envelope does (SourceError, raised before this).
    """
    out = Postings()
    out.skipped = skipped
    for count, item in enumerate(items, start=1):
        if count > MAX_ITEMS:
            raise SourceError(f"more than {MAX_ITEMS:,} jobs listed: not read")
        try:
            posting = read(item)
        except Exception as exc:
            log.debug("skipped an unreadable item: %s: %s", type(exc).__name__, exc)
            out.skipped += 1
            continue
        if posting is not None:
            out.append(posting)
    return out


def load_json(payload: bytes | str | Any) -> Any:
    """A response body as JSON; an already-decoded object passes through."""
    if isinstance(payload, bytes | bytearray):
        # One invalid UTF-8 byte in one posting must not fail the board: it reads
        # as U+FFFD in that posting's text.
        payload = bytes(payload).decode("utf-8", "replace")
    if isinstance(payload, str):
        try:
            return jsonbound.loads(payload)
        except jsonbound.JSONRefused as exc:
            raise SourceError(f"malformed JSON: {exc}") from None
    return payload


def object_list(data: Any, key: str, board_kind: str) -> list[Any]:
    """`data[key]` when `data` is an object holding a list there, else SourceError."""
    if not isinstance(data, dict) or not isinstance(data.get(key), list):
        raise SourceError(f"not {board_kind} listing: expected an object with a {key!r} list")
    return data[key]


def jobs_list(payload: bytes | str | Any, board_kind: str) -> list[Any]:
    """The items of a board answering `{"jobs": [...]}` (Greenhouse, Ashby)."""
    return object_list(load_json(payload), "jobs", board_kind)


def mapping(value: Any) -> dict[str, Any]:
    """`value` if it is an object, else an empty one: nested fields of any type read safely."""
    return value if isinstance(value, dict) else {}


def identifier(value: Any, limit: int = 500) -> str:
    """An id as text: strings and whole numbers only (a dict or a float is no id)."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        return ""
    text = str(value).strip()
    return text if 0 < len(text) <= limit else ""


def text_field(value: Any, limit: int = 300) -> str:
    """A short single-line field (title, location) from whatever the API sent."""
    if value is None or isinstance(value, dict | list):
        return ""
    return one_line(str(value), limit)


def description(text: str | None) -> str | None:
    """Cleaned, length-bounded description text; None when there is none."""
    cleaned = clean_text(text).strip()
    if not cleaned:
        return None
    if len(cleaned) > MAX_DESCRIPTION_CHARS:
        cleaned = cleaned[:MAX_DESCRIPTION_CHARS].rstrip() + TRUNCATED_MARK
    return cleaned


def iso_time(value: Any) -> str | None:
    """ISO 8601 text or epoch milliseconds → ISO 8601 in UTC ('Z'); None if unreadable.
    A time written without an offset (Remotive's `publication_date`) is UTC: every
    stored date carries its zone."""
    if value is None or isinstance(value, bool):
        return None
    try:
        if isinstance(value, int | float):
            moment = datetime.fromtimestamp(value / 1000, UTC)
        else:
            text = str(value).strip()[:64]
            if text.endswith(" UTC"):             # Recruitee: "2026-09-01 10:00:00 UTC"
                text = text[:-4] + "+00:00"
            moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
            moment = (moment.replace(tzinfo=UTC) if moment.tzinfo is None
                      else moment.astimezone(UTC))
    except (ValueError, OverflowError, OSError, TypeError):
        return None
    return moment.isoformat().replace("+00:00", "Z")


def number(value: Any) -> float | None:
    """A finite number, else None (NaN and infinities are no salary)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        result = float(value)
    except OverflowError:
        return None
    return result if result == result and abs(result) != float("inf") else None


class Listing:
    """A paged listing reduced as it arrives: each page's items are read into postings
    (bounded fields) and the page itself is dropped, so a board of 50 pages of 60 MB
    holds postings, not pages. At most MAX_ITEMS are kept; a board listing more is not
    one jobtracker reads whole, and fails (nothing of it is marked closed)."""

    def __init__(self, read: Callable[[Any], NormalizedPosting | None],
                 detail: Callable[[Any, NormalizedPosting], Request | None] | None = None
                 ) -> None:
        self._read = read
        self._detail = detail
        self.seen = 0                 # items listed so far, readable or not
        self.skipped = 0
        self.entries: list[tuple[NormalizedPosting, Request | None]] = []

    def add(self, items: Iterable[Any]) -> int:
        """Read one page's items; how many the page listed."""
        count = 0
        for item in items:
            count += 1
            self.seen += 1
            if self.seen > MAX_ITEMS:
                raise SourceError(f"more than {MAX_ITEMS:,} jobs listed: not read")
            try:
                posting = self._read(item)
                if posting is None:
                    continue
                request = self._detail(item, posting) if self._detail is not None else None
            except Exception as exc:
                log.debug("skipped an unreadable item: %s: %s", type(exc).__name__, exc)
                self.skipped += 1
                continue
            self.entries.append((posting, request))
        return count

    def postings(self) -> Postings:
        out = Postings(posting for posting, _ in self.entries)
        out.skipped = self.skipped
        return out


def with_details(listing: Listing,
                 enrich: Callable[[bytes, NormalizedPosting], NormalizedPosting],
                 known: Known, cap: int) -> Plan:
    """The listing's postings, each new or changed one completed by its detail request.

    A job is fetched again when `known` has no description for it or the list gives
    a change stamp (`updated_at`, else `posted_at`) that differs from the stored
    one; at most `cap` per fetch, so a
    board of thousands fills in over several fetches. A detail that fails or does
    not read leaves that job without a description (the stored one is kept).
    """
    out = Postings()
    out.skipped = listing.skipped
    fetched = 0
    if known is LISTING_ONLY:
        cap = 0
    for posting, request in listing.entries:
        stamp = posting.updated_at or posting.posted_at
        stored = known.get(posting.external_id)
        if (request is not None and (stored is None or (stamp and stamp != stored))
                and fetched < cap):
            fetched += 1
            answer = yield request
            if answer.ok:
                try:
                    posting = enrich(answer.body, posting)
                except Exception:
                    log.debug("an unreadable description for %s", posting.external_id)
        out.append(posting)
    return out


def token_ok(token: str) -> bool:
    """Whether `token` can name a board: not empty, `.` or `..` (each of its `/`-parts
    too: a Workday token is `tenant.wdN/site`), and printable."""
    return bool(token) and token.isprintable() and \
        all(part not in ("", ".", "..") for part in token.split("/"))


def segment(value: str) -> str:
    """`value` as one URL path segment: every reserved character escaped (`/`, `?`,
    `#`, `%`), and a segment that would still mean something else (`.`, `..`, empty)
    refused with ValueError, so an id from a listing never walks up the API's path."""
    quoted = quote(value, safe="")
    if quoted in ("", ".", ".."):
        raise ValueError(f"{value!r} is not a path segment")
    return quoted


def host_is(url: str, domain: str) -> bool:
    """Whether `url`'s host is `domain` or one of its subdomains (`a.domain`), compared
    label by label: `evilgreenhouse.io` and `greenhouse.io.evil.com` are not
    `greenhouse.io`. Only http(s) addresses with a plain host count."""
    try:
        parts = urlsplit(url.strip())
        host = parts.hostname
    except ValueError:
        return False
    if parts.scheme.lower() not in ("http", "https") or not host or "\\" in url:
        return False
    return hosts.host_is(host, domain)
