"""Interviews as calendar files (RFC 5545, written with icalendar):
`interviews/<application-id>-<slug>-<YYYYMMDD>.ics` for each one, and `interviews.ics`,
the feed of every accepted interview, one VEVENT each.

What a calendar that subscribes to the feed needs: a UID that never changes for an
interview (a move or a cancellation keeps it and raises SEQUENCE, so the event is
updated, never doubled), DTSTAMP from the interview's own last change (writing the
feed again changes nothing a client compares), times in a real zone (a VTIMEZONE for
each IANA name) or in UTC (a fixed offset such as "UTC+01:00" has no zone a client
knows), and STATUS:CANCELLED kept in the feed so the cancellation reaches it. Text
from the mail (the quote, the place) is property data, which icalendar escapes.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from icalendar import Calendar, Event
from icalendar.prop import vDuration

from jobtracker.files import FileRefused, relative, remove_workspace, slug, write_workspace
from jobtracker.interviews import store
from jobtracker.interviews.store import Interview
from jobtracker.text import one_line

if TYPE_CHECKING:
    import aiosqlite

PRODID = "-//jobtracker//interviews//EN"
FEED = "interviews.ics"
FOLDER = "interviews"
NAME = "jobtracker interviews"
REFRESH = timedelta(hours=1)


def _moment(stamp: str, zone: str | None) -> datetime:
    moment = datetime.fromisoformat(stamp)
    return moment.astimezone(ZoneInfo(zone)) if zone else moment.astimezone(UTC)


def _utc(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone(UTC)


def event(item: Interview) -> Event:
    ev = Event()
    ev.add("uid", item.uid)
    ev.add("dtstamp", _utc(item.updated_at))
    ev.add("created", _utc(item.created_at))
    ev.add("last-modified", _utc(item.updated_at))
    ev.add("sequence", item.sequence)
    ev.add("dtstart", _moment(item.start, item.timezone))
    ev.add("dtend", _moment(item.end, item.timezone))
    who = " — ".join(part for part in (one_line(item.company, 80), one_line(item.title, 120))
                     if part)
    ev.add("summary", f"Interview: {who}" if who else "Interview")
    if item.where:
        ev.add("location", one_line(item.where, 300))
        if item.where.startswith(("https://", "http://")) and " " not in item.where:
            ev.add("url", item.where)
    if item.quote:
        ev.add("description", f"From the email: {one_line(item.quote, 300)}")
    ev.add("status", "CANCELLED" if item.status == "cancelled" else "CONFIRMED")
    ev.add("transp", "OPAQUE")
    return ev


def calendar(items: list[Interview]) -> bytes:
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", NAME)
    # How often a subscribed calendar should read the feed again: RFC 7986's
    # REFRESH-INTERVAL and Outlook's X-PUBLISHED-TTL, both an iCalendar duration (PT1H).
    cal.add("refresh-interval", vDuration(REFRESH), parameters={"VALUE": "DURATION"})
    cal.add("x-published-ttl", vDuration(REFRESH))
    for item in items:
        cal.add_component(event(item))
    if items:
        years = [_utc(i.start).year for i in items]
        # VTIMEZONEs cover the interviews' years (the default stops in 2038).
        cal.add_missing_timezones(first_date=date(min(years) - 1, 1, 1),
                                  last_date=date(max(years) + 2, 1, 1))
    return cal.to_ical()


def file_name(item: Interview) -> str:
    day = _moment(item.start, item.timezone).strftime("%Y%m%d")
    return f"{item.application_id}-{slug(item.company, item.title)}-{day}.ics"


def write_feed_sync(home: Path, items: list[Interview]) -> None:
    """interviews.ics through the workspace's one writer: never through a link."""
    _guarded(lambda: write_workspace(home, home / FEED, calendar(items).decode("utf-8")))


def _guarded(step: Callable[[], object]) -> None:
    """A refused write or removal (a linked `interviews/`, a FIFO in a file's place) as
    the OSError the accept reports in one line, naming the file."""
    try:
        step()
    except FileRefused as exc:
        raise OSError(str(exc)) from None


async def write_files(conn: aiosqlite.Connection, home: Path, interview_id: int | None
                      ) -> str | None:
    """Write interview `interview_id`'s own file (moving it when its day changed) and
    the feed again; returns the file's path relative to the workspace. Inside the
    caller's transaction: the rows it reads are the ones about to be committed."""
    path_name = None
    if interview_id is not None:
        item = await store.get(conn, interview_id)
        if item is None:
            raise LookupError(f"no interview {interview_id}")
        target = home / FOLDER / file_name(item)
        if item.file and item.file != relative(target, home):
            _guarded(lambda: remove_workspace(home, home / item.file))
        _guarded(lambda: write_workspace(home, target, calendar([item]).decode("utf-8")))
        path_name = relative(target, home)
        await store.set_file(conn, interview_id, path_name)
    write_feed_sync(home, await store.every(conn))
    return path_name


async def remove_file(conn: aiosqlite.Connection, home: Path, file: str | None) -> None:
    """Remove an interview's own file (its row is gone) and write the feed again."""
    if file:
        _guarded(lambda: remove_workspace(home, home / file))
    write_feed_sync(home, await store.every(conn))
