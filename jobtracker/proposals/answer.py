"""The `answer` kind: a drafted answer to one of a form's own questions (the `answer`
task proposes them, docs/prepare.md).

payload: question (the field's label), name (the field's name), text (the draft;
the user may rewrite it before accepting), words, limit (the word bound), quotes
(the posting's sentences the draft draws on, each found in the posting), company,
title, posting_id, resume_hash, keywords_hash, description_hash.

Accepting writes no file here: an accepted draft is an answer of the packet's,
taken in by `jobtracker/prepare/` (source `proposal`) the next time the packet is
written, which the command line and the TUI do right after the decision. Undoing
it takes it out again the same way. Stale once the resume, keywords.yaml or the
posting's description changed.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict, Unpack

from jobtracker.proposals import written
from jobtracker.proposals.core import Kind, Presentation, Proposal, Where, create
from jobtracker.proposals.lines import Line, Span, blank, field, text_field
from jobtracker.text import clean_text, one_line

if TYPE_CHECKING:
    import aiosqlite


async def _apply(conn: aiosqlite.Connection, proposal: Proposal, now: str,
                 home: Path | None) -> dict[str, Any]:
    # What accept changes is the proposal's state, which the packet reads; the
    # record says which question it answers, for people reading the decision.
    return {"question": text_field(proposal.payload, "name")}


async def _undo(conn: aiosqlite.Connection, proposal: Proposal, now: str,
                home: Path | None) -> None:
    return None     # pending again: the packet no longer takes it


def _brief(proposal: Proposal) -> str:
    return one_line(f"“{text_field(proposal.payload, 'question')}”", 60)


def _quotes(proposal: Proposal) -> list[str]:
    quotes = proposal.payload.get("quotes")
    return [str(q) for q in quotes if isinstance(q, str)] if isinstance(quotes, list) else []


async def _detail(conn: aiosqlite.Connection, proposal: Proposal,
                  home: Path | None) -> list[Line]:
    """The question, the draft as it would go into the packet, and what of the
    posting it draws on."""
    payload = proposal.payload
    lines = [Line("heading", one_line(text_field(payload, "question"))),
             field("for", f"{text_field(payload, 'company')} — {text_field(payload, 'title')}"),
             field("length", f"{payload.get('words')} words (at most {payload.get('limit')})"),
             blank(), Line("text", clean_text(text_field(payload, "text")))]
    if payload.get("edited"):
        lines.append(Line("note", "rewritten by you"))
    quotes = _quotes(proposal)
    if quotes:
        lines += [blank(), Line("heading", "From the posting")]
        lines += [Line("text", (Span("▶ "), Span(one_line(q), "quote"), Span(" ◀")))
                  for q in quotes]
    return lines


def _show(proposal: Proposal) -> list[str]:
    """For `proposals show`: the draft as the packet would take it."""
    return ["draft", *(f"  {line}" for line in
                       clean_text(text_field(proposal.payload, "text")).splitlines())]


KIND = Kind("answer", _apply, _undo, written.inputs_changed,
            Presentation(word="answer", brief=_brief, detail=_detail, show=_show,
                         revisable="text"))


class Payload(TypedDict, total=False):
    """A drafted answer to one form question, the quotes it rests on, and its inputs."""

    question: str
    name: str
    text: str
    words: int
    limit: int | None
    quotes: list[Any]
    company: str
    title: str
    posting_id: int
    resume_hash: str
    keywords_hash: str
    description_hash: str


async def propose(conn: aiosqlite.Connection, payload: Payload, **where: Unpack[Where]) -> int:
    """A pending `answer` proposal, in the caller's transaction (`create`); its id."""
    return await create(conn, kind=KIND.name, payload=dict(payload), **where)
