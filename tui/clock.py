"""The app's one clock, so tests (and snapshots) can hold time still.

Elapsed times in the in-flight pane and the times on event lines are the only
clock reads the UI makes; both go through an `AppClock`. Tests hand the app a
`FrozenClock` and move it by hand.
"""

from __future__ import annotations

import time
from datetime import UTC, date, datetime


class AppClock:
    """The real clock: monotonic seconds for durations, local time for event lines."""

    def monotonic(self) -> float:
        return time.monotonic()

    def time_of_day(self, moment: datetime) -> str:
        """`HH:MM:SS` of an event's time, in the local zone."""
        return moment.astimezone().strftime("%H:%M:%S")

    def today(self) -> date:
        """The day follow-ups are due as of (UTC, as stored times are)."""
        return datetime.now(UTC).date()


class FrozenClock(AppClock):
    """A clock that moves only when told to; event times are shown in UTC."""

    def __init__(self, start: float = 1000.0, today: date = date(2026, 11, 29)) -> None:
        self.now = start
        self.day = today

    def monotonic(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds

    def time_of_day(self, moment: datetime) -> str:
        return moment.astimezone(UTC).strftime("%H:%M:%S")

    def today(self) -> date:
        return self.day


def elapsed(seconds: float) -> str:
    """A short duration for a narrow column: `0:04`, `12:30`, `1:02:03`."""
    whole = max(int(seconds), 0)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
