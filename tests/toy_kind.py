"""A toy proposal kind, written the way docs/proposals.md says to add one.

`note` proposes remembering a sentence. Its module is written to a folder outside
the package and imported from there; adding it to the registry is the one line
`_KINDS` would hold. Nothing else in jobtracker or the TUI is told about it: the
store accepts and undoes it, the review shows it by its own word, brief and
detail, and says what its accept says.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

import pytest

from jobtracker import proposals

TOY_KIND_MODULE = '''
"""note: a sentence to remember. Its notes live in memory: a toy needs no table."""
from jobtracker.proposals import Kind, Line, Presentation, Span

NOTES = []


async def apply(conn, proposal, now, home):
    NOTES.append(proposal.payload["text"])
    return {"index": len(NOTES) - 1}


async def undo(conn, proposal, now, home):
    NOTES.pop(proposal.decision["index"])


def brief(proposal):
    return "keep: " + proposal.payload["text"]


async def detail(conn, proposal, home):
    return [Line("heading", "A sentence to keep"),
            Line("field", proposal.payload["text"], "Note"),
            Line("field", (Span("heard in "), Span(proposal.payload["where"], "strong")),
                 "Where"),
            Line("text", ""),
            Line("removed", "forgotten"),
            Line("added", (Span("kept "), Span("for good", "changed")))]


def accepted(proposal, record):
    return f"noted {proposal.id} as note #{record['index'] + 1}"


KIND = Kind("note", apply, undo,
            view=Presentation(word="note", brief=brief, detail=detail, accepted=accepted))
'''


@contextmanager
def toy_kind(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """The toy kind module imported from `folder` and in the registry while it lasts."""
    (folder / "toy_note_kind.py").write_text(TOY_KIND_MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(folder))
    assert "note" not in proposals.KINDS
    try:
        module = importlib.import_module("toy_note_kind")
        # The registry line: what the tuple in jobtracker/proposals/__init__.py holds.
        with proposals.REGISTRY.extended(module.KIND):
            yield module
    finally:
        sys.modules.pop("toy_note_kind", None)
