"""A web page's own schema.org `JobPosting`, read the way search engines index jobs.

A page says what it is in JSON-LD (`<script type="application/ld+json">`: one object,
an array, an `@graph`, or postings nested in an `ItemList`), and some older pages in
microdata (`itemscope itemtype="http://schema.org/JobPosting"`), which is read only
when the page has no JSON-LD posting. The HTML is parsed with selectolax (the Lexbor
HTML5 parser), never with regular expressions.

Everything is bounded, as every source is: the page's size (`MAX_PAGE_BYTES`), the
JSON-LD blocks read (`MAX_BLOCKS`, each at most `MAX_BLOCK_CHARS`), how deep and how
far a block is walked (`MAX_DEPTH`, `MAX_NODES`), and the postings one page may list
(`MAX_POSTINGS`: a page listing more is a listing, not a job's page, and is refused).
Every field goes through `NormalizedPosting`'s bounds; a `javascript:` or other
non-web address is never a posting's page. Pure: no HTTP, no clock.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlsplit

from selectolax.lexbor import LexborHTMLParser, LexborNode

from jobtracker import jsonbound
from jobtracker.hosts import host_is
from jobtracker.sources.base import (
    NormalizedPosting,
    SourceError,
    description,
    identifier,
    iso_time,
    number,
    text_field,
)
from jobtracker.text import html_to_text, one_line, web_url

# Job pages are small (the heaviest real one seen, Indeed's, is 0.6 MB of HTML).
MAX_PAGE_BYTES = 16 * 1024 * 1024
MAX_BLOCKS = 200              # JSON-LD scripts read on one page
MAX_BLOCK_CHARS = 4_000_000   # one JSON-LD script
MAX_DEPTH = 24                # nesting walked to find a JobPosting
MAX_NODES = 50_000            # JSON values walked on one page, every block together
MAX_POSTINGS = 100            # more on one page is a listing, not a job's page
MAX_PLACES = 50               # jobLocation entries read from one posting
MAX_MICRODATA_PROPS = 5_000

_SALARY_UNITS = {"YEAR": 1, "MONTH": 12, "WEEK": 52, "DAY": 260, "HOUR": 1}


class PageRefused(SourceError):
    """A page past a bound: too big, or listing too many postings to be one job's."""


@dataclass(frozen=True)
class Place:
    """One jobLocation: its address parts (and the Place's own name, if any)."""

    name: str = ""
    street: str = ""
    locality: str = ""
    region: str = ""
    postal_code: str = ""
    country: str = ""

    def label(self) -> str:
        """`Locality, Region, Country`; the Place's name when it names more (Meta names
        each office, with one copied address under all of them)."""
        parts = _unique([self.locality, self.region, self.country])
        text = ", ".join(parts)
        if self.name and (not text or not _contains(self.name, self.locality)):
            return self.name
        return text


@dataclass(frozen=True)
class JobPosting:
    """One schema.org JobPosting as a page states it."""

    title: str
    company: str = ""
    company_urls: tuple[str, ...] = ()     # hiringOrganization sameAs / url
    places: tuple[Place, ...] = ()
    telecommute: bool = False               # jobLocationType TELECOMMUTE
    applicant_locations: tuple[str, ...] = ()
    salary_min: float | None = None
    salary_max: float | None = None
    salary_currency: str | None = None
    salary_unit: str | None = None          # YEAR, MONTH, WEEK, DAY, HOUR (as stated)
    posted_at: str | None = None
    valid_through: str | None = None
    description: str | None = None
    identifier: str = ""
    url: str = ""
    employment_type: str = ""
    form: str = "json-ld"                   # "json-ld" or "microdata"

    @property
    def location(self) -> str:
        labels = _unique([place.label() for place in self.places])
        if not labels and self.telecommute:
            where = ", ".join(self.applicant_locations)
            return f"Remote ({where})" if where else "Remote"
        return "; ".join(labels)

    @property
    def remote(self) -> bool | None:
        """True when the posting says so (TELECOMMUTE, or a place named remote); None
        when it does not say (a page's silence is not "on site")."""
        if self.telecommute or "remote" in self.location.lower():
            return True
        return None

    def yearly(self) -> tuple[float | None, float | None]:
        """The salary range as a year's pay (a month's x 12, a week's x 52, a day's x
        260), as `postings` stores it; an hourly rate stays hourly (the salary rule
        reads a small top as one)."""
        times = _SALARY_UNITS.get((self.salary_unit or "YEAR").upper(), 1)
        return tuple(None if v is None else v * times          # type: ignore[return-value]
                     for v in (self.salary_min, self.salary_max))

    def posting(self, page_url: str, external_id: str) -> NormalizedPosting:
        """This posting as jobtracker stores it, under the page it was read from."""
        low, high = self.yearly()
        return NormalizedPosting(
            external_id=external_id, title=self.title, company=self.company,
            location=self.location, remote=self.remote, url=page_url,
            department="", description=self.description, salary_min=low, salary_max=high,
            salary_currency=self.salary_currency, posted_at=self.posted_at)


@dataclass
class Reading:
    """What a page held: its postings, and what was left out (for the message)."""

    postings: list[JobPosting] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _unique(items: list[str]) -> list[str]:
    out: list[str] = []
    for item in items:
        if item and item.lower() not in (o.lower() for o in out):
            out.append(item)
    return out


def _contains(text: str, part: str) -> bool:
    return bool(part) and part.lower() in text.lower()


# --- reading values -------------------------------------------------------------------

def _type_names(node: dict[str, Any]) -> set[str]:
    kinds = node.get("@type")
    names = kinds if isinstance(kinds, list) else [kinds]
    # "JobPosting", "schema:JobPosting", "http://schema.org/JobPosting".
    return {re.split(r"[/:#]", name)[-1] for name in names[:20] if isinstance(name, str)}


def _text(value: Any, limit: int = 300) -> str:
    """A short text from a JSON-LD value (a string, a number, a `{name}` or `{@value}`
    object, the first usable item of a list); entities decoded once."""
    if isinstance(value, list):
        return next((found for item in value[:20] if (found := _text(item, limit))), "")
    if isinstance(value, dict):
        for key in ("name", "@value", "value"):
            if key in value and not isinstance(value[key], dict):
                return _text(value[key], limit)
        return ""
    if isinstance(value, bool) or value is None:
        return ""
    text = str(value)[: limit * 4]
    if "&" in text:
        text = html.unescape(text)
    if "<" in text:
        text = html_to_text(text)
    return text_field(text, limit)


def _strings(value: Any, limit: int = 20) -> list[str]:
    items = value if isinstance(value, list) else [value]
    return [text for item in items[:limit] if (text := _text(item))]


def _place(node: Any) -> Place | None:
    if isinstance(node, str):
        return Place(name=_text(node)) if _text(node) else None
    if not isinstance(node, dict):
        return None
    address = node.get("address")
    if isinstance(address, str) or not isinstance(address, dict):
        return Place(name=_text(node.get("name")) or _text(address)) \
            if (_text(node.get("name")) or _text(address)) else None
    country = address.get("addressCountry")
    place = Place(name=_text(node.get("name")), street=_text(address.get("streetAddress")),
                  locality=_text(address.get("addressLocality")),
                  region=_text(address.get("addressRegion")),
                  postal_code=_text(address.get("postalCode"), 20),
                  country=_text(country))
    return place if place != Place() else None


def _salary(value: Any) -> tuple[float | None, float | None, str | None, str | None]:
    """(min, max, currency, unit) from baseSalary: a MonetaryAmount whose `value` is a
    number or a QuantitativeValue (`value`, `minValue`, `maxValue`, `unitText`)."""
    if isinstance(value, list):
        value = next((item for item in value[:5] if isinstance(item, dict)), None)
    if not isinstance(value, dict):
        return None, None, None, None
    currency = _text(value.get("currency"), 8).upper() or None
    amount = value.get("value")
    unit = _text(value.get("unitText"), 16).upper() or None
    low = high = None
    if isinstance(amount, dict):
        unit = _text(amount.get("unitText"), 16).upper() or unit
        low, high = _amount(amount.get("minValue")), _amount(amount.get("maxValue"))
        single = _amount(amount.get("value"))
        if low is None and high is None:
            low = single
    else:
        low = _amount(amount)
    if low is not None and high is not None and low > high:
        low, high = high, low
    if currency is not None and not re.fullmatch(r"[A-Z]{3}", currency):
        currency = None
    return low, high, currency, unit if unit in _SALARY_UNITS else None


def _amount(value: Any) -> float | None:
    if isinstance(value, str):
        text = value.strip().replace(",", "")
        if not re.fullmatch(r"[0-9]{1,12}(?:\.[0-9]{1,4})?", text):
            return None
        value = float(text)
    found = number(value)
    return found if found is not None and found > 0 else None


def _organization(value: Any, ids: dict[str, dict[str, Any]]) -> tuple[str, tuple[str, ...]]:
    if isinstance(value, list):
        value = next((item for item in value[:5] if item), None)
    if isinstance(value, str):
        return _text(value), ()
    if not isinstance(value, dict):
        return "", ()
    if "@id" in value and len(value) == 1 and isinstance(value["@id"], str):
        value = ids.get(value["@id"], value)
    urls = [web_url(u) for u in (*_raw_strings(value.get("sameAs")),
                                 *_raw_strings(value.get("url")))]
    return _text(value.get("name")) or _text(value.get("legalName")), tuple(
        _unique([u for u in urls if u]))


def _raw_strings(value: Any) -> list[str]:
    items = value if isinstance(value, list) else [value]
    return [item.strip()[:2000] for item in items[:20] if isinstance(item, str)]


def _description(value: Any) -> str | None:
    if isinstance(value, list):
        value = " ".join(item for item in value[:50] if isinstance(item, str))
    if not isinstance(value, str):
        return None
    text = value[:2_000_000]
    if "<" not in text and "&lt;" in text:
        text = html.unescape(text)           # HTML escaped once more (as Greenhouse does)
    # Literal "\n" sequences (a JSON string escaped twice) are line breaks.
    text = text.replace("\\n", "\n") if "\\n" in text else text
    return description(html_to_text(text) if "<" in text or "&" in text else text)


def _identifier(value: Any) -> str:
    """A PropertyValue's `value` (its `name` names the scheme), a string or a number."""
    if isinstance(value, list):
        value = next((item for item in value[:5] if item), None)
    if isinstance(value, dict):
        value = value.get("value", value.get("@value"))
    if isinstance(value, str):
        value = one_line(value, 500)
    return identifier(value)


def read_posting(node: dict[str, Any], ids: dict[str, dict[str, Any]] | None = None,
                 form: str = "json-ld") -> JobPosting | None:
    """One JobPosting object (JSON-LD, or microdata read into the same shape); None
    when it has no title."""
    ids = ids or {}
    title = _text(node.get("title")) or _text(node.get("name"))
    if not title:
        return None
    company, urls = _organization(node.get("hiringOrganization"), ids)
    located = node.get("jobLocation")
    places = [p for item in (located if isinstance(located, list) else [located])[:MAX_PLACES]
              if (p := _place(ids.get(item["@id"], item)
                              if isinstance(item, dict) and isinstance(item.get("@id"), str)
                              else item))]
    kinds = node.get("jobLocationType")
    telecommute = any(kind.upper() == "TELECOMMUTE" for kind in _strings(kinds))
    low, high, currency, unit = _salary(node.get("baseSalary"))
    url = web_url(_raw_strings(node.get("url"))[0]) if _raw_strings(node.get("url")) else ""
    return JobPosting(
        title=title, company=company, company_urls=urls, places=tuple(places),
        telecommute=telecommute,
        applicant_locations=tuple(_unique(_strings(node.get("applicantLocationRequirements")))),
        salary_min=low, salary_max=high, salary_currency=currency, salary_unit=unit,
        posted_at=iso_time(_text(node.get("datePosted"), 64) or None),
        valid_through=iso_time(_text(node.get("validThrough"), 64) or None),
        description=_description(node.get("description")),
        identifier=_identifier(node.get("identifier")), url=url,
        employment_type=", ".join(_strings(node.get("employmentType"))), form=form)


# --- finding postings in JSON-LD ------------------------------------------------------

class _Walk:
    """A bounded walk over JSON values: every object with an `@id`, every JobPosting."""

    def __init__(self) -> None:
        self.nodes = 0
        self.ids: dict[str, dict[str, Any]] = {}
        self.found: list[dict[str, Any]] = []
        self.cut = False

    def walk(self, root: Any) -> None:
        stack: list[tuple[Any, int]] = [(root, 0)]
        while stack:
            value, depth = stack.pop()
            self.nodes += 1
            if self.nodes > MAX_NODES:
                self.cut = True
                return
            if depth > MAX_DEPTH:
                self.cut = True
                continue
            if isinstance(value, dict):
                if isinstance(value.get("@id"), str) and len(self.ids) < 10_000:
                    self.ids.setdefault(value["@id"], value)
                if "JobPosting" in _type_names(value):
                    self.found.append(value)
                    if len(self.found) > MAX_POSTINGS:
                        return
                    continue
                children = list(value.values())
            elif isinstance(value, list):
                children = value
            else:
                continue
            stack.extend((child, depth + 1) for child in reversed(children)
                         if isinstance(child, dict | list))


def _json_blocks(tree: LexborHTMLParser, notes: list[str]) -> Iterator[Any]:
    scripts = [node for node in tree.css("script")
               if (node.attributes.get("type") or "").split(";")[0].strip().lower()
               == "application/ld+json"]
    if len(scripts) > MAX_BLOCKS:
        notes.append(f"{len(scripts)} JSON-LD blocks; the first {MAX_BLOCKS} read")
    for node in scripts[:MAX_BLOCKS]:
        text = node.text(deep=True) or ""
        if len(text) > MAX_BLOCK_CHARS:
            notes.append(f"a JSON-LD block of {len(text):,} characters left out")
            continue
        text = text.strip()
        if text.startswith("<!--"):
            text = text.removeprefix("<!--").removesuffix("-->").strip()
        if not text:
            continue
        try:
            yield jsonbound.loads(text)
        except jsonbound.JSONRefused:
            notes.append("a JSON-LD block that is not JSON left out")


# --- microdata ------------------------------------------------------------------------

def _scope_of(node: LexborNode, root: LexborNode) -> LexborNode | None:
    """The nearest itemscope element above `node` (root included)."""
    parent = node.parent
    while parent is not None:
        if "itemscope" in parent.attributes:
            return parent
        if parent.mem_id == root.mem_id:
            return None
        parent = parent.parent
    return None


def _micro_value(node: LexborNode, depth: int, budget: list[int]) -> Any:
    if "itemscope" in node.attributes:
        return _micro_item(node, depth + 1, budget)
    attrs = node.attributes
    tag = node.tag
    if tag == "meta":
        return attrs.get("content") or ""
    if tag in ("a", "link", "area"):
        return attrs.get("href") or ""
    if tag in ("img", "audio", "video", "source", "iframe", "embed"):
        return attrs.get("src") or ""
    if tag == "time" and attrs.get("datetime"):
        return attrs.get("datetime") or ""
    if tag in ("data", "meter") and attrs.get("value"):
        return attrs.get("value") or ""
    if "content" in attrs:
        return attrs.get("content") or ""
    if attrs.get("itemprop") == "description":
        return node.html or ""
    return node.text(deep=True, separator=" ") or ""


def _micro_item(scope: LexborNode, depth: int, budget: list[int]) -> dict[str, Any]:
    item: dict[str, Any] = {"@type": scope.attributes.get("itemtype") or ""}
    if depth > 8:
        return item
    for node in scope.css("[itemprop]"):
        budget[0] -= 1
        if budget[0] < 0:
            break
        if node.mem_id == scope.mem_id:
            continue
        own = _scope_of(node, scope)
        if own is None or own.mem_id != scope.mem_id:
            continue
        for name in (node.attributes.get("itemprop") or "").split()[:5]:
            value = _micro_value(node, depth, budget)
            if name in item:
                held = item[name]
                item[name] = [*held, value] if isinstance(held, list) else [held, value]
            else:
                item[name] = value
    return item


def _microdata(tree: LexborHTMLParser) -> list[dict[str, Any]]:
    budget = [MAX_MICRODATA_PROPS]
    found = []
    for scope in tree.css("[itemscope][itemtype]"):
        kinds = (scope.attributes.get("itemtype") or "").split()
        if any(kind.rstrip("/").rsplit("/", 1)[-1] == "JobPosting" for kind in kinds):
            found.append(_micro_item(scope, 0, budget))
            if len(found) > MAX_POSTINGS:
                break
    return found


# --- a page ---------------------------------------------------------------------------

def read_page(body: bytes | str) -> Reading:
    """The JobPostings a page states (JSON-LD, else microdata), in page order, each once.

    Raises PageRefused past a bound (a page over MAX_PAGE_BYTES, more than
    MAX_POSTINGS postings)."""
    if len(body) > MAX_PAGE_BYTES:
        raise PageRefused(f"the page is larger than {MAX_PAGE_BYTES // (1024 * 1024)} MB: "
                          "not read")
    text = body.decode("utf-8", "replace") if isinstance(body, bytes | bytearray) else body
    tree = LexborHTMLParser(text)
    out = Reading()
    walk = _Walk()
    for block in _json_blocks(tree, out.notes):
        walk.walk(block)
        if walk.nodes > MAX_NODES or len(walk.found) > MAX_POSTINGS:
            break
    nodes, form = walk.found, "json-ld"
    if walk.cut:
        out.notes.append("a JSON-LD block too deep or too large to read whole")
    if not nodes:
        nodes, form = _microdata(tree), "microdata"
    if len(nodes) > MAX_POSTINGS:
        raise PageRefused(f"the page lists more than {MAX_POSTINGS} job postings: a "
                          "listing, not one job's page")
    seen: set[tuple[str, str, str, str]] = set()
    for node in nodes:
        try:
            posting = read_posting(node, walk.ids, form)
        except (RecursionError, ValueError, TypeError):
            posting = None
        if posting is None:
            out.notes.append("a JobPosting without a title left out")
            continue
        key = (posting.title, posting.company, posting.identifier, posting.url)
        if key not in seen:
            seen.add(key)
            out.postings.append(posting)
    return out


def page_host(url: str) -> str:
    try:
        return (urlsplit(url).hostname or "").lower()
    except ValueError:
        return ""


def on_page_host(posting: JobPosting, page_url: str) -> JobPosting:
    """`posting` with its `url` kept only when it is on the page's own site (the same
    host, or one a dot-bounded suffix of the other): a page cannot name another
    site's address as the job's page."""
    host, own = page_host(posting.url), page_host(page_url)
    if posting.url and host and own and (host_is(host, own) or host_is(own, host)):
        return posting
    return replace(posting, url="")


def claims_elsewhere(posting: JobPosting, page_url: str) -> list[str]:
    """The hosts of the company sites a posting names that the page is not on."""
    own = page_host(page_url)
    out = []
    for url in posting.company_urls:
        host = page_host(url).removeprefix("www.")
        if host and own and not (host_is(own, host) or host_is(host, own)):
            out.append(host)
    return _unique(out)


__all__ = ["MAX_PAGE_BYTES", "MAX_POSTINGS", "JobPosting", "PageRefused", "Place", "Reading",
           "claims_elsewhere", "on_page_host", "read_page", "read_posting"]
