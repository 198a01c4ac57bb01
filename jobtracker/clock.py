"""The wall clock, read in one place: every stored time is ISO 8601 UTC to the second.

Task modules never read it (the runner hands them `ctx.now`); the job loop keeps
its own event clock, since it imports nothing else from jobtracker.

"Now" as the user sees it is `local(moment, zone)`: the moment in config.yaml's
`timezone:`, else the system's zone. The TUI (tui/clock.py), the commands and the
digest all read the user's day and time through it, so an interview at 16:30 in
Los Angeles is "today 16:30" on a server kept in UTC, on every surface.
"""

from __future__ import annotations

import os
from datetime import UTC, date, datetime, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


def now() -> datetime:
    """The current time, in UTC."""
    return datetime.now(UTC)


def now_iso() -> str:
    """The current time as stored: `2026-11-30T20:41:59Z`."""
    return iso(now())


def iso(moment: datetime) -> str:
    """A time as stored: ISO 8601 UTC, to the second, with a `Z`."""
    return moment.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def system_zone() -> str:
    """The system's time zone as an IANA name: `TZ` when it names one, else the zone
    /etc/localtime links to, else UTC."""
    named = os.environ.get("TZ", "").lstrip(":")
    candidates = [named] if named else []
    try:
        target = str(Path("/etc/localtime").resolve())
    except OSError:
        target = ""
    if "zoneinfo/" in target:
        candidates.append(target.split("zoneinfo/", 1)[1])
    for name in candidates:
        try:
            ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            continue
        return "UTC" if name in _UTC_NAMES else name
    return "UTC"


_UTC_NAMES = frozenset({"Etc/UTC", "Etc/UCT", "Etc/Universal", "Etc/Zulu", "UCT",
                        "Universal", "Zulu", "Etc/GMT", "GMT"})


def zone_name(configured: str | None) -> str:
    """The user's zone: config.yaml's `timezone:` when set, else the system's."""
    return configured or system_zone()


def zone(configured: str | None) -> tzinfo:
    return ZoneInfo(zone_name(configured))


def local(moment: datetime | str, configured: str | None) -> datetime:
    """A moment (aware, or stored ISO UTC) in the user's zone."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment.replace("Z", "+00:00"))
    return moment.astimezone(zone(configured))


def local_now(configured: str | None) -> datetime:
    """Now, in the user's zone."""
    return local(now(), configured)


def local_today(configured: str | None, moment: datetime | str | None = None) -> date:
    """The user's day (now's, or `moment`'s)."""
    return local(now() if moment is None else moment, configured).date()


__all__ = ["iso", "local", "local_now", "local_today", "now", "now_iso", "system_zone",
           "zone", "zone_name"]
