"""A digest in the forms it travels in: plain text, Markdown, a small HTML mail, a
short push message and the mail's subject. Pure: no I/O, no clock.

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
from collections.abc import Callable, Iterable
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


def _kinds(d: Digest, name: Callable[[str], str] = str) -> str:
    return ", ".join(f"{name(kind)} {n:,}" for kind, n in sorted(d.proposals_by_kind.items()))


def _sets_aside(d: Digest, name: Callable[[str], str] = str) -> str:
    return ", ".join(f"{name(task)} {n:,}" for task, n in d.set_aside.items())


# --- plain text --------------------------------------------------------------------------

def text(d: Digest, limit: int = LIMIT) -> str:
    lines = [f"jobtracker digest - {_window(d)}", ""]
    if d.matches:
        lines.append(f"New matches ({len(d.matches):,}, {d.min_verdict} or better)")
        for m in d.matches[:limit]:
            lines.append(f"  {m.verdict:<7} {m.score:5.2f}  {_match_label(m, _plain)}")
            if safe_url(m.url):
                lines.append(f"                 {m.url}")
        lines += _tail(_more(len(d.matches), limit, "(jobtracker matches)"))
        lines.append("")
    if d.interviews:
        lines.append(f"Interviews in the next 7 days ({len(d.interviews):,})")
        for i in d.interviews[:limit]:
            where = f"  {_plain(i.where, 200)}" if i.where else ""
            lines.append(f"  {_interview_day(d, i)}  {_plain(i.company, 60)} - "
                         f"{_plain(i.title, 80)}{where}")
        lines += _tail(_more(len(d.interviews), limit, "(jobtracker interviews)"))
        lines.append("")
    if d.proposals:
        lines.append(f"Proposals waiting ({len(d.proposals):,}: {_kinds(d)})")
        lines += [f"  #{p.id} {p.kind}: {_plain(p.summary)}" for p in d.proposals[:limit]]
        lines += _tail(_more(len(d.proposals), limit, "(jobtracker proposals)"))
        lines.append("")
    if d.due:
        lines.append(f"Follow-ups due ({len(d.due):,})")
        lines += [f"  {_plain(a.company, 60)} - {_plain(a.title, 80)}: {a.status}, "
                  f"due {a.followup_due}" for a in d.due[:limit]]
        lines += _tail(_more(len(d.due), limit, "(jobtracker applications --due)"))
        lines.append("")
    if d.set_aside or d.boards:
        lines.append("What failed")
        if d.set_aside:
            lines.append(f"  units set aside after {3} failures: {_sets_aside(d)}")
        lines += [f"  board {_plain(b.board, 60)}: {_plain(b.error, 200)}"
                  for b in d.boards[:limit]]
        lines += _tail(_more(len(d.boards), limit, "boards"))
        lines.append("")
    if d.empty:
        lines += ["Nothing new.", ""]
    return "\n".join(lines).rstrip() + "\n"


def _tail(line: str | None) -> list[str]:
    return [f"  {line}"] if line else []


def _match_label(m: MatchItem, escape: Callable[[str | None, int], str]) -> str:
    where = f" ({escape(m.location, 60)})" if m.location else ""
    known = f"; {escape(m.contacts, 200)}" if m.contacts else ""   # docs/contacts.md
    return f"{escape(m.company, 60)} - {escape(m.title, 100)}{where}{known}"


# --- Markdown ----------------------------------------------------------------------------

def markdown(d: Digest, limit: int = LIMIT) -> str:
    out = ["# jobtracker digest", "", md_ours(_window(d)), ""]

    def section(title: str, items: Iterable[str], more: str | None) -> None:
        out.extend([f"## {title}", ""])
        out.extend(f"- {item}" for item in items)
        if more:
            out.append(f"- {md_ours(more)}")
        out.append("")

    if d.matches:
        section(f"New matches ({len(d.matches):,}, {d.min_verdict} or better)",
                (f"**{m.verdict}** {m.score:.2f} {_match_label(m, md)}"
                 + (f" <{m.url}>" if safe_url(m.url) else "") for m in d.matches[:limit]),
                _more(len(d.matches), limit, "(jobtracker matches)"))
    if d.interviews:
        section(f"Interviews in the next 7 days ({len(d.interviews):,})",
                (f"**{md_ours(_interview_day(d, i))}** {md(i.company, 60)} \\- {md(i.title, 80)}"
                 + (f" \\- {_md_where(i.where)}" if i.where else "")
                 for i in d.interviews[:limit]),
                _more(len(d.interviews), limit, "(jobtracker interviews)"))
    if d.proposals:
        section(f"Proposals waiting ({len(d.proposals):,}: {_kinds(d, md_name)})",
                (f"\\#{p.id} {md_name(p.kind)}: {md(p.summary)}" for p in d.proposals[:limit]),
                _more(len(d.proposals), limit, "(jobtracker proposals)"))
    if d.due:
        section(f"Follow-ups due ({len(d.due):,})",
                (f"{md(a.company, 60)} \\- {md(a.title, 80)}: {md_name(a.status)}, due "
                 f"{md_ours(a.followup_due)}" for a in d.due[:limit]),
                _more(len(d.due), limit, "(jobtracker applications --due)"))
    if d.set_aside or d.boards:
        items = ([f"units set aside: {_sets_aside(d, md_name)}"] if d.set_aside else [])
        items += [f"board {md(b.board, 60)}: {md(b.error, 200)}" for b in d.boards[:limit]]
        section("What failed", items, _more(len(d.boards), limit, "boards"))
    if d.empty:
        out += ["Nothing new.", ""]
    return "\n".join(out).rstrip() + "\n"


def _md_where(where: str) -> str:
    link = safe_url(where)
    return f"<{link}>" if link else md(where, 200)


# --- HTML mail ---------------------------------------------------------------------------

_STYLE = ("font-family: sans-serif; font-size: 14px; line-height: 1.4; color: #222; "
          "max-width: 40em")


def _a(url: str | None, label: str) -> str:
    link = safe_url(url)
    return f'<a href="{html.escape(link, quote=True)}">{label}</a>' if link else label


def html_mail(d: Digest, limit: int = LIMIT) -> str:
    out = ['<!DOCTYPE html>', '<html><head><meta charset="utf-8">',
           f"<title>{h(subject(d), 200)}</title></head>", f'<body style="{_STYLE}">',
           "<h1 style=\"font-size: 18px\">jobtracker digest</h1>",
           f"<p>{h(_window(d), 200)}</p>"]

    def section(title: str, items: Iterable[str], more: str | None) -> None:
        out.append(f'<h2 style="font-size: 16px">{h(title, 200)}</h2>')
        out.append("<ul>")
        out.extend(f"<li>{item}</li>" for item in items)
        if more:
            out.append(f"<li>{h(more, 200)}</li>")
        out.append("</ul>")

    if d.matches:
        section(f"New matches ({len(d.matches):,}, {d.min_verdict} or better)",
                (f"<b>{h(m.verdict)}</b> {m.score:.2f} "
                 f"{_a(m.url, _match_label(m, h))}" for m in d.matches[:limit]),
                _more(len(d.matches), limit, "(jobtracker matches)"))
    if d.interviews:
        section(f"Interviews in the next 7 days ({len(d.interviews):,})",
                (f"<b>{h(_interview_day(d, i))}</b> {h(i.company, 60)} - {h(i.title, 80)}"
                 + (f" - {_a(i.where, h(i.where, 200))}" if i.where else "")
                 for i in d.interviews[:limit]),
                _more(len(d.interviews), limit, "(jobtracker interviews)"))
    if d.proposals:
        section(f"Proposals waiting ({len(d.proposals):,}: {_kinds(d)})",
                (f"#{p.id} {h(p.kind, 30)}: {h(p.summary)}" for p in d.proposals[:limit]),
                _more(len(d.proposals), limit, "(jobtracker proposals)"))
    if d.due:
        section(f"Follow-ups due ({len(d.due):,})",
                (f"{h(a.company, 60)} - {h(a.title, 80)}: {h(a.status)}, due "
                 f"{h(a.followup_due)}" for a in d.due[:limit]),
                _more(len(d.due), limit, "(jobtracker applications --due)"))
    if d.set_aside or d.boards:
        items = [f"units set aside: {h(_sets_aside(d), 200)}"] if d.set_aside else []
        items += [f"board {h(b.board, 60)}: {h(b.error, 200)}" for b in d.boards[:limit]]
        section("What failed", items, _more(len(d.boards), limit, "boards"))
    if d.empty:
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
