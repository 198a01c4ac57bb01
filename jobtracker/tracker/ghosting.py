"""Ghosting: an open application silent for `followup.ghosted_after` days gets a
`status` proposal to `ghosted` (task `followup`) — asked of no model, applied only
when the user accepts it.

Silence starts at the later of the last employer message and the last status change
(a status set by hand after a phone call is contact too). The proposal's unit key
names the application and the day the silence started, so the same silence is never
proposed twice, whatever was decided; a reply and a new silence make a new one.
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from jobtracker import proposals
from jobtracker.applications import GHOSTED, OPEN, status_change_applies
from jobtracker.config import Followup
from jobtracker.text import one_line
from jobtracker.tracker.overview import day, load_rows

if TYPE_CHECKING:
    import aiosqlite

TASK = "followup"


async def propose_ghosted(conn: aiosqlite.Connection, followup: Followup, now: str) -> int:
    """Propose `ghosted` for every open application silent long enough, inside the
    caller's write transaction; returns how many proposals are new."""
    today = day(now)
    assert today is not None
    made = 0
    for row in await load_rows(conn, followup, today):
        since = day(row.activity or None)
        if row.status not in OPEN or since is None or not status_change_applies(
                row.status, GHOSTED):
            continue
        silent = (today - since).days
        if silent < followup.ghosted_after:
            continue
        made += await _propose(conn, row.id, row.posting_id, row.company, row.status,
                               since, silent, now)
    return made


async def _propose(conn: aiosqlite.Connection, application_id: int, posting_id: int | None,
                   company: str, status: str, since: date, silent: int, now: str) -> int:
    unit_key = f"ghosted:{application_id}:{since.isoformat()}"
    known = await (await conn.execute(
        "SELECT 1 FROM proposals WHERE task = ? AND unit_key = ?", (TASK, unit_key))).fetchone()
    if known:
        return 0
    evidence = f"no reply since {since.isoformat()} ({silent} days)"
    await proposals.status.propose(
        conn, task=TASK, unit_key=unit_key, now=now, posting_id=posting_id,
        application_id=application_id, input_hash=f"{application_id}:{status}",
        summary=one_line(f"{company or 'application ' + str(application_id)}: {status} → "
                         f"{GHOSTED} ({evidence})", 200),
        payload={"to_status": GHOSTED, "from_status": status, "company": company,
                 "evidence": evidence, "silent_since": since.isoformat()})
    return 1
