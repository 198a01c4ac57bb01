"""A JSON Resume (schema 1.0, jsonresume.org) document → resume Markdown. Pure.

The Markdown follows the shape the renderer reads: `# name`, the contact line,
the summary, then `## Work`, `## Education`, ... with one `### entry` per job or
school and its highlights as bullets. Every value is text from the file and stays
text: Markdown's own characters in it are escaped, so `C#`, `*nix` or `<team>`
print as themselves. Links keep only http(s) and mailto addresses.

Sections the schema has and this writes, in order: basics, work, volunteer,
projects, education, awards, certificates, publications, skills, languages,
interests, references. Keys the schema does not know are ignored; a known key of
the wrong type is an `ImportError_` naming it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from jobtracker import jsonbound
from jobtracker.text import clean_text

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


class _Reader:
    """Typed access to the document, each error naming the field's path."""

    def __init__(self, data: Any) -> None:
        if not isinstance(data, dict):
            raise ResumeImportError("the document must be a JSON object")
        self.data = data

    @staticmethod
    def text(obj: dict[str, Any], key: str, at: str) -> str:
        value = obj.get(key)
        if value is None:
            return ""
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise ResumeImportError(f"{at}.{key}: must be text")
        return str(value).strip()

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


def _dates(item: dict[str, Any], at: str, start: str = "startDate",
           end: str = "endDate") -> str:
    begin, until = _Reader.text(item, start, at), _Reader.text(item, end, at)
    if begin and until:
        return f"{begin} to {until}"
    if begin:
        return f"{begin} to now"
    return until


def _entry(title_parts: list[str], dates: str, url: str = "") -> str:
    title = " — ".join(escape(p) for p in title_parts if p)
    if url:
        title = f"{title} ({_link(url)})" if title else _link(url)
    if dates:
        title += f" ({escape(dates)})"
    # A heading's trailing ` #` run would be read as its closing sequence.
    title = re.sub(r"(^|\s)(#+)$", r"\1\\\2", title)
    return f"### {title}" if title else ""


def _paragraphs(text: str) -> list[str]:
    """A summary's paragraphs (blank lines apart), each one escaped line."""
    return [guard(escape(p)) for p in re.split(r"\n\s*\n", clean_text(text)) if p.strip()]


def _item(markdown: str) -> list[str]:
    """A list item holding `markdown` (already escaped), or nothing when it is empty."""
    return [f"- {guard(markdown)}"] if markdown else []


def _bullets(values: list[str]) -> list[str]:
    return [line for v in values for line in _item(escape(v))]


def _basics(basics: dict[str, Any]) -> list[str]:
    r = _Reader
    at = "basics"
    name = r.text(basics, "name", at)
    lines = [f"# {escape(name) or 'Your Name'}"]
    contact = [escape(v) for v in (r.text(basics, "email", at), r.text(basics, "phone", at))
               if v]
    location = basics.get("location") or {}
    if not isinstance(location, dict):
        raise ResumeImportError("basics.location: must be an object")
    place = ", ".join(v for v in (r.text(location, k, "basics.location")
                                  for k in ("city", "region", "countryCode")) if v)
    if place:
        contact.append(escape(place))
    if r.text(basics, "url", at):
        contact.append(_link(r.text(basics, "url", at)))
    for index, profile in enumerate(r.items(basics, "profiles", "basics.")):
        where = f"basics.profiles[{index}]"
        url, user = r.text(profile, "url", where), r.text(profile, "username", where)
        network = r.text(profile, "network", where)
        if url:
            contact.append(_link(url))
        elif user:
            contact.append(escape(f"{network}: {user}" if network else user))
    if contact:
        lines.append(guard(" · ".join(contact)))
    label = r.text(basics, "label", at)
    summary = r.text(basics, "summary", at)
    body = ([f"**{escape(label)}**"] if label else []) + _paragraphs(summary)
    return [*lines, "", *(p + "\n" for p in body)]


# (section key, heading, entry builder): each builder gives an entry's lines.
Builder = Callable[[dict[str, Any], str], list[str]]


def _work(item: dict[str, Any], at: str) -> list[str]:
    r = _Reader
    return [_entry([r.text(item, "name", at) or r.text(item, "company", at),
                    r.text(item, "position", at)], _dates(item, at), r.text(item, "url", at)),
            *_paragraphs(r.text(item, "summary", at)), *_bullets(r.strings(item, "highlights", at))]


def _volunteer(item: dict[str, Any], at: str) -> list[str]:
    r = _Reader
    return [_entry([r.text(item, "organization", at), r.text(item, "position", at)],
                   _dates(item, at), r.text(item, "url", at)),
            *_paragraphs(r.text(item, "summary", at)), *_bullets(r.strings(item, "highlights", at))]


def _project(item: dict[str, Any], at: str) -> list[str]:
    r = _Reader
    roles = ", ".join(r.strings(item, "roles", at))
    return [_entry([r.text(item, "name", at), roles], _dates(item, at), r.text(item, "url", at)),
            *_paragraphs(r.text(item, "description", at)),
            *_bullets(r.strings(item, "highlights", at))]


def _education(item: dict[str, Any], at: str) -> list[str]:
    r = _Reader
    degree = " ".join(v for v in (r.text(item, "studyType", at), r.text(item, "area", at)) if v)
    score = r.text(item, "score", at)
    return [_entry([r.text(item, "institution", at), degree], _dates(item, at),
                   r.text(item, "url", at)),
            *_item(f"Score: {escape(score)}" if score else ""),
            *_bullets(r.strings(item, "courses", at))]


def _award(item: dict[str, Any], at: str) -> list[str]:
    r = _Reader
    return [_entry([r.text(item, "title", at), r.text(item, "awarder", at)],
                   r.text(item, "date", at)), *_paragraphs(r.text(item, "summary", at))]


def _certificate(item: dict[str, Any], at: str) -> list[str]:
    r = _Reader
    return [_entry([r.text(item, "name", at), r.text(item, "issuer", at)],
                   r.text(item, "date", at), r.text(item, "url", at))]


def _publication(item: dict[str, Any], at: str) -> list[str]:
    r = _Reader
    return [_entry([r.text(item, "name", at), r.text(item, "publisher", at)],
                   r.text(item, "releaseDate", at), r.text(item, "url", at)),
            *_paragraphs(r.text(item, "summary", at))]


def _skill(item: dict[str, Any], at: str) -> list[str]:
    r = _Reader
    name, level = r.text(item, "name", at), r.text(item, "level", at)
    words = ", ".join(r.strings(item, "keywords", at))
    head = f"**{escape(name)}**" + (f" ({escape(level)})" if level else "") if name else ""
    return _item(": ".join(v for v in (head, escape(words)) if v))


def _language(item: dict[str, Any], at: str) -> list[str]:
    r = _Reader
    language, fluency = r.text(item, "language", at), r.text(item, "fluency", at)
    return _item(escape(language) + (f" ({escape(fluency)})" if fluency else "")
                 if language else "")


def _interest(item: dict[str, Any], at: str) -> list[str]:
    r = _Reader
    name, words = r.text(item, "name", at), ", ".join(r.strings(item, "keywords", at))
    return _item(": ".join(escape(v) for v in (name, words) if v))


def _reference(item: dict[str, Any], at: str) -> list[str]:
    r = _Reader
    name, said = r.text(item, "name", at), r.text(item, "reference", at)
    return [*_paragraphs(said), *([f"— {escape(name)}"] if name else [])]


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
    """An entry: its heading and paragraphs apart, its bullets together."""
    out: list[str] = []
    for line in (x for x in lines if x):
        if out and not (line.startswith("- ") and out[-1].startswith("- ")):
            out.append("")
        out.append(line)
    return "\n".join(out)


def to_markdown(data: Any) -> str:
    """The resume Markdown for a parsed JSON Resume document."""
    reader = _Reader(data)
    basics = data.get("basics") or {}
    if not isinstance(basics, dict):
        raise ResumeImportError("basics: must be an object")
    parts = ["\n".join(_basics(basics)).rstrip() + "\n"]
    for key, heading, build, listed in SECTIONS:
        entries = [build(item, f"{key}[{index}]")
                   for index, item in enumerate(reader.items(data, key, ""))]
        entries = [e for e in entries if any(e)]
        if not entries:
            continue
        if listed:
            body = "\n".join(line for entry in entries for line in entry if line)
        else:
            body = "\n\n".join(_block(entry) for entry in entries)
        parts.append(f"## {heading}\n\n{body}\n")
    return "\n".join(parts)


def from_json_text(text: str) -> str:
    try:
        data = jsonbound.loads(text)
    except jsonbound.JSONRefused as exc:
        where = f"line {exc.lineno}: " if exc.lineno else ""
        raise ResumeImportError(f"{where}not JSON ({exc.msg})") from None
    return to_markdown(data)
