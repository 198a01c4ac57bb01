"""The `resume_edit` kind: one grounded edit to the resume (tailor proposes them).

payload: original, replacement (the user may revise it before accepting), reason,
line, company, title, posting_id, resume_hash, keywords_hash, description_hash.

Accept writes `tailored/<posting-id>-<slug>.md`: resume.md as it is now with every
accepted edit for that posting whose original still occurs in it once, in
document order. Undo rewrites that file without the edit, or removes it when no
accepted edit is left.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Unpack

from jobtracker import files
from jobtracker.proposals import written
from jobtracker.proposals.core import Kind, Presentation, Proposal, ProposalError, Where, create
from jobtracker.proposals.lines import Line, blank, diff, field, text_field
from jobtracker.resume import KEYWORDS, RESUME, read_input, text_hash
from jobtracker.resume.grounding import (
    Edit,
    Grounding,
    Ungrounded,
    apply_edits,
    ground_edit,
    locate,
)
from jobtracker.resume.keywords import KeywordsError, keyword_terms
from jobtracker.text import clean_text
from jobtracker.worddiff import word_diff_lines

if TYPE_CHECKING:
    import aiosqlite

TAILORED = "tailored"


def _edit_of(resume: str, proposal: Proposal) -> Edit:
    payload = proposal.payload
    try:
        start, end = locate(resume, str(payload.get("original") or ""))
    except Ungrounded as exc:
        raise ProposalError(proposal.id, f"proposal {proposal.id}: {exc}") from None
    return Edit(resume[start:end], str(payload.get("replacement") or ""), start, end)


def _applicable(resume: str, others: Sequence[Proposal]) -> list[tuple[Proposal, Edit]]:
    """The accepted edits that still apply to the resume as it is now."""
    out = []
    for other in others:
        try:
            edit = _edit_of(resume, other)
        except ProposalError:
            continue   # its original left the resume: the file moves on without it
        if not any(edit.overlaps(kept) for _, kept in out):
            out.append((other, edit))
    return out


def _resume_now(proposal: Proposal, home: Path) -> str:
    resume = read_input(home, RESUME)
    if resume is None:
        raise ProposalError(proposal.id, f"proposal {proposal.id}: resume.md is missing")
    return resume


async def _apply(conn: aiosqlite.Connection, proposal: Proposal, now: str,
                 home: Path | None) -> dict[str, Any]:
    home = written.home_of(proposal, home)
    resume = _resume_now(proposal, home)
    edit = _edit_of(resume, proposal)
    others = await written.accepted(conn, "resume_edit", proposal.posting_id, proposal.id)
    kept = _applicable(resume, others)
    for other, other_edit in kept:
        if other_edit.overlaps(edit):
            raise ProposalError(proposal.id, f"proposal {proposal.id} changes text that "
                                             f"accepted proposal {other.id} already changes; "
                                             f"undo {other.id} first to accept this one")
    path = written.recorded_path(home, others, written.file_for(home, TAILORED, proposal))
    text = apply_edits(resume, [e for _, e in kept] + [edit])
    await written.write(conn, proposal, home, path, text, now)
    return {"path": files.relative(path, home),
            "edits": sorted([p.id for p, _ in kept] + [proposal.id])}


async def _undo(conn: aiosqlite.Connection, proposal: Proposal, now: str,
                home: Path | None) -> None:
    home = written.home_of(proposal, home)
    others = await written.accepted(conn, "resume_edit", proposal.posting_id, proposal.id)
    path = written.decided_path(home, TAILORED, proposal)
    resume = read_input(home, RESUME)
    kept = _applicable(resume, others) if resume is not None else []
    if kept and resume is not None:
        await written.write(conn, proposal, home, path,
                            apply_edits(resume, [e for _, e in kept]), now)
    else:
        await written.remove(conn, proposal, home, path)


async def resume_for(conn: aiosqlite.Connection, home: Path, posting_id: int) -> str | None:
    """resume.md as it is now with the posting's accepted edits that still apply, as
    accepting writes it (the master alone without any); None without resume.md."""
    resume = read_input(home, RESUME)
    if resume is None:
        return None
    kept = _applicable(resume, await written.accepted(conn, "resume_edit", posting_id, 0))
    return apply_edits(resume, [edit for _, edit in kept])


# --- how it is shown ---------------------------------------------------------------------

def _brief(proposal: Proposal) -> str:
    return text_field(proposal.payload, "reason") or proposal.summary


async def _detail(conn: aiosqlite.Connection, proposal: Proposal,
                  home: Path | None) -> list[Line]:
    """The reason, then the edit as a unified diff with the changed words marked."""
    payload = proposal.payload
    lines = [field("Reason", _brief(proposal))]
    if payload.get("edited"):
        lines.append(Line("note", "(replacement edited by you)"))
    if (home is not None and proposal.state == "pending"
            and payload.get("resume_hash") not in (None, text_hash(read_input(home, RESUME)))):
        lines.append(Line("note", "resume.md changed since this edit was made. Its own line "
                                  "is unchanged, so it can still be accepted as it stands; "
                                  "tailor's answer for the new resume replaces it when it "
                                  "arrives."))
    return [*lines, blank(), *diff(text_field(payload, "original"),
                                   text_field(payload, "replacement"))]


def _show(proposal: Proposal) -> list[str]:
    """For `proposals show`: the edit with its changed words marked `[-…-]` / `{+…+}`,
    as `git diff --word-diff=plain` marks them (a terminal without styles)."""
    original, replacement = proposal.payload.get("original"), proposal.payload.get(
        "replacement")
    if not (isinstance(original, str) and isinstance(replacement, str)):
        return []
    return ["diff", *(f"  {line}" for line in word_diff_lines(clean_text(original),
                                                              clean_text(replacement)))]


# --- when it is stale ----------------------------------------------------------------------

async def _stale(conn: aiosqlite.Connection, proposal: Proposal,
                 home: Path | None) -> str | None:
    """Stale when keywords.yaml or the description changed, when a newer tailor answer
    for the posting replaced it, or when resume.md changed under the edit itself. A
    resume.md edited elsewhere leaves it acceptable: tailor asks again for the new
    resume (the question changed), and until that answer arrives an edit whose own
    line is as it was, and whose replacement the new resume still grounds, applies
    as it stands."""
    reason = await _superseded(conn, proposal) or await written.inputs_changed(
        conn, proposal, home, skip=(RESUME,))
    if reason is not None or home is None or "resume_hash" not in proposal.payload:
        return reason
    resume = read_input(home, RESUME)
    if resume is None:
        return "resume.md is missing"
    if text_hash(resume) == proposal.payload["resume_hash"]:
        return None
    return await _still_grounded(conn, proposal, home, resume)


async def _superseded(conn: aiosqlite.Connection, proposal: Proposal) -> str | None:
    """A tailor answer for the posting newer than the one this edit came from."""
    if proposal.posting_id is None:
        return None
    row = await (await conn.execute(
        "SELECT unit_key FROM resume_suggestions WHERE posting_id = ?",
        (proposal.posting_id,))).fetchone()
    if row is None or row[0] == proposal.unit_key:
        return None
    return "a newer tailor answer for this posting (asked for the resume.md of now) replaced it"


async def _still_grounded(conn: aiosqlite.Connection, proposal: Proposal, home: Path,
                          resume: str) -> str | None:
    """Why the edit no longer fits resume.md as it is now, or None when it still does:
    its original is still a line, bullet or sentence there (once), and its replacement
    names nothing the new resume and keywords.yaml do not."""
    row = await (await conn.execute("SELECT description FROM postings WHERE id = ?",
                                    (proposal.posting_id,))).fetchone()
    try:
        terms = keyword_terms(read_input(home, KEYWORDS))
    except KeywordsError:
        terms = []
    grounding = Grounding.build([resume, *terms], (row[0] if row else None) or "")
    try:
        ground_edit(resume, grounding, text_field(proposal.payload, "original"),
                    text_field(proposal.payload, "replacement"))
    except Ungrounded as exc:
        return f"resume.md changed since it was made: {exc}"
    return None


KIND = Kind("resume_edit", _apply, _undo, _stale,
            Presentation(word="edit", brief=_brief, detail=_detail, show=_show,
                         revisable="replacement", awaited=("resume edit", "resume edits")))


# One replacement of resume lines: the edit's own keys (its line, old and new text,
# reason, the keywords it adds) and the posting and inputs it was made for.
Payload = Mapping[str, Any]


async def propose(conn: aiosqlite.Connection, payload: Payload, **where: Unpack[Where]) -> int:
    """A pending `resume_edit` proposal, in the caller's transaction (`create`); its id."""
    return await create(conn, kind=KIND.name, payload=dict(payload), **where)
