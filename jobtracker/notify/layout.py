"""A digest in the forms it travels in: plain text, Markdown, a small HTML mail, a
short push message and the mail's subject. Pure: no I/O, no clock.

The digest is laid out once: `plan` lists its sections, rows and fields in order, each
field marked by what it is, and one small writer per form (`text`, `markdown`,
`html_mail`) renders that plan.

Every string from outside (titles, companies, locations, summaries, errors) is made
one clean line (`one_line`: no control characters or escape sequences) and then
escaped for its form: Markdown punctuation gets a backslash, HTML is escaped, and a
link is only ever an http(s) address, written as data. No form loads anything remote
(no images, no fonts, no style sheets).

Each list is cut at `limit` items with a count of the rest, so a digest of 10,000
matches is a mail of a few kilobytes; the push message stays under ntfy's 4,096 bytes.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlsplit

from jobtracker.notify.digest import Digest, InterviewItem, MatchItem
from jobtracker.text import one_line

LIMIT = 25              # items listed per section in a mail or file; the rest counted
PUSH_MATCHES = 5        # matches a push message names
PUSH_BYTES = 3800       # under ntfy's 4,096-byte message limit, with room for headers
FIELD_CHARS = 120       # one title, company or summary, at most


def _plain(text: str | None, limit: int = FIELD_CHARS) -> str:
    return one_line(text, limit)


def safe_url(url: str | None) -> str | None:
    """`url` when it is a plain http(s) address (no spaces, quotes or brackets), else None:
    anything else from a posting is shown as text, never made a link."""
    text = (url or "").strip()
    if not text or len(text) > 2000 or re.search(r"[\s<>\"'`\\\x00-\x1f\x7f]", text):
        return None
    try:
        parts = urlsplit(text)
    except ValueError:
        return None
    return text if parts.scheme in ("http", "https") and parts.hostname else None


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+\-.!|~])")


def md(text: str | None, limit: int = FIELD_CHARS) -> str:
    """Untrusted text for Markdown: one line, every punctuation mark that could start
    markup escaped."""
    return _MD_SPECIAL.sub(r"\\\1", _plain(text, limit))


_IDENTIFIER = re.compile(r"[a-z][a-z0-9_]{0,40}")


def md_ours(text: str) -> str:
    """The digest's own words for Markdown (its times, zone, counts and pointers): kept as
    written, one line. Only untrusted text is escaped (`md`); escaping this too wrote
    `13:56 \\(America/Los\\_Angeles\\)` into the archive."""
    return one_line(text, 300)


def md_name(text: str) -> str:
    """A kind or task name read from the database: as written when it is one of ours
    (a lower-case identifier), escaped like any untrusted text when it is not."""
    return text if _IDENTIFIER.fullmatch(text) else md(text, 60)


def h(text: str | None, limit: int = FIELD_CHARS) -> str:
    return html.escape(_plain(text, limit), quote=True)


def count(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else (many or one + 's')}"


def when(d: Digest, stamp: str) -> str:
    """`Tue 3 Dec 14:00` in the digest's zone."""
    moment = d.local(stamp)
    return f"{moment:%a} {moment.day} {moment:%b %H:%M}"


def _interview_day(d: Digest, item: InterviewItem) -> str:
    start, today = d.local(item.start), d.local(d.made_at)
    delta = (start.date() - today.date()).days
    label = ("today" if delta == 0 else "tomorrow" if delta == 1
             else f"{start:%a} {start.day} {start:%b}")
    return f"{label} {start:%H:%M}"


def headline(d: Digest) -> str:
    """One line for a subject or a push title."""
    parts = []
    if d.matches:
        parts.append(count(len(d.matches), "new match", "new matches"))
    if d.interviews:
        first = d.interviews[0]
        parts.append(f"interview {_interview_day(d, first)} {_plain(first.company, 40)}")
    if d.proposals:
        parts.append(count(len(d.proposals), "proposal") + " waiting")
    if d.due:
        parts.append(f"{len(d.due):,} due")
    if d.set_aside or d.boards:
        parts.append("something failed")
    return "jobtracker: " + (" · ".join(parts) if parts else "nothing new")


def subject(d: Digest) -> str:
    return one_line(headline(d), 200)


def _window(d: Digest) -> str:
    made = when(d, d.made_at)
    if d.since:
        return f"{made} ({d.zone}), since {when(d, d.since)}"
    return f"{made} ({d.zone})"


def _more(n: int, shown: int, what: str) -> str | None:
    return f"... and {n - shown:,} more {what}" if n > shown else None


def _kinds(d: Digest) -> str:
    return ", ".join(f"{kind} {n:,}" for kind, n in sorted(d.proposals_by_kind.items()))


# --- the section plan --------------------------------------------------------------------
#
# The digest's sections, rows and fields in order, built once (`plan`). Each form's writer
# below renders the same plan; the pieces say what a string is, so each writer escapes it
# for its form: untrusted text (`Field`, `Place`) is cleaned and escaped, names read from
# the database (`Name`) are escaped unless they look like ours, the digest's own words
# (`Words`, `Value`) are written as they are.

@dataclass(frozen=True)
class Words:
    """The digest's own words, written as they are (HTML escapes them all the same)."""
    text: str


@dataclass(frozen=True)
class Value:
    """A value the digest made (a day, a date): one line, unescaped in Markdown."""
    text: str


@dataclass(frozen=True)
class Field:
    """Untrusted text: one clean line of at most `limit` characters, escaped per form."""
    text: str | None
    limit: int = FIELD_CHARS


@dataclass(frozen=True)
class Name:
    """A kind, task or status name read from the database."""
    text: str
    limit: int = FIELD_CHARS


@dataclass(frozen=True)
class Sep:
    """Between two fields: ` - ` (Markdown escapes the dash); `plain` in plain text."""
    plain: str = " - "


@dataclass(frozen=True)
class Ref:
    """A proposal's number, `#7`."""
    id: int


@dataclass(frozen=True)
class Place:
    """Where an interview is: a link when it is an http(s) address, else text."""
    text: str
    limit: int = 200


@dataclass(frozen=True)
class PlainOnly:
    """Words the plain text says and the other forms leave out."""
    text: str


Piece = Words | Value | Field | Name | Sep | Ref | Place | PlainOnly


@dataclass(frozen=True)
class Lead:
    """What a row starts with, in bold: a verdict and its score, or a day."""
    word: str
    width: int = 0                  # plain text pads the word to this width
    score: float | None = None


@dataclass(frozen=True)
class Row:
    body: tuple[Piece, ...]
    lead: Lead | None = None
    link: str | None = None         # a safe http(s) address the row points to


@dataclass(frozen=True)
class Section:
    title: tuple[Piece, ...]
    rows: tuple[Row, ...]
    more: str | None                # "... and 3 more (jobtracker matches)"


@dataclass(frozen=True)
class Plan:
    subject: str
    window: str
    sections: tuple[Section, ...]
    empty: bool


def _counts(prefix: str, counts: Iterable[tuple[str, int]], suffix: str) -> tuple[Piece, ...]:
    pieces: list[Piece] = [Words(prefix)]
    for i, (name, n) in enumerate(counts):
        pieces += [Words(", ")] if i else []
        pieces += [Name(name), Words(f" {n:,}")]
    return (*pieces, Words(suffix))


def _match_row(m: MatchItem) -> Row:
    body: list[Piece] = [Field(m.company, 60), Words(" - "), Field(m.title, 100)]
    if m.location:
        body += [Words(" ("), Field(m.location, 60), Words(")")]
    if m.contacts:                                                  # docs/contacts.md
        body += [Words("; "), Field(m.contacts, 200)]
    return Row(tuple(body), Lead(m.verdict, 7, m.score), safe_url(m.url))


def plan(d: Digest, limit: int = LIMIT) -> Plan:
    """The digest's sections in order, each row's fields marked by what they are."""
    sections: list[Section] = []
    if d.matches:
        sections.append(Section(
            (Words(f"New matches ({len(d.matches):,}, {d.min_verdict} or better)"),),
            tuple(_match_row(m) for m in d.matches[:limit]),
            _more(len(d.matches), limit, "(jobtracker matches)")))
    if d.interviews:
        sections.append(Section(
            (Words(f"Interviews in the next 7 days ({len(d.interviews):,})"),),
            tuple(Row((Field(i.company, 60), Sep(), Field(i.title, 80))
                      + ((Sep("  "), Place(i.where)) if i.where else ()),
                      Lead(_interview_day(d, i)))
                  for i in d.interviews[:limit]),
            _more(len(d.interviews), limit, "(jobtracker interviews)")))
    if d.proposals:
        sections.append(Section(
            _counts(f"Proposals waiting ({len(d.proposals):,}: ",
                    sorted(d.proposals_by_kind.items()), ")"),
            tuple(Row((Ref(p.id), Words(" "), Name(p.kind, 30), Words(": "),
                       Field(p.summary)))
                  for p in d.proposals[:limit]),
            _more(len(d.proposals), limit, "(jobtracker proposals)")))
    if d.due:
        sections.append(Section(
            (Words(f"Follow-ups due ({len(d.due):,})"),),
            tuple(Row((Field(a.company, 60), Sep(), Field(a.title, 80), Words(": "),
                       Name(a.status), Words(", due "), Value(a.followup_due)))
                  for a in d.due[:limit]),
            _more(len(d.due), limit, "(jobtracker applications --due)")))
    if d.set_aside or d.boards:
        aside = (Words("units set aside"), PlainOnly(" after 3 failures"),
                 *_counts(": ", d.set_aside.items(), ""))
        rows = [Row(aside)] if d.set_aside else []
        rows += [Row((Words("board "), Field(b.board, 60), Words(": "), Field(b.error, 200)))
                 for b in d.boards[:limit]]
        sections.append(Section((Words("What failed"),), tuple(rows),
                                _more(len(d.boards), limit, "boards")))
    return Plan(subject(d), _window(d), tuple(sections), d.empty)


# --- plain text --------------------------------------------------------------------------

def _text_piece(piece: Piece) -> str:
    match piece:
        case Field(text, limit) | Place(text, limit):
            return _plain(text, limit)
        case Sep(plain):
            return plain
        case Ref(id):
            return f"#{id}"
        case Words(text) | Value(text) | Name(text) | PlainOnly(text):
            return text
    raise TypeError(piece)


def _text_of(pieces: Iterable[Piece]) -> str:
    return "".join(_text_piece(p) for p in pieces)


def text(d: Digest, limit: int = LIMIT) -> str:
    p = plan(d, limit)
    lines = [f"jobtracker digest - {p.window}", ""]
    for section in p.sections:
        lines.append(_text_of(section.title))
        for row in section.rows:
            lead = ""
            if row.lead:
                score = f" {row.lead.score:5.2f}" if row.lead.score is not None else ""
                lead = f"{row.lead.word.ljust(row.lead.width)}{score}  "
            lines.append(f"  {lead}{_text_of(row.body)}")
            if row.link:
                lines.append(f"                 {row.link}")
        lines += [f"  {section.more}"] if section.more else []
        lines.append("")
    if p.empty:
        lines += ["Nothing new.", ""]
    return "\n".join(lines).rstrip() + "\n"


# --- Markdown ----------------------------------------------------------------------------

def _md_piece(piece: Piece) -> str:
    match piece:
        case Field(text, limit):
            return md(text, limit)
        case Place(text, limit):
            link = safe_url(text)
            return f"<{link}>" if link else md(text, limit)
        case Name(text):
            return md_name(text)
        case Value(text):
            return md_ours(text)
        case Sep():
            return " \\- "
        case Ref(id):
            return f"\\#{id}"
        case Words(text):
            return text
        case PlainOnly():
            return ""
    raise TypeError(piece)


def _md_of(pieces: Iterable[Piece]) -> str:
    return "".join(_md_piece(p) for p in pieces)


def markdown(d: Digest, limit: int = LIMIT) -> str:
    p = plan(d, limit)
    out = ["# jobtracker digest", "", md_ours(p.window), ""]
    for section in p.sections:
        out.extend([f"## {_md_of(section.title)}", ""])
        for row in section.rows:
            lead = ""
            if row.lead:
                score = f" {row.lead.score:.2f}" if row.lead.score is not None else ""
                lead = f"**{md_ours(row.lead.word)}**{score} "
            link = f" <{row.link}>" if row.link else ""
            out.append(f"- {lead}{_md_of(row.body)}{link}")
        if section.more:
            out.append(f"- {md_ours(section.more)}")
        out.append("")
    if p.empty:
        out += ["Nothing new.", ""]
    return "\n".join(out).rstrip() + "\n"


# --- HTML mail ---------------------------------------------------------------------------

_STYLE = ("font-family: sans-serif; font-size: 14px; line-height: 1.4; color: #222; "
          "max-width: 40em")


def _a(url: str | None, label: str) -> str:
    link = safe_url(url)
    return f'<a href="{html.escape(link, quote=True)}">{label}</a>' if link else label


def _html_piece(piece: Piece) -> str:
    match piece:
        case Field(text, limit) | Name(text, limit):
            return h(text, limit)
        case Place(text, limit):
            return _a(text, h(text, limit))
        case Value(text):
            return h(text)
        case Sep():
            return " - "
        case Ref(id):
            return f"#{id}"
        case Words(text):
            return html.escape(text, quote=True)
        case PlainOnly():
            return ""
    raise TypeError(piece)


def html_mail(d: Digest, limit: int = LIMIT) -> str:
    p = plan(d, limit)
    out = ['<!DOCTYPE html>', '<html><head><meta charset="utf-8">',
           f"<title>{h(p.subject, 200)}</title></head>", f'<body style="{_STYLE}">',
           "<h1 style=\"font-size: 18px\">jobtracker digest</h1>",
           f"<p>{h(p.window, 200)}</p>"]
    for section in p.sections:
        out.append(f'<h2 style="font-size: 16px">{h(_text_of(section.title), 200)}</h2>')
        out.append("<ul>")
        for row in section.rows:
            lead = ""
            if row.lead:
                score = f" {row.lead.score:.2f}" if row.lead.score is not None else ""
                lead = f"<b>{h(row.lead.word)}</b>{score} "
            body = "".join(_html_piece(piece) for piece in row.body)
            out.append(f"<li>{lead}{_a(row.link, body)}</li>")
        if section.more:
            out.append(f"<li>{h(section.more, 200)}</li>")
        out.append("</ul>")
    if p.empty:
        out.append("<p>Nothing new.</p>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


# --- a push message ----------------------------------------------------------------------

def push(d: Digest) -> str:
    """A few lines for a phone: the counts, the best matches, the next interview.
    Markdown (ntfy renders it in its web app; elsewhere it reads as text)."""
    lines = []
    for i in d.interviews[:2]:
        lines.append(f"Interview {md(_interview_day(d, i))}: {md(i.company, 60)} "
                     f"\\- {md(i.title, 60)}")
    if d.matches:
        lines.append(f"{len(d.matches):,} new match{'es' if len(d.matches) != 1 else ''}:")
        lines += [f"- {m.verdict} {md(m.company, 40)} \\- {md(m.title, 60)}"
                  for m in d.matches[:PUSH_MATCHES]]
        more = _more(len(d.matches), PUSH_MATCHES, "")
        if more:
            lines.append(md(more.strip(), 80))
    if d.proposals:
        lines.append(f"{len(d.proposals):,} proposals waiting ({md(_kinds(d), 120)})")
    if d.due:
        lines.append(f"{len(d.due):,} follow-ups due")
    if d.set_aside or d.boards:
        lines.append(f"Failed: {len(d.boards):,} boards, "
                     f"{sum(d.set_aside.values()):,} units set aside")
    body = "\n".join(lines) or "Nothing new."
    encoded = body.encode("utf-8")
    if len(encoded) > PUSH_BYTES:
        body = encoded[:PUSH_BYTES].decode("utf-8", errors="ignore").rsplit("\n", 1)[0]
    return body


def when_local(start: str, end: str, zone: str | None) -> str:
    """`Thu 3 Dec 2026 14:00-15:00 Europe/Berlin`: an interview as its own zone has it."""
    begin, until = datetime.fromisoformat(start), datetime.fromisoformat(end)
    label = zone or begin.strftime("UTC%z")
    return f"{begin:%a} {begin.day} {begin:%b %Y %H:%M}-{until:%H:%M} {label}"
