"""A packet: `applications/<posting-id>-<slug>/`, its files rendered and written.

Files are written atomically through the written-files ledger
(`jobtracker.files`): a file still as jobtracker wrote it is replaced when its
content changes (a stale packet is refreshed), one the user edited is never
overwritten — the new version goes beside it as `NAME.new`, and the caller says so.
Labels come from the employer and answers from the user; neither ever reaches a file
name (the folder is the posting's id and a slug). In answers.md the employer's text is
escaped Markdown on one clean line (`md_text`), and the user's own values are written
as they are, inert in a code span or a fenced block (`own_value`).
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jobtracker import files, proposals
from jobtracker.prepare.documents import Rendered
from jobtracker.prepare.forms import SELECT_TYPES
from jobtracker.prepare.resolve import Resolution, Resolved
from jobtracker.text import clean_text, one_line

if TYPE_CHECKING:
    import aiosqlite

FOLDER = "applications"
MARK_DONE, MARK_MISSING, MARK_OPTIONAL = "✓", "✗", "·"


@dataclass(frozen=True)
class Posting:
    id: int
    company: str
    title: str
    location: str
    url: str
    description: str
    source: str                  # the board's source: "greenhouse", "lever", "feed", ...

    @property
    def label(self) -> str:
        return f"{one_line(self.company)} - {one_line(self.title)}".strip(" -")


@dataclass
class Written:
    """What writing a packet did: its folder, and each file's fate."""

    folder: Path
    changed: list[str] = field(default_factory=list)     # written (new or refreshed)
    kept: list[str] = field(default_factory=list)        # edited by the user: NAME.new beside
    failed: list[str] = field(default_factory=list)      # could not be written, with why


def folder_for(home: Path, posting: Posting) -> Path:
    """The posting's packet folder: an existing `<id>-*` one (its title may have
    changed since), else `<id>-<slug of company and title>`."""
    base = home / FOLDER
    if base.is_dir():
        for found in sorted(base.glob(f"{posting.id}-*")):
            if found.is_dir() and not found.is_symlink():
                return found
    return base / f"{posting.id}-{files.slug(posting.company, posting.title)}"


def _answer_text(item: Resolved) -> str:
    if isinstance(item.answer, list):
        return ", ".join(item.answer)
    return item.answer or ""


def _mark(item: Resolved) -> str:
    return MARK_DONE if item.resolved else MARK_MISSING if item.missing else MARK_OPTIONAL


def posting_md(posting: Posting) -> str:
    where = " · ".join(one_line(p) for p in (posting.company, posting.location) if p)
    return (f"# {one_line(posting.title)}\n\n{where}\n\nApply: {one_line(posting.url)}\n\n"
            f"{clean_text(posting.description).strip()}\n")


def _form_line(resolution: Resolution, form_error: str | None) -> str:
    if resolution.kind != "standard":      # a source's own form (Source.form)
        return f"Form: the employer's own ({len(resolution.fields)} fields)"
    why = f" (the employer's form could not be read: {md_text(form_error, 200)})" \
        if form_error else ""
    return f"Form: the standard set{why}"


# Markdown's punctuation that could make a link, an image, inline HTML, an entity, code
# or emphasis, escaped with a backslash (CommonMark lets any ASCII punctuation be).
_MD_MARKUP = re.compile(r"([\\`*_{}\[\]()<>!|~&#])")
# What GitHub-style Markdown turns into a link with no brackets: `x://`, `www.`, `a@b`.
_MD_AUTOLINK = re.compile(r"(?i)(?<=[a-z0-9+.-])(:)(?=//)|(?<=\bwww)(\.)|(@)")


def md_text(text: str | None, limit: int = 0) -> str:
    """Employer text (a form's labels and options, a company, a title, a server's error)
    as one line of Markdown that reads as itself: `[Click](…)`, `![x](…)`, `<img>` and
    bare URLs become text, never a live link or image in a viewer."""
    flat = _MD_MARKUP.sub(r"\\\1", one_line(text, limit))
    return _MD_AUTOLINK.sub(lambda found: "\\" + found.group(0), flat)



def waiting_names() -> dict[str, tuple[str, str]]:
    """What a packet lacks while proposals for its posting wait in review: each kind that
    declares it (`Presentation.awaited`), in the registry's order → its words."""
    return {kind.name: kind.view.awaited for kind in proposals.REGISTRY.values()
            if kind.view.awaited is not None}


def waiting_line(waiting: dict[str, int]) -> str:
    """`2 resume edits, 1 letter waiting in review: jobtracker proposals list …`, or ''."""
    names = waiting_names()
    parts = [f"{count} {names[kind][count != 1]}" for kind, count in waiting.items()
             if count and kind in names]
    if not parts:
        return ""
    return (f"{', '.join(parts)} waiting in review: jobtracker proposals list (this packet "
            "has none of them; accept them, then prepare again)")


def label_md(posting: Posting) -> str:
    """`Company - Title` as Markdown that reads as itself (both are the employer's)."""
    return f"{md_text(posting.company)} - {md_text(posting.title)}".strip(" -")


def answers_md(posting: Posting, resolution: Resolution, form_error: str | None,
               documents: Sequence[Rendered] = (),
               waiting: dict[str, int] | None = None, *, coverage_line: str = "",
               contacts_line: str = "") -> str:
    lines = [f"# Answers: {label_md(posting)}", "", f"Apply: {one_line(posting.url)}",
             _form_line(resolution, form_error)]
    if coverage_line:      # the posting's words in it: employer text, escaped
        lines.append(md_text(coverage_line))
    if contacts_line:      # names from a CSV or a mail: text, never a link
        lines.append(f"Contacts: {md_text(contacts_line)}")
    note = waiting_line(waiting or {})
    if note:
        lines.append(f"Waiting: {note}")
    lines.append("")
    if documents:
        lines += ["## Documents", "", *(f"- {d.line()}" for d in documents), ""]
    missing = [r for r in resolution.fields if r.missing]
    if missing:
        lines += ["## Needs you", ""]
        lines += [f"- {MARK_MISSING} {md_text(r.field.label)} ({md_text(r.field.type)}): "
                  f"{md_text(r.note)}" for r in missing]
        lines.append("")
    lines += ["## Fields, in form order", ""]
    for item in resolution.fields:
        required = " (required)" if item.field.required else ""
        source = f"  \\[{md_text(item.source)}\\]" if item.source else ""
        head = f"- {_mark(item)} {md_text(item.field.label)}{required}:"
        if not item.resolved:
            lines.append(f"{head} — {md_text(item.note)}")
        elif _employers(item):
            lines.append(f"{head} {md_text(_answer_text(item))}{source}")
        else:
            lines += own_value(head, _answer_text(item), source)
    return "\n".join(lines) + "\n"


def _employers(item: Resolved) -> bool:
    """Whether an answer is the employer's text: a select field's chosen option (the
    EEO "decline" options among them), never the user's own words."""
    return item.field.type in SELECT_TYPES or item.source == "eeo"


def _fence(value: str, mark: str = "`") -> str:
    """A run of backticks longer than any in `value`: a code span or fence around it
    is then never closed by the value itself."""
    longest = max((len(run) for run in re.findall(f"{re.escape(mark)}+", value)), default=0)
    return mark * (longest + 1)


def own_value(head: str, value: str, source: str = "") -> list[str]:
    """The user's own value (answers.yaml, an accepted draft), written as it is: in a
    code span on the field's line, or, when it has several lines, in a fenced block
    under it. Nothing in it is escaped or changed, and nothing in it is live in a
    Markdown viewer — `[x](y)`, `<b>`, an e-mail address or a URL read as themselves,
    and copying from the viewer or the file gives the value exactly."""
    text = clean_text(value)
    if "\n" not in text:
        fence = _fence(text)
        pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
        return [f"{head} {fence}{pad}{text}{pad}{fence}{source}"]
    fence = _fence(text)
    fence = fence if len(fence) >= 3 else "```"
    body = [f"  {line}" if line else "" for line in text.split("\n")]
    return [f"{head}{source}", "", f"  {fence}text", *body, f"  {fence}", ""]


def answers_json(posting: Posting, resolution: Resolution, form_error: str | None,
                 documents: Sequence[Rendered] = (),
                 waiting: dict[str, int] | None = None,
                 extra: dict[str, Any] | None = None) -> str:
    data: dict[str, Any] = {
        "posting": posting.id, "url": one_line(posting.url), "company": one_line(posting.company),
        "title": one_line(posting.title), "form": resolution.kind, "form_error": form_error,
        "fields": [r.to_json() for r in resolution.fields],
        "unresolved_required": resolution.unresolved_required,
        "documents": [d.to_json() for d in documents],
        "waiting": {kind: (waiting or {}).get(kind, 0) for kind in waiting_names()},
        **(extra or {}),     # what the packet knows beside the form: coverage, contacts
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _current(path: Path) -> bytes | None:
    """What the file holds now; None when missing or not a readable regular file (a FIFO
    or a link to /dev/zero is never read: writing it then says why it is refused)."""
    try:
        return files.read_regular_bytes(path)
    except files.FileRefused:
        return None


async def write_file(conn: aiosqlite.Connection, home: Path, path: Path, text: str | bytes,
                     now: str, posting_id: int, result: Written) -> None:
    """Write one packet file unless it already holds `text` (or bytes); an edited one
    gets `NAME.new`."""
    wanted = files.as_bytes(text)
    if _current(path) == wanted:   # unchanged: no write, no fsync (prepare --top 20 < 1 s)
        return
    try:
        await files.write_recorded(conn, home, path, text, now, posting_id)
        result.changed.append(path.name)
        return
    except files.FileRefused:
        pass
    beside = path.with_name(path.name + ".new")
    if _current(beside) == wanted:
        result.kept.append(path.name)
        return
    try:
        await files.write_recorded(conn, home, beside, text, now, posting_id)
        result.kept.append(path.name)
    except files.FileRefused as exc:
        result.failed.append(f"{path.name}: {exc}")


async def write_packet(conn: aiosqlite.Connection, home: Path, posting: Posting,
                       texts: dict[str, str | bytes | None], now: str) -> Written:
    """Write the packet's files (`texts`: name → text, None: the file has no source
    now and is removed if it is still jobtracker's), inside the caller's transaction."""
    folder = folder_for(home, posting)
    result = Written(folder)
    for name, text in texts.items():
        path = folder / name
        if text is None:
            if path.exists():
                with contextlib.suppress(files.FileRefused):   # the user's: kept
                    await files.remove_recorded(conn, home, path)
            continue
        await write_file(conn, home, path, text, now, posting.id, result)
    return result
