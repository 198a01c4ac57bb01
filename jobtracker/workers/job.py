"""What a job is, what runs one, and what can happen to one.

A job is plain JSON-safe data (a frozen dataclass of strings, numbers, lists and
dicts) that names its `kind`. The code that runs it is a `Handler`, looked up by
that kind on the worker side, so a job never carries a live object (a client, a
connection, a key) and can be written to a queue or a file and run from the copy.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol, TypeVar


class Status(StrEnum):
    """What happened to a job. Every job the loop starts ends with exactly one."""

    FINISHED = "finished"  # run() returned; its follow-ups were handed on
    FAILED = "failed"      # done(), run() or follow_ups() raised; nothing is handed on
    SKIPPED = "skipped"    # done() said its result already exists; follow-ups still handed on


class Job(Protocol):
    """Plain data the loop can schedule. A frozen dataclass with these fields fits.

    Read-only properties, so a class that derives them (say `kind` from a task
    name) fits as well as one that stores them.
    """

    @property
    def kind(self) -> str:
        """Which handler runs it; also what caps and priorities are keyed by."""
        ...

    @property
    def label(self) -> str:
        """A short name for people: event lines, the TUI's in-flight list."""
        ...

    @property
    def key(self) -> str:
        """Identifies the job within its kind; the loop runs a key at most once."""
        ...


JobT = TypeVar("JobT", bound=Job, contravariant=True)


class Handler(Protocol[JobT]):
    """The behaviour of one kind of job. It owns the live objects jobs must not hold."""

    async def done(self, job: JobT) -> bool:
        """True when the job's result already exists, so it is skipped, not redone."""
        ...

    async def run(self, job: JobT) -> str | None:
        """Do the job. Returns a short result label from a small fixed set, or None."""
        ...

    async def follow_ups(self, job: JobT, result: str | None) -> list[Job]:
        """Jobs this one makes possible, after it finished (or was skipped: result None)."""
        ...


@dataclass(frozen=True)
class Outcome:
    """The one record of what happened to a job the loop started."""

    job: Job
    status: Status
    elapsed: float                 # seconds from admission to the end
    error: str | None = None       # one line, for FAILED
    phase: str | None = None       # for FAILED: the step that raised ("done", "run", "follow_ups")
    result: str | None = None      # run()'s label, for FINISHED
