"""A JSON Resume (schema 1.0, jsonresume.org) document → resume Markdown. Pure.

The Markdown follows the shape the renderer reads: `# name`, the contact line,
the summary, then `## Work`, `## Education`, ... with one `### entry` per job or
school and its highlights as bullets. Every value is text from the file and stays
text: Markdown's own characters in it are escaped, so `C#`, `*nix` or `<team>`
print as themselves. Links keep only http(s) and mailto addresses.

What a real resume.json holds is kept:

- a list typed inside a text (`"summary": "Led:\n- a\n- b"`, as LinkedIn exports
  and many hand-written files have it) stays a list, a numbered one numbered; a
  highlight with a list inside becomes a bullet with nested bullets;
- the pre-1.0 keys (`website` anywhere, `work[].company`, `education[].gpa`) are
  read as their 1.0 names, and `Imported.legacy` says which were;
- dates are written in the resume's own words ("Dec 2013 – Dec 2014",
  "Jun 2011 – present"; `DateStyle`, from config.yaml `render.dates`);
- a degree reads "Bachelor in Information Technology".

Sections the schema has and this writes, in order: basics, work, volunteer,
projects, education, awards, certificates, publications, skills, languages,
interests, references. Keys the schema does not know are ignored; a known key of
the wrong type is a `ResumeImportError` naming it, and so is JSON nested deeper
than `MAX_DEPTH` or a number longer than `MAX_NUMBER` characters (one line, never
a traceback).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from jobtracker import jsonbound
from jobtracker.render.settings import DateStyle
from jobtracker.text import clean_text

MAX_DEPTH = 40          # levels of objects and lists: a resume has four or five
MAX_NUMBER = 40         # characters of one JSON number: a resume's are years and scores

# Characters Markdown may read as markup anywhere in a line; a backslash makes each
# a plain character again (CommonMark: any ASCII punctuation may be escaped).
_INLINE = re.compile(r"([\\`*_\[\]<>&])")
# ...and at the start of a block: headings, list markers, quotes, setext underlines
# (for a number, the dot or parenthesis after it is what gets escaped).
_LINE_START = re.compile(r"^([#>+=-]|\d{1,9}(?=[.)]))")
LINK_SCHEMES = ("http://", "https://", "mailto:")


class ResumeImportError(ValueError):
    """A JSON Resume document that cannot be read; the message names the field."""


def escape(text: str) -> str:
    """`text` as Markdown that reads back as exactly that text, on one line, inside
    a line (`guard` it where it begins a block)."""
    return _INLINE.sub(r"\\\1", " ".join(clean_text(text).split()))


def guard(line: str) -> str:
    """Markdown text made safe to begin a line or a list item, where `#`, `-`, `>`
    or `1.` would be markup: a backslash before it (after the digits of `1.`)."""
    found = _LINE_START.match(line)
    if found is None:
        return line
    if found.group(1)[0].isdigit():
        return line[:found.end()] + "\\" + line[found.end():]
    return "\\" + line


def _link(url: str, text: str | None = None) -> str:
    url = " ".join(clean_text(url).split())
    shown = escape(text or re.sub(r"^(?:https?://|mailto:)", "", url).rstrip("/"))
    if not url.lower().startswith(LINK_SCHEMES):
        return shown
    # Spaces, brackets and parentheses would end the address early: percent-encoded.
    return f"[{shown}]({quote(url, safe=':/?#@!$&*+,;=%~')})"


_INDEX = re.compile(r"\[\d+\]")


class _Reader:
    """Typed access to the document, each error naming the field's path; the pre-1.0
    keys it read instead of the 1.0 ones are collected in `legacy`."""

    def __init__(self, data: Any, style: DateStyle) -> None:
        if not isinstance(data, dict):
            raise ResumeImportError("the document must be a JSON object")
        self.data = data
        self.style = style
        self.legacy: dict[str, str] = {}     # "work[].website" → "url"

    @staticmethod
    def text(obj: dict[str, Any], key: str, at: str) -> str:
        value = obj.get(key)
        if value is None:
            return ""
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise ResumeImportError(f"{at}.{key}: must be text")
        return str(value).strip()

    def either(self, obj: dict[str, Any], key: str, old: str, at: str) -> str:
        """`key`, else the pre-1.0 `old` (noted in `legacy`)."""
        value = self.text(obj, key, at)
        if value:
            return value
        value = self.text(obj, old, at)
        if value:
            self.legacy[f"{_INDEX.sub('[]', at)}.{old}"] = key
        return value

    def url(self, obj: dict[str, Any], at: str) -> str:
        return self.either(obj, "url", "website", at)

    @staticmethod
    def items(obj: dict[str, Any], key: str, at: str) -> list[dict[str, Any]]:
        value = obj.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            raise ResumeImportError(f"{at}{key}: must be a list")
        for index, item in enumerate(value):
            if not isinstance(item, dict):
                raise ResumeImportError(f"{at}{key}[{index}]: must be an object")
        return value

    @staticmethod
    def strings(obj: dict[str, Any], key: str, at: str) -> list[str]:
        value = obj.get(key)
        if value is None:
            return []
        if not isinstance(value, list) or not all(
                isinstance(v, str | int | float) and not isinstance(v, bool) for v in value):
            raise ResumeImportError(f"{at}.{key}: must be a list of text")
        return [str(v).strip() for v in value if str(v).strip()]

    def dates(self, item: dict[str, Any], at: str, start: str = "startDate",
              end: str = "endDate") -> str:
        return self.style.span(self.text(item, start, at), self.text(item, end, at))

    def date(self, item: dict[str, Any], key: str, at: str) -> str:
        value = self.text(item, key, at)
        return self.style.words(value) if value else ""


def _entry(title_parts: list[str], dates: str, url: str = "") -> str:
    title = " — ".join(escape(p) for p in title_parts if p)
    if url:
        title = f"{title} ({_link(url)})" if title else _link(url)
    if dates:
        title += f" ({escape(dates)})"
    # A heading's trailing ` #` run would be read as its closing sequence.
    title = re.sub(r"(^|\s)(#+)$", r"\1\\\2", title)
    return f"### {title}" if title else ""


# A line of a text that is a list item: "- x", "* x", "• x", "1. x", "2) x"; a bullet
# character that is only ever a bullet may touch its text ("•Integrated ...").
_BULLET = re.compile(r"^\s*(?:[•▪◦‣●]\s*|[-*+·]\s+|(?:(\d{1,3})[.)])\s+)(\S.*)$")


def _prose(text: str) -> list[str]:
    """A text's paragraphs (blank lines apart; a line break inside one is a space)
    and the lists typed inside it, as Markdown lines, each escaped."""
    out: list[str] = []
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            out.append(guard(escape(" ".join(paragraph))))
            paragraph.clear()

    lines = clean_text(text).split("\n")
    for line in lines:
        # One line alone is never a list: "1. Not a list" as a highlight is its text.
        found = _BULLET.match(line) if len(lines) > 1 else None
        if found:
            flush()
            number, words = found.group(1), found.group(2)
            marker = f"{int(number)}." if number else "-"
            out.append(f"{marker} {guard(escape(words))}")
        elif not line.strip():
            flush()
        elif out and _LIST_LINE.match(out[-1]) and not paragraph and line[:1].isspace():
            out[-1] += " " + escape(line)          # an item's text wrapped onto a new line
        else:
            paragraph.append(line)
    flush()
    return out


_LIST_LINE = re.compile(r"^\s*(?:-|\d{1,3}\.) ")


def _item(markdown: str) -> list[str]:
    """A list item holding `markdown` (already escaped), or nothing when it is empty."""
    return [f"- {guard(markdown)}"] if markdown else []


def _bullets(values: list[str]) -> list[str]:
    """Highlights as bullets; one with a list typed inside it is a bullet whose
    nested bullets are that list."""
    out: list[str] = []
    for value in values:
        lines = _prose(value)
        if not lines:
            continue
        first, rest = lines[0], lines[1:]
        if _LIST_LINE.match(first):
            out += [f"- {line}" if not _LIST_LINE.match(line) else line for line in lines]
            continue
        out.append(f"- {first}")
        out += [f"  {line}" if _LIST_LINE.match(line) else f"  - {line}" for line in rest]
    return out


def _place(location: dict[str, Any]) -> str:
    """City, region and country; with no city, the region and the country (or the
    address's own last part when the country is all there is)."""
    r = _Reader
    at = "basics.location"
    city, region = r.text(location, "city", at), r.text(location, "region", at)
    country = r.text(location, "countryCode", at) or r.text(location, "country", at)
    if not city and not region and not country:
        address = r.text(location, "address", at)
        country = address.rsplit(",", 1)[-1].strip() if "," in address else ""
    return ", ".join(v for v in (city, region, country) if v)


def _basics(reader: _Reader, basics: dict[str, Any]) -> list[str]:
    r = _Reader
    at = "basics"
    name = r.text(basics, "name", at)
    lines = [f"# {escape(name) or 'Your Name'}"]
    contact = [escape(v) for v in (r.text(basics, "email", at), r.text(basics, "phone", at))
               if v]
    location = basics.get("location") or {}
    if not isinstance(location, dict):
        raise ResumeImportError("basics.location: must be an object")
    place = _place(location)
    if place:
        contact.append(escape(place))
    url = reader.url(basics, at)
    if url:
        contact.append(_link(url))
    for index, profile in enumerate(r.items(basics, "profiles", "basics.")):
        where = f"basics.profiles[{index}]"
        link, user = reader.url(profile, where), r.text(profile, "username", where)
        network = r.text(profile, "network", where)
        if link:
            contact.append(_link(link))
        elif user:
            contact.append(escape(f"{network}: {user}" if network else user))
    if contact:
        lines.append(guard(" · ".join(contact)))
    label = r.text(basics, "label", at)
    summary = r.text(basics, "summary", at)
    body = ([f"**{escape(label)}**"] if label else []) + _prose(summary)
    return [*lines, "", *_block(body).split("\n")]


# (section key, heading, entry builder): each builder gives an entry's lines.
Builder = Callable[[_Reader, dict[str, Any], str], list[str]]


def _work(r: _Reader, item: dict[str, Any], at: str) -> list[str]:
    return [_entry([r.either(item, "name", "company", at), r.text(item, "position", at)],
                   r.dates(item, at), r.url(item, at)),
            *_prose(r.text(item, "summary", at)), *_bullets(r.strings(item, "highlights", at))]


def _volunteer(r: _Reader, item: dict[str, Any], at: str) -> list[str]:
    return [_entry([r.text(item, "organization", at) or r.text(item, "name", at),
                    r.text(item, "position", at)], r.dates(item, at), r.url(item, at)),
            *_prose(r.text(item, "summary", at)), *_bullets(r.strings(item, "highlights", at))]


def _project(r: _Reader, item: dict[str, Any], at: str) -> list[str]:
    roles = ", ".join(r.strings(item, "roles", at))
    return [_entry([r.text(item, "name", at), roles], r.dates(item, at), r.url(item, at)),
            *_prose(r.text(item, "description", at)),
            *_bullets(r.strings(item, "highlights", at))]


def _degree(study: str, area: str) -> str:
    """"Bachelor in Information Technology"; the area alone when the study type
    already names it."""
    if study and area and area.casefold() not in study.casefold():
        return f"{study} in {area}"
    return study or area


def _education(r: _Reader, item: dict[str, Any], at: str) -> list[str]:
    degree = _degree(r.text(item, "studyType", at), r.text(item, "area", at))
    score = r.either(item, "score", "gpa", at)
    return [_entry([r.text(item, "institution", at), degree], r.dates(item, at),
                   r.url(item, at)),
            *_item(f"Score: {escape(score)}" if score else ""),
            *_bullets(r.strings(item, "courses", at))]


def _award(r: _Reader, item: dict[str, Any], at: str) -> list[str]:
    return [_entry([r.text(item, "title", at), r.text(item, "awarder", at)],
                   r.date(item, "date", at)), *_prose(r.text(item, "summary", at))]


def _certificate(r: _Reader, item: dict[str, Any], at: str) -> list[str]:
    return [_entry([r.text(item, "name", at), r.text(item, "issuer", at)],
                   r.date(item, "date", at), r.url(item, at))]


def _publication(r: _Reader, item: dict[str, Any], at: str) -> list[str]:
    return [_entry([r.text(item, "name", at), r.text(item, "publisher", at)],
                   r.date(item, "releaseDate", at), r.url(item, at)),
            *_prose(r.text(item, "summary", at))]


def _skill(r: _Reader, item: dict[str, Any], at: str) -> list[str]:
    name, level = r.text(item, "name", at), r.text(item, "level", at)
    words = ", ".join(r.strings(item, "keywords", at))
    head = f"**{escape(name)}**" + (f" ({escape(level)})" if level else "") if name else ""
    return _item(": ".join(v for v in (head, escape(words)) if v))


def _language(r: _Reader, item: dict[str, Any], at: str) -> list[str]:
    language, fluency = r.text(item, "language", at), r.text(item, "fluency", at)
    return _item(escape(language) + (f" ({escape(fluency)})" if fluency else "")
                 if language else "")


def _interest(r: _Reader, item: dict[str, Any], at: str) -> list[str]:
    name, words = r.text(item, "name", at), ", ".join(r.strings(item, "keywords", at))
    return _item(": ".join(escape(v) for v in (name, words) if v))


def _reference(r: _Reader, item: dict[str, Any], at: str) -> list[str]:
    name, said = r.text(item, "name", at), r.text(item, "reference", at)
    return [*_prose(said), *([f"— {escape(name)}"] if name else [])]


SECTIONS: tuple[tuple[str, str, Builder, bool], ...] = (
    # key, heading, builder, whether its entries are list items (no blank line between)
    ("work", "Experience", _work, False),
    ("volunteer", "Volunteering", _volunteer, False),
    ("projects", "Projects", _project, False),
    ("education", "Education", _education, False),
    ("awards", "Awards", _award, False),
    ("certificates", "Certificates", _certificate, False),
    ("publications", "Publications", _publication, False),
    ("skills", "Skills", _skill, True),
    ("languages", "Languages", _language, True),
    ("interests", "Interests", _interest, True),
    ("references", "References", _reference, False),
)


def _block(lines: list[str]) -> str:
    """An entry: its heading and paragraphs apart, its list items together."""
    out: list[str] = []
    for line in (x for x in lines if x):
        if out and not (_LIST_LINE.match(line) and _LIST_LINE.match(out[-1])):
            out.append("")
        out.append(line)
    return "\n".join(out)


@dataclass(frozen=True)
class Imported:
    markdown: str
    legacy: dict[str, str] = field(default_factory=dict)   # pre-1.0 key → the 1.0 name

    def legacy_line(self) -> str:
        """One line naming the pre-1.0 keys that were read, or ""."""
        if not self.legacy:
            return ""
        keys = ", ".join(f"{old} (as {new})" for old, new in sorted(self.legacy.items()))
        return f"read keys of the pre-1.0 JSON Resume schema: {keys}"


def convert(data: Any, style: DateStyle | None = None) -> Imported:
    """The resume Markdown for a parsed JSON Resume document, and the legacy keys read."""
    reader = _Reader(data, style or DateStyle())
    basics = data.get("basics") or {}
    if not isinstance(basics, dict):
        raise ResumeImportError("basics: must be an object")
    parts = ["\n".join(_basics(reader, basics)).rstrip() + "\n"]
    for key, heading, build, listed in SECTIONS:
        entries = [build(reader, item, f"{key}[{index}]")
                   for index, item in enumerate(reader.items(data, key, ""))]
        entries = [e for e in entries if any(e)]
        if not entries:
            continue
        if listed:
            body = "\n".join(line for entry in entries for line in entry if line)
        else:
            body = "\n\n".join(_block(entry) for entry in entries)
        parts.append(f"## {heading}\n\n{body}\n")
    return Imported("\n".join(parts), dict(reader.legacy))


def to_markdown(data: Any, style: DateStyle | None = None) -> str:
    """The resume Markdown for a parsed JSON Resume document."""
    return convert(data, style).markdown


def load(text: str) -> Any:
    """The JSON in `text`, read by the one bounded reader (jobtracker/jsonbound.py) with
    a resume's bounds: no deeper than MAX_DEPTH, no number longer than MAX_NUMBER
    characters; ResumeImportError with one line saying which, and where."""
    try:
        return jsonbound.loads(text, max_depth=MAX_DEPTH, max_number_chars=MAX_NUMBER)
    except jsonbound.JSONRefused as exc:
        if exc.kind == jsonbound.NESTED:
            raise ResumeImportError(f"nested deeper than a resume is (at most {MAX_DEPTH} "
                                    "levels of objects and lists)") from None
        if exc.kind == jsonbound.NUMBER:
            literal = exc.literal
            line = text[: text.find(literal)].count("\n") + 1 if literal in text else 0
            raise ResumeImportError(f"line {line}: a number of {len(literal):,} characters "
                                    f"is not a resume's (at most {MAX_NUMBER})") from None
        where = f"line {exc.lineno}: " if exc.lineno else ""
        raise ResumeImportError(f"{where}not JSON ({exc.msg})") from None


def import_text(text: str, style: DateStyle | None = None) -> Imported:
    return convert(load(text), style)


def from_json_text(text: str, style: DateStyle | None = None) -> str:
    return import_text(text, style).markdown
