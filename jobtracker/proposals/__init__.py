"""Proposals: changes a task suggests and only the user applies.

`core` holds the store, accept/reject/undo and the registry; each kind is one
module in this folder declaring `KIND` (what accepting does, when it is stale,
how it is shown), listed in `_KINDS` below. Adding a kind is one module here plus
one entry in that tuple; `KINDS` is read from the registry. `lines` is what a
kind's detail is made of (docs/proposals.md, "Adding a kind").
"""

from __future__ import annotations

from jobtracker.proposals import answer, interview, letter, profile, resume_edit, source, status
from jobtracker.proposals.core import (
    REGISTRY,
    STATES,
    Decision,
    Kind,
    Presentation,
    Proposal,
    ProposalError,
    accept,
    create,
    detail,
    get,
    kinds,
    list_proposals,
    presentation,
    reject,
    revise,
    undo_last,
    waiting,
    word,
)
from jobtracker.proposals.lines import Line, Span

# The kinds, in the order lists and `KINDS` name them.
_KINDS: tuple[Kind, ...] = (status.KIND, resume_edit.KIND, letter.KIND, profile.KIND,
                            interview.KIND, answer.KIND, source.KIND)
REGISTRY.update((kind.name, kind) for kind in _KINDS)


def __getattr__(name: str) -> tuple[str, ...]:
    # KINDS is read from the registry each time, so a kind a test adds is in it.
    if name == "KINDS":
        return kinds()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "KINDS", "REGISTRY", "STATES", "Decision", "Kind", "Line", "Presentation", "Proposal",
    "ProposalError", "Span", "accept", "create", "detail", "get", "kinds", "list_proposals",
    "presentation", "reject", "revise", "undo_last", "waiting", "word",
]
