"""Proposals: changes a task suggests and only the user applies.

`core` holds the store and accept/reject/undo; each kind is one module in this
folder declaring `KIND` (what accepting does, when it is stale, how it is shown),
listed in `REGISTRY`'s tuple below, which the core reads when asked. Adding a kind
is one module here plus one entry in that tuple; `KINDS` is its names, in order.
`lines` is what a kind's detail is made of (docs/proposals.md, "Adding a kind").
"""

from __future__ import annotations

from jobtracker.proposals import answer, interview, letter, profile, resume_edit, source, status
from jobtracker.proposals.core import (
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
from jobtracker.registry import Registry

# Kind name (the `kind` column) → its kind, in the order lists name them.
REGISTRY: Registry[Kind] = Registry((status.KIND, resume_edit.KIND, letter.KIND, profile.KIND,
                                     interview.KIND, answer.KIND, source.KIND))


def __getattr__(name: str) -> tuple[str, ...]:
    # KINDS, the kinds' names in order, is read from the registry each time, so a kind
    # a test adds is in it.
    if name == "KINDS":
        return tuple(REGISTRY)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "KINDS", "REGISTRY", "STATES", "Decision", "Kind", "Line", "Presentation", "Proposal",
    "ProposalError", "Span", "accept", "create", "detail", "get", "kinds", "list_proposals",
    "presentation", "reject", "revise", "undo_last", "waiting", "word",
]
