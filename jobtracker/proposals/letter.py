"""The `letter` kind: a cover letter (coverletter proposes them).

payload: text (the whole letter), paragraphs, company, title, posting_id,
template_hash, resume_hash, keywords_hash, description_hash, dropped.

Accept writes `letters/<posting-id>-<slug>.md`; undo puts back the letter
accepted before it for the posting, else removes the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict, Unpack

from jobtracker import files
from jobtracker.proposals import written
from jobtracker.proposals.core import Kind, Presentation, Proposal, Where, create
from jobtracker.proposals.lines import Line, blank, text_field
from jobtracker.text import clean_text, one_line

if TYPE_CHECKING:
    import aiosqlite

LETTERS = "letters"


async def _apply(conn: aiosqlite.Connection, proposal: Proposal, now: str,
                 home: Path | None) -> dict[str, Any]:
    home = written.home_of(proposal, home)
    others = await written.accepted(conn, "letter", proposal.posting_id, proposal.id)
    path = written.recorded_path(home, others, written.file_for(home, LETTERS, proposal))
    await written.write(conn, proposal, home, path, str(proposal.payload.get("text") or ""),
                        now)
    return {"path": files.relative(path, home)}


async def _undo(conn: aiosqlite.Connection, proposal: Proposal, now: str,
                home: Path | None) -> None:
    home = written.home_of(proposal, home)
    path = written.decided_path(home, LETTERS, proposal)
    others = await written.accepted(conn, "letter", proposal.posting_id, proposal.id)
    if others:
        await written.write(conn, proposal, home, path,
                            str(others[-1].payload.get("text") or ""), now)
    else:
        await written.remove(conn, proposal, home, path)


async def _detail(conn: aiosqlite.Connection, proposal: Proposal,
                  home: Path | None) -> list[Line]:
    """The summary, then the whole letter as it would be written."""
    return [Line("heading", one_line(proposal.summary)), blank(),
            Line("text", clean_text(text_field(proposal.payload, "text")))]


KIND = Kind("letter", _apply, _undo, written.inputs_changed,
            Presentation(detail=_detail, awaited=("letter", "letters")))


class Payload(TypedDict):
    """A cover letter and what it was written from."""

    text: str
    paragraphs: list[Any]
    dropped: list[Any]
    company: str
    title: str
    posting_id: int
    template_hash: str
    resume_hash: str
    keywords_hash: str
    description_hash: str


async def propose(conn: aiosqlite.Connection, payload: Payload, **where: Unpack[Where]) -> int:
    """A pending `letter` proposal, in the caller's transaction (`create`); its id."""
    return await create(conn, kind=KIND.name, payload=dict(payload), **where)
