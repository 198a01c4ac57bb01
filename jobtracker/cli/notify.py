"""`jobtracker digest`: what needs you since the last digest; `--send` delivers it
(jobtracker/notify/, docs/notify.md)."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from jobtracker.cli.base import EXIT_OK, EXIT_USAGE, command, print_json
from jobtracker.clock import iso, now_iso

if TYPE_CHECKING:   # the store and the settings load when a command runs
    from jobtracker.workspace import Workspace


def _configure_digest(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--since", metavar="DATE",
                        help="only matches judged and proposals made since DATE (YYYY-MM-DD "
                             "in your timezone, or an ISO time); default: the last digest sent")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--send", action="store_true",
                        help="deliver it to every channel in notify.to and keep it in "
                             "digests/YYYY-MM-DD.md (and .html)")


def parse_since(text: str, zone: str | None) -> str:
    """`YYYY-MM-DD` (the day's start in `zone`) or an ISO time → UTC as stored;
    ValueError with the accepted forms."""
    tz = ZoneInfo(zone or "UTC")
    try:
        if len(text) == 10:
            day = date.fromisoformat(text)
            return iso(datetime(day.year, day.month, day.day, tzinfo=tz))
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"--since {text!r}: not a date (YYYY-MM-DD) or an ISO time") from None
    return iso(moment if moment.tzinfo else moment.replace(tzinfo=tz).astimezone(UTC))


@command("digest", "what needs you since the last digest: new matches, proposals waiting, "
                   "follow-ups due, interviews; --send delivers it", _configure_digest)
def cmd_digest(args: argparse.Namespace, ws: Workspace) -> int:
    import asyncio

    from jobtracker import store
    from jobtracker.config import NotifyConfig
    from jobtracker.notify import layout
    from jobtracker.notify.digest import build
    from jobtracker.notify.send import send_digest
    from jobtracker.run.setup import config_of

    config, profile = config_of(ws), ws.profile()
    try:
        since = parse_since(args.since, config.timezone) if args.since else None
    except ValueError as exc:
        print(f"jobtracker: {exc}", file=sys.stderr)
        return EXIT_USAGE
    now = now_iso()
    if args.send:
        report = asyncio.run(send_digest(ws.home, config, profile, now=now, since=since))
        if args.json:
            print_json(report.to_json())
        else:
            for line in report.lines():
                print(f"digest: {line}")
        for failed in report.failed:
            print(f"jobtracker: digest: {failed.channel} did not take it: {failed.detail}; "
                  "it gets the same items next time", file=sys.stderr)
        return report.exit_code
    notify = config.notify or NotifyConfig()

    async def read() -> object:
        async with store.connect(ws.db) as conn:
            return await build(conn, ws.db, profile=profile, followup=config.followup,
                               min_verdict=notify.min_verdict, channels=notify.to, now=now,
                               zone=config.timezone, since=since,
                               home=ws.home)

    digest = asyncio.run(read())
    if args.json:
        print_json(digest.to_json())   # type: ignore[attr-defined]
    else:
        print(layout.text(digest), end="")   # type: ignore[arg-type]
    return EXIT_OK


def _configure_interviews(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print a JSON array of objects")
    parser.add_argument("--all", action="store_true",
                        help="every accepted interview, past and cancelled ones too")


@command("interviews", "upcoming interviews (accepted interview proposals); the calendar "
                       "feed is interviews.ics", _configure_interviews)
def cmd_interviews(args: argparse.Namespace, ws: Workspace) -> int:
    import asyncio

    from jobtracker import store
    from jobtracker.interviews import store as interviews
    from jobtracker.notify.layout import when_local
    from jobtracker.text import one_line

    async def read() -> list[interviews.Interview]:
        async with store.connect(ws.db) as conn:
            if args.all:
                return await interviews.every(conn)
            return await interviews.upcoming(conn, datetime.now(UTC))

    found = asyncio.run(read())
    if args.json:
        print_json([item.to_json() for item in found])
        return EXIT_OK
    if not found:
        print("no upcoming interviews (an accepted `interview` proposal adds one)")
        return EXIT_OK
    # The application's id first: what `applications show ID` and `note ID` take.
    rows = [("app", "when", "job", "where")]
    for item in found:
        cancelled = "  (cancelled)" if item.status == "cancelled" else ""
        rows.append((str(item.application_id), when_local(item.start, item.end, item.timezone),
                     f"{one_line(item.company, 40)} - {one_line(item.title, 60)}",
                     one_line(item.where, 120) + cancelled))
    app, when, job = (max(len(row[i]) for row in rows) for i in range(3))
    for row in rows:
        print(f"{row[0]:>{app}}  {row[1]:<{when}}  {row[2]:<{job}}  {row[3]}".rstrip())
    return EXIT_OK
