"""The `profile` kind: one change to profile.yaml that `jobtracker learn` suggests.

payload: edit (op, path, value: see jobtracker.yamlfile.edit), profile_hash (of
the file's text when the suggestion was made), rule, evidence (the sentence for
people), decisions (the decision rows behind it: dismissals and applications).

Accept makes the edit in the file's own text (comments and layout kept) and keeps
the text it replaced; undo puts that text back byte for byte, while the file is
still exactly as the accept left it. A proposal made for a profile.yaml the user
has edited since is stale: its evidence was read against another profile.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict, Unpack

from jobtracker import files
from jobtracker.proposals.core import Kind, Presentation, Proposal, ProposalError, Where, create
from jobtracker.proposals.lines import Line, blank, diff, field
from jobtracker.text import one_line
from jobtracker.yamlfile.edit import Edit, EditError, apply

if TYPE_CHECKING:
    import aiosqlite

PROFILE = "profile.yaml"


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _path(proposal: Proposal, home: Path | None) -> Path:
    if home is None:
        raise ProposalError(proposal.id, f"proposal {proposal.id} edits profile.yaml, and no "
                                         "workspace folder was given")
    return home / PROFILE


def _read(proposal: Proposal, path: Path) -> str:
    """profile.yaml's text as stored ('' when there is none), through the workspace's
    one reader: a link is followed (a dotfiles folder), a FIFO or a device refused."""
    try:
        return files.read_regular(path, follow_links=True) or ""
    except files.FileRefused as error:
        raise ProposalError(proposal.id, f"cannot read {path}: {error.reason}") from None


def _write(home: Path, path: Path, text: str) -> None:
    """The edited text written back; a linked profile.yaml stays a link (its target
    is written), as docs/configuration.md says."""
    files.write_workspace(home, path, text, links=files.FOLLOW)


async def _stale(conn: aiosqlite.Connection, proposal: Proposal,
                 home: Path | None) -> str | None:
    if home is None:
        return None
    try:
        current = _read(proposal, home / PROFILE)
    except ProposalError as error:       # a FIFO, a device, a folder: said, not read
        return one_line(str(error), 300)
    if text_hash(current) != proposal.payload.get("profile_hash"):
        return "profile.yaml changed since it was made"
    return None


async def _apply(conn: aiosqlite.Connection, proposal: Proposal, now: str,
                 home: Path | None) -> dict[str, Any]:
    path = _path(proposal, home)
    before = _read(proposal, path)
    if text_hash(before) != proposal.payload.get("profile_hash"):
        raise ProposalError(proposal.id, f"proposal {proposal.id} is stale: profile.yaml "
                                         "changed since it was made")
    try:
        after = apply(before, Edit.from_json(proposal.payload["edit"]))
    except EditError as error:
        raise ProposalError(proposal.id, f"proposal {proposal.id}: cannot edit "
                                         f"profile.yaml as written: {error}") from None
    try:
        _write(path.parent, path, after)
    except files.FileRefused as error:
        raise ProposalError(proposal.id, f"proposal {proposal.id}: {error}") from None
    return {"before": before, "after_hash": text_hash(after), "existed": bool(before)}


async def _undo(conn: aiosqlite.Connection, proposal: Proposal, now: str,
                home: Path | None) -> None:
    path = _path(proposal, home)
    decision = proposal.decision or {}
    if text_hash(_read(proposal, path)) != decision.get("after_hash"):
        raise ProposalError(proposal.id, f"proposal {proposal.id}: profile.yaml changed "
                                         "since it was accepted; undo it by hand")
    if not decision.get("existed", True) and not decision.get("before"):
        try:
            files.remove_workspace(path.parent, path)  # there was no profile.yaml before the accept
        except files.FileRefused as error:
            raise ProposalError(proposal.id, f"proposal {proposal.id}: {error}") from None
        return
    try:
        _write(path.parent, path, str(decision.get("before", "")))
    except files.FileRefused as error:
        raise ProposalError(proposal.id, f"proposal {proposal.id}: {error}") from None


SHOWN_DECISIONS = 10   # the detail names this many of the decisions behind a suggestion


async def _detail(conn: aiosqlite.Connection, proposal: Proposal,
                  home: Path | None) -> list[Line]:
    """The change, its evidence, the file's diff as it stands now, the decisions behind."""
    payload = proposal.payload
    lines = [Line("heading", one_line(proposal.summary)), blank(),
             field("rule", str(payload.get("rule") or "")),
             field("evidence", str(payload.get("evidence") or ""))]
    if home is not None:
        try:
            current = _read(proposal, home / PROFILE)
            after = apply(current, Edit.from_json(payload["edit"]))
        except (EditError, KeyError, TypeError, ProposalError) as error:
            lines += [blank(), Line("note", f"cannot be made in profile.yaml as it is: {error}")]
        else:
            lines += [blank(), *diff(current, after)]
    decisions = list(payload.get("decisions") or [])
    lines += [blank(), Line("heading", f"the {len(decisions)} decision(s) behind it")]
    labels = await _labels(conn, [d.get("posting_id") for d in decisions[:SHOWN_DECISIONS]])
    for item in decisions[:SHOWN_DECISIONS]:
        posting = item.get("posting_id")
        lines.append(Line("text", f"{item.get('type')} {item.get('id')}: posting {posting} "
                                  f"{labels.get(posting, '')}".rstrip()))
    if len(decisions) > SHOWN_DECISIONS:
        lines.append(Line("dim", f"… and {len(decisions) - SHOWN_DECISIONS} more"))
    return lines


async def _labels(conn: aiosqlite.Connection, ids: list[object]) -> dict[object, str]:
    wanted = [i for i in ids if isinstance(i, int)]
    if not wanted:
        return {}
    marks = ", ".join("?" for _ in wanted)
    rows = await conn.execute_fetchall(
        f"SELECT id, company, title FROM postings WHERE id IN ({marks})", wanted)
    return {r[0]: one_line(f"{r[1] or ''} - {r[2] or ''}", 60) for r in rows}


KIND = Kind("profile", _apply, _undo, _stale,
            Presentation(word="profile", detail=_detail))


class Payload(TypedDict):
    """One edit of profile.yaml, the rule that suggested it and the decisions behind it."""

    edit: dict[str, Any]
    profile_hash: str
    rule: str
    evidence: Any
    decisions: Any


async def propose(conn: aiosqlite.Connection, payload: Payload, **where: Unpack[Where]) -> int:
    """A pending `profile` proposal, in the caller's transaction (`create`); its id."""
    return await create(conn, kind=KIND.name, payload=dict(payload), **where)
