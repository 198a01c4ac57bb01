"""The `source` kind: a board to add to sources.yaml, found for a company of job alerts.

payload: board (ats, token, company, url), title (the alert title the board lists),
alerts (how many alert mails named that job), sender (whose alerts), company.

Accept appends the board to sources.yaml exactly as `jobtracker add` does
(jobtracker/sources/listfile.py: one line after the last board, every other byte
kept, read back before it replaces the file) and keeps the text it replaced; undo
writes that text back byte for byte, while the file is still exactly as the accept
left it. A proposal for a board sources.yaml lists by now (added by hand, say) is
stale: there is nothing left to add.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict, Unpack

from jobtracker import files
from jobtracker.config import Board, ConfigError, load_sources
from jobtracker.proposals.core import Kind, Presentation, Proposal, ProposalError, Where, create
from jobtracker.proposals.lines import Line, blank, diff, field
from jobtracker.sources import REGISTRY
from jobtracker.sources.listfile import add_board, appended, board_line, listed, read_text
from jobtracker.text import one_line

if TYPE_CHECKING:
    import aiosqlite

SOURCES = "sources.yaml"


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def board_of(proposal: Proposal) -> Board:
    raw = proposal.payload.get("board") or {}
    try:
        return Board(str(raw["ats"]), str(raw["token"]), str(raw.get("company") or raw["token"]),
                     str(raw["url"]) if raw.get("url") else None)
    except (KeyError, TypeError):
        raise ProposalError(proposal.id, f"proposal {proposal.id} names no board") from None


def summary(board: Board, title: str, alerts: int, sender: str) -> str:
    """"add greenhouse:acme — it lists 'Senior Backend Engineer', seen in 3 LinkedIn alerts"."""
    seen = f"seen in {alerts} {sender} alert{'s' if alerts != 1 else ''}"
    return one_line(f"add {board.name} — it lists '{title}', {seen}", 200)


def _path(proposal: Proposal, home: Path | None) -> Path:
    if home is None:
        raise ProposalError(proposal.id, f"proposal {proposal.id} edits sources.yaml, and no "
                                         "workspace folder was given")
    return home / SOURCES


def _listed_now(path: Path, board: Board) -> Board | None:
    """The board as sources.yaml lists it now; ConfigError when the file does not read
    (a FIFO, a device, broken YAML): the caller says so, never reads it another way."""
    return listed(load_sources(path, REGISTRY).boards, board)


async def _stale(conn: aiosqlite.Connection, proposal: Proposal,
                 home: Path | None) -> str | None:
    if home is None:
        return None
    board = board_of(proposal)
    try:
        if _listed_now(home / SOURCES, board) is not None:
            return f"sources.yaml lists {board.name} already"
    except ConfigError:
        return None          # a file the user broke: accepting says so, with its reason
    return None


async def _apply(conn: aiosqlite.Connection, proposal: Proposal, now: str,
                 home: Path | None) -> dict[str, Any]:
    path = _path(proposal, home)
    board = board_of(proposal)
    existed = path.exists()
    try:
        if _listed_now(path, board) is not None:
            raise ProposalError(proposal.id, f"proposal {proposal.id} is stale: sources.yaml "
                                             f"lists {board.name} already")
        before, after = add_board(path, board)
    except (ValueError, OSError, ConfigError) as error:
        raise ProposalError(proposal.id, f"proposal {proposal.id}: cannot add {board.name} to "
                                         f"sources.yaml: {one_line(str(error), 200)}") from None
    return {"before": before, "after_hash": text_hash(after), "existed": existed}


async def _undo(conn: aiosqlite.Connection, proposal: Proposal, now: str,
                home: Path | None) -> None:
    path = _path(proposal, home)
    decision = proposal.decision or {}
    try:
        if text_hash(read_text(path)) != decision.get("after_hash"):
            raise ProposalError(proposal.id, f"proposal {proposal.id}: sources.yaml changed "
                                             "since it was accepted; undo it by hand")
        if not decision.get("existed", True):
            files.remove_workspace(home or path.parent, path)   # there was none before
            return
        files.write_workspace(home or path.parent, path, str(decision.get("before", "")),
                              links=files.FOLLOW)
    except (ConfigError, files.FileRefused) as error:
        raise ProposalError(proposal.id, f"proposal {proposal.id}: cannot undo: "
                                         f"{one_line(str(error), 200)}") from None


async def _detail(conn: aiosqlite.Connection, proposal: Proposal,
                  home: Path | None) -> list[Line]:
    """The board, the evidence, and the change to sources.yaml as it stands now."""
    payload = proposal.payload
    board = board_of(proposal)
    lines = [Line("heading", one_line(proposal.summary)), blank(),
             field("board", f"{board.name} ({board.company})"),
             field("lists", str(payload.get("title") or "")),
             field("evidence", f"{payload.get('alerts', 0)} {payload.get('sender', '')} "
                               f"alert mail(s) named this job")]
    if home is not None:
        try:
            current = read_text(home / SOURCES)
            lines += [blank(), *diff(current, appended(current, board_line(board)))]
        except (ValueError, ConfigError) as error:
            lines += [blank(), Line("note", f"cannot be added to sources.yaml as it is: "
                                            f"{error}")]
    return lines


def _show(proposal: Proposal) -> list[str]:
    board = proposal.payload.get("board") or {}
    return [f"board: {board.get('ats')}:{board.get('token')} ({board.get('company')})"]


KIND = Kind("source", _apply, _undo, _stale,
            Presentation(word="source", detail=_detail, show=_show))

__all__ = ["KIND", "board_of", "summary"]


class Payload(TypedDict):
    """A board to add to sources.yaml, and the alert mail that led to it."""

    board: dict[str, Any]
    title: str
    alerts: int
    sender: str
    company: str
    titles_listed: Any


async def propose(conn: aiosqlite.Connection, payload: Payload, **where: Unpack[Where]) -> int:
    """A pending `source` proposal, in the caller's transaction (`create`); its id."""
    return await create(conn, kind=KIND.name, payload=dict(payload), **where)
