"""Job feeds: RSS 2.0 (and 1.0), Atom and JSON Feed, detected from the body.

A feed item usually holds a blurb, not the full posting, so every posting read
here has `description_source = 'feed'`; when the same job is fetched from its ATS
the prose replaces the blurb (see jobtracker/postings/fetch.py for how the two are linked).

XML is read by `safexml.parse_xml`, which refuses any DTD (no entity expansion,
no external entities).
"""

from __future__ import annotations

import hashlib
import xml.etree.ElementTree as ET
from email.utils import parsedate_to_datetime
from typing import Any

from jobtracker.config import Feed
from jobtracker.sources.base import (
    NormalizedPosting,
    Postings,
    SourceError,
    description,
    guarded,
    iso_time,
    load_json,
    text_field,
)
from jobtracker.sources.safexml import parse_xml
from jobtracker.text import html_to_text

ATOM = "{http://www.w3.org/2005/Atom}"


# --- reading elements by local name (RSS 1.0 puts items in a namespace) -----------

def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _child(element: ET.Element, *names: str) -> ET.Element | None:
    """The first direct child whose local name is one of `names`, in `names` order."""
    for name in names:
        for child in element:
            if _local(child.tag) == name:
                return child
    return None


def _text(element: ET.Element, *names: str) -> str:
    child = _child(element, *names)
    return "".join(child.itertext()).strip() if child is not None else ""


def _id(*candidates: str) -> str:
    for candidate in candidates:
        if candidate.strip():
            value = candidate.strip()
            # Ids are keys, not text to read: long ones are hashed to a bounded size.
            return value if len(value) <= 500 else hashlib.sha256(value.encode()).hexdigest()
    return ""


def _item(feed: Feed, *, external_id: str, title: str, url: str, blurb: str | None,
          location: str = "", company: str = "", posted: str | None = None,
          updated: str | None = None) -> NormalizedPosting | None:
    title = text_field(title)
    if not external_id or not title:
        return None
    location = text_field(location)
    return NormalizedPosting(
        external_id=external_id,
        title=title,
        company=text_field(company, 200),
        location=location,
        remote=True if "remote" in location.lower() else None,
        url=text_field(url, 2000),
        description=description(blurb),
        description_source="feed",
        posted_at=posted,
        updated_at=updated,
    )


def _rfc822(value: str) -> str | None:
    if not value:
        return None
    try:
        return iso_time(parsedate_to_datetime(value).isoformat())
    except (TypeError, ValueError, IndexError):
        return iso_time(value)      # some feeds put ISO 8601 in pubDate


def _rss_item(item: ET.Element, feed: Feed) -> NormalizedPosting | None:
    link = _text(item, "link")
    return _item(
        feed,
        external_id=_id(_text(item, "guid"), link),
        title=_text(item, "title"),
        url=link,
        blurb=html_to_text(_text(item, "encoded", "description")),
        location=_text(item, "location", "region"),
        company=_text(item, "creator", "company", "author"),
        posted=_rfc822(_text(item, "pubDate", "date")),
    )


def _rss(root: ET.Element, feed: Feed) -> Postings:
    items = [element for element in root.iter() if _local(element.tag) == "item"]
    return guarded(items, lambda item: _rss_item(item, feed))


def _atom_text(element: ET.Element | None) -> str:
    """An Atom text construct as plain text, whatever its `type`."""
    if element is None:
        return ""
    kind = element.get("type", "text")
    if kind == "html":
        return html_to_text(element.text or "")
    if kind == "xhtml":
        # The XHTML is real elements here: drop their namespace and read them as HTML.
        for child in element.iter():
            child.tag = _local(child.tag)
        return html_to_text(ET.tostring(element, encoding="unicode", method="html"))
    return "".join(element.itertext()).strip()


def _atom_link(entry: ET.Element) -> str:
    for link in entry.findall(f"{ATOM}link"):
        if link.get("rel", "alternate") == "alternate" and link.get("href"):
            return link.get("href", "")
    return ""


def _atom_entry(entry: ET.Element, feed: Feed) -> NormalizedPosting | None:
    link = _atom_link(entry)
    author = entry.find(f"{ATOM}author/{ATOM}name")
    return _item(
        feed,
        external_id=_id(entry.findtext(f"{ATOM}id") or "", link),
        title=_atom_text(entry.find(f"{ATOM}title")),
        url=link,
        blurb=_atom_text(entry.find(f"{ATOM}content"))
        or _atom_text(entry.find(f"{ATOM}summary")),
        location=_text(entry, "location"),
        company="".join(author.itertext()) if author is not None else "",
        # `published` is optional in Atom; `updated` is the entry's only sure date.
        posted=iso_time(entry.findtext(f"{ATOM}published")
                        or entry.findtext(f"{ATOM}updated")),
        updated=iso_time(entry.findtext(f"{ATOM}updated")),
    )


def _atom(root: ET.Element, feed: Feed) -> Postings:
    return guarded(root.findall(f"{ATOM}entry"), lambda entry: _atom_entry(entry, feed))


def _json_author(item: dict[str, Any]) -> str:
    authors = item.get("authors")
    if isinstance(authors, list) and authors and isinstance(authors[0], dict):
        return str(authors[0].get("name") or "")
    author = item.get("author")
    return str(author.get("name") or "") if isinstance(author, dict) else ""


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ("" if value is None else str(value))


def _json_item(item: dict[str, Any], feed: Feed) -> NormalizedPosting | None:
    url = _str(item.get("url") or item.get("external_url"))
    if isinstance(item.get("content_html"), str):
        blurb = html_to_text(item["content_html"])
    else:
        blurb = _str(item.get("content_text") or item.get("summary"))
    return _item(
        feed,
        external_id=_id(_str(item.get("id")), url),
        title=_str(item.get("title")),
        url=url,
        blurb=blurb,
        location=_str(item.get("location")),
        company=_json_author(item),
        posted=iso_time(item.get("date_published")),
        updated=iso_time(item.get("date_modified")),
    )


def _json_feed(data: dict[str, Any], feed: Feed) -> Postings:
    items = data.get("items")
    if not isinstance(items, list):
        raise SourceError("not a JSON Feed: expected an 'items' list")
    return guarded(items, lambda item: _json_item(item, feed))


def parse(payload: bytes | str | Any, feed: Feed) -> Postings:
    """Postings from an RSS, Atom or JSON Feed body (the format is read from the body)."""
    if isinstance(payload, bytes | bytearray):
        payload = bytes(payload)
        first = payload.lstrip(b"\xef\xbb\xbf \t\r\n")[:1].decode("latin-1")
    elif isinstance(payload, str):
        first = payload.lstrip("\ufeff \t\r\n")[:1]
    else:
        first = ""
    if first and first not in "{<":
        raise SourceError("not a feed: neither XML nor JSON")
    if first == "{":
        payload = load_json(payload)
    if isinstance(payload, dict):
        if "jsonfeed.org" not in _str(payload.get("version")):
            raise SourceError("not a JSON Feed: 'version' does not name jsonfeed.org")
        return _json_feed(payload, feed)
    root = parse_xml(payload)
    kind = _local(root.tag)
    if root.tag == f"{ATOM}feed":
        return _atom(root, feed)
    if kind in ("rss", "RDF"):
        return _rss(root, feed)
    raise SourceError(f"not a feed: the document is <{kind}>, not RSS or Atom")
