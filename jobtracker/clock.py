"""The wall clock, read in one place: every stored time is ISO 8601 UTC to the second.

Task modules never read it (the runner hands them `ctx.now`); the job loop keeps
its own event clock, since it imports nothing else from jobtracker.
"""

from __future__ import annotations

from datetime import UTC, datetime


def now() -> datetime:
    """The current time, in UTC."""
    return datetime.now(UTC)


def now_iso() -> str:
    """The current time as stored: `2026-11-30T20:41:59Z`."""
    return iso(now())


def iso(moment: datetime) -> str:
    """A time as stored: ISO 8601 UTC, to the second, with a `Z`."""
    return moment.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


__all__ = ["iso", "now", "now_iso"]
