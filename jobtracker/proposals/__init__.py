"""Proposals: changes a task suggests and only the user applies.

`core` holds the store, accept/reject/undo and the registry of kinds; each kind
is one module in this folder that registers itself on import. Adding a kind is
one module here plus one import line below; `KINDS` is read from the registry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jobtracker import applications
from jobtracker.applications import status_change_applies
from jobtracker.proposals.core import (
    REGISTRY,
    STATES,
    Decision,
    Kind,
    Proposal,
    ProposalError,
    accept,
    create,
    get,
    kinds,
    list_proposals,
    register,
    reject,
    undo_last,
)

if TYPE_CHECKING:
    import aiosqlite

# One import line per kind; each module calls register() on import, in this order.
# isort: off
from jobtracker.proposals import status  # noqa: F401
from jobtracker.proposals import resume_edit  # noqa: F401
from jobtracker.proposals import letter  # noqa: F401
# isort: on


def __getattr__(name: str) -> tuple[str, ...]:
    # KINDS is read from the registry each time, so a kind registered later is in it.
    if name == "KINDS":
        return kinds()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "KINDS", "REGISTRY", "STATES", "Decision", "Kind", "Proposal", "ProposalError", "accept",
    "create", "find_application", "get", "kinds", "list_proposals", "register", "reject",
    "status_change_applies", "undo_last",
]


async def find_application(conn: aiosqlite.Connection, application_id: int | None,
                           posting_id: int | None,
                           company: str | None) -> tuple[int, str] | None:
    """`applications.find` as (id, status), the form jobtracker.tasks.inbox reads;
    new code calls jobtracker.applications directly."""
    found = await applications.find(conn, application_id=application_id,
                                    posting_id=posting_id, company=company)
    return (found.id, found.status) if found else None
