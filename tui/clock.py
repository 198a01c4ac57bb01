"""The app's one clock, so tests (and snapshots) can hold time still.

Elapsed times in the in-flight pane and the times on event lines are the only
clock reads the UI makes; both go through an `AppClock`. Tests hand the app a
`FrozenClock` and move it by hand.
"""

from __future__ import annotations

import time
from datetime import UTC, date, datetime

from jobtracker import clock


class AppClock:
    """The real clock: monotonic seconds for durations, local time for event lines."""

    def monotonic(self) -> float:
        return time.monotonic()

    zone: str | None = None    # config.yaml's `timezone:`, set by the app

    def time_of_day(self, moment: datetime) -> str:
        """`HH:MM:SS` of an event's time, in the user's zone (else the system's)."""
        shown = clock.local(moment, self.zone) if self.zone else moment.astimezone()
        return shown.strftime("%H:%M:%S")

    def now(self) -> datetime:
        """The current moment (aware, UTC)."""
        return clock.now()

    def local_now(self, zone: str | None) -> datetime:
        """Now in the user's zone (config.yaml's `timezone:`, else the system's): the
        one clock the screens show times and days by (jobtracker/clock.py's rule)."""
        return clock.local(self.now(), zone)

    def today(self, zone: str | None = None) -> date:
        """The user's day: what follow-ups are due as of, and what "today" is."""
        return self.local_now(zone).date()


class FrozenClock(AppClock):
    """A clock that moves only when told to; event times are shown in UTC."""

    def __init__(self, start: float = 1000.0, today: date = date(2026, 11, 29),
                 moment: datetime | None = None) -> None:
        self.seconds = start
        self.day = today
        self.moment = moment      # the wall clock held still, when given

    def monotonic(self) -> float:
        return self.seconds

    def advance(self, seconds: float) -> None:
        self.seconds += seconds

    def now(self) -> datetime:
        return self.moment if self.moment is not None else clock.now()

    def time_of_day(self, moment: datetime) -> str:
        return moment.astimezone(UTC).strftime("%H:%M:%S")

    def today(self, zone: str | None = None) -> date:
        return self.local_now(zone).date() if self.moment is not None else self.day


def elapsed(seconds: float) -> str:
    """A short duration for a narrow column: `0:04`, `12:30`, `1:02:03`."""
    whole = max(int(seconds), 0)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
