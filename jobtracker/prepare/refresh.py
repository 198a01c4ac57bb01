"""Packets brought up to date after a decision about their posting, no download.

Accepting (or undoing) a resume edit, a letter or a drafted answer changes what
that posting's packet should hold. When the posting has a packet, `after_decisions`
writes it again at once, by the same code as `prepare` (edited files kept, the new
version beside them as `NAME.new`), with the form as it was last read: nothing is
rescored and nothing downloaded. The command line and the TUI's review call it
after each decision; which kinds feed a packet is theirs to know, not this
module's: a decision that changes nothing in a packet rewrites nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jobtracker import files, proposals
from jobtracker.config import RenderConfig
from jobtracker.prepare.answer_bank import Answers, load_answers
from jobtracker.prepare.documents import Documents
from jobtracker.prepare.forms import Form, reader_of
from jobtracker.prepare.run import (
    Prepared,
    UnknownPostings,
    find_packet,
    packet_for,
    posting_rows,
)
from jobtracker.proposals import Decision
from jobtracker.yamlfile import ConfigError

if TYPE_CHECKING:
    import aiosqlite


async def _stored_form(conn: aiosqlite.Connection, row: Any) -> Form | str | None:
    """The form last read for the posting, or why it could not be (no download); None
    for a posting whose source reads no forms."""
    if reader_of(row["source"]) is None:
        return None
    stored = await (await conn.execute("SELECT form, error FROM forms WHERE posting_id = ?",
                                       (row["id"],))).fetchone()
    if stored is None:
        return None
    if stored["form"] is None:
        return str(stored["error"] or "the form could not be read")
    try:
        return Form.from_json(json.loads(stored["form"]))
    except (ValueError, KeyError, TypeError):
        return None


async def refresh(conn: aiosqlite.Connection, home: Path, posting_ids: list[int],
                  bank: Answers, now: str,
                  render: RenderConfig | None = None) -> list[Prepared]:
    """Bring the packets that exist for `posting_ids` up to date, after a decision
    about them (an accepted or undone resume edit, letter or answer): no rescoring
    and no download, the form as last read. A posting without a packet is left."""
    wanted = [p for p in dict.fromkeys(posting_ids) if find_packet(home, p) is not None]
    documents = Documents(render)
    done = []
    for posting_id in wanted:
        try:
            (row,) = await posting_rows(conn, [posting_id])
        except UnknownPostings:
            continue
        form = await _stored_form(conn, row)
        done.append(await packet_for(conn, home, row, bank, form, now, documents))
    return done


async def after_decisions(conn: aiosqlite.Connection, home: Path, decisions: list[Decision],
                          now: str, render: RenderConfig | None = None) -> list[str]:
    """Refresh the packets of the postings the successful `decisions` were about;
    the lines to say (nothing when no packet changed)."""
    ids = []
    for decision in decisions:
        found = await proposals.get(conn, decision.id) if decision.ok else None
        if found is not None and found.posting_id is not None:
            ids.append(found.posting_id)
    if not any(find_packet(home, posting_id) for posting_id in ids):
        return []
    try:
        bank = load_answers(home / "answers.yaml")
    except ConfigError as exc:
        return [f"packets not brought up to date: {exc}"]
    lines = []
    for item in await refresh(conn, home, ids, bank, now, render):
        where = files.relative(item.written.folder, home) + "/"
        if item.written.changed:
            lines.append(f"packet {where}: {', '.join(item.written.changed)} brought up to date")
        lines += [f"packet {where}: {name} was edited by you: it is kept, the new version is "
                  f"{name}.new" for name in item.written.kept]
        lines += [f"packet {where}: {d.line()}" for d in item.documents if not d.ok]
    return lines
