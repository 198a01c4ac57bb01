"""What the kinds that write a file (resume_edit, letter) share.

Both write `<folder>/<posting-id>-<slug>.md` through the written-files ledger
(`jobtracker.files`), keep one file per posting even when its title changes, and
are stale once an input file or the posting's description changed since the
proposal was made.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from jobtracker import files
from jobtracker.proposals import core
from jobtracker.proposals.core import Proposal, ProposalError
from jobtracker.resume import KEYWORDS, RESUME, TEMPLATE, read_input, text_hash

if TYPE_CHECKING:
    import aiosqlite

# Which payload hash fields name which workspace file.
_INPUT_FILES = (("resume_hash", RESUME), ("keywords_hash", KEYWORDS),
                ("template_hash", TEMPLATE))


async def inputs_changed(conn: aiosqlite.Connection, proposal: Proposal,
                         home: Path | None, skip: tuple[str, ...] = ()) -> str | None:
    """Why the proposal is stale: an input file (other than those in `skip`, which the
    kind judges itself) or the description changed since."""
    payload = proposal.payload
    for field, name in _INPUT_FILES:
        if field not in payload or home is None or name in skip:
            continue
        text = read_input(home, name)
        if name == RESUME and text is None:
            return "resume.md is missing"
        if text_hash(text) != payload[field]:
            return f"{name} changed since it was made"
    if proposal.posting_id is not None and "description_hash" in payload:
        row = await (await conn.execute("SELECT description_hash FROM postings WHERE id = ?",
                                        (proposal.posting_id,))).fetchone()
        if row is None:
            return "the posting is gone"
        if row[0] != payload["description_hash"]:
            return "the posting's description changed since it was made"
    return None


def home_of(proposal: Proposal, home: Path | None) -> Path:
    if home is None:
        raise ProposalError(proposal.id, f"proposal {proposal.id} writes a file, and no "
                                         "workspace folder was given")
    return home


def file_for(home: Path, folder: str, proposal: Proposal) -> Path:
    payload = proposal.payload
    posting = proposal.posting_id if proposal.posting_id is not None else payload.get(
        "posting_id")
    name = files.slug(payload.get("company"), payload.get("title"))
    return home / folder / f"{posting}-{name}.md"


async def accepted(conn: aiosqlite.Connection, kind: str, posting_id: int | None,
                   exclude: int) -> list[Proposal]:
    """The other accepted proposals of `kind` for the posting, earliest decision first."""
    if posting_id is None:
        return []
    rows = await conn.execute_fetchall(
        "SELECT id FROM proposals WHERE kind = ? AND posting_id = ? AND state = 'accepted' "
        "AND id != ? ORDER BY decision_seq", (kind, posting_id, exclude))
    found = [await core.get(conn, row[0]) for row in rows]
    return [p for p in found if p is not None]


def recorded_path(home: Path, others: Sequence[Proposal], default: Path) -> Path:
    """The file name the posting's first accepted proposal wrote under, so a posting
    whose title changed keeps one file."""
    for other in others:
        name = (other.decision or {}).get("path")
        if name:
            return home / name
    return default


def decided_path(home: Path, folder: str, proposal: Proposal) -> Path:
    """The file an accepted proposal wrote (recorded in its decision)."""
    recorded = (proposal.decision or {}).get("path")
    return home / recorded if recorded else file_for(home, folder, proposal)


async def write(conn: aiosqlite.Connection, proposal: Proposal, home: Path, path: Path,
                text: str, now: str) -> None:
    try:
        await files.write_recorded(conn, home, path, text, now, proposal.posting_id)
    except files.FileRefused as exc:
        raise ProposalError(proposal.id, str(exc)) from None


async def remove(conn: aiosqlite.Connection, proposal: Proposal, home: Path,
                 path: Path) -> None:
    try:
        await files.remove_recorded(conn, home, path)
    except files.FileRefused as exc:
        raise ProposalError(proposal.id, str(exc)) from None
