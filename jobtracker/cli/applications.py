"""`jobtracker applications` (the list, `show`, `note`) and `jobtracker stats`.

    jobtracker applications [--status S]... [--due] [--today DATE] [--json|--csv]
    jobtracker applications show ID [--json]
    jobtracker applications note ID TEXT
    jobtracker stats [--today DATE] [--json]

An unknown application id is exit 2 naming it; nothing stored changes then.
"""

from __future__ import annotations

import argparse
import csv
import sys
from datetime import date
from typing import TYPE_CHECKING, Any

from jobtracker import clock
from jobtracker.cli.base import EXIT_OK, EXIT_USAGE, add_home, command, print_json, record_id
from jobtracker.text import clean_text, one_line

if TYPE_CHECKING:   # the tracker (and the proposal kinds it reaches) loads when a command runs
    from jobtracker import tracker
    from jobtracker.tracker.overview import Row
    from jobtracker.workspace import Workspace

COLUMNS = ("id", "posting", "company", "title", "status", "applied_at", "last_contact_at",
           "followup_due", "due", "url")


def today_arg(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date (YYYY-MM-DD)") from None


def status_arg(text: str) -> str:
    from jobtracker.config import STATUSES  # the settings: once --status is given

    status = text.strip().lower()
    if status not in STATUSES:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an application status (expected one of: {', '.join(STATUSES)})")
    return status


def _configure(parser: argparse.ArgumentParser) -> None:
    _listing_flags(parser, argparse.SUPPRESS)
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    show = actions.add_parser("show", help="one application's timeline: history, mail, notes")
    show.add_argument("id", type=record_id, metavar="ID")
    show.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                      help="a JSON object")
    show.add_argument("--today", type=today_arg, metavar="DATE", default=argparse.SUPPRESS,
                      help="compute the follow-up as of DATE (YYYY-MM-DD)")
    note = actions.add_parser("note", help="add a timestamped note")
    note.add_argument("id", type=record_id, metavar="ID")
    note.add_argument("text", metavar="TEXT", help="the note, stored as given")
    for child in (show, note):
        add_home(child, top=False)


def _listing_flags(parser: argparse.ArgumentParser, default: Any) -> None:
    parser.add_argument("--status", type=status_arg, action="append", metavar="S",
                        default=default, help="only applications at this status (repeatable)")
    parser.add_argument("--due", action="store_true", default=default,
                        help="only applications due for a follow-up")
    parser.add_argument("--today", type=today_arg, metavar="DATE", default=default,
                        help="compute due dates as of DATE (YYYY-MM-DD)")
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", default=default,
                      help="a JSON array of objects")
    form.add_argument("--csv", action="store_true", default=default, help="CSV with a header")


def _today(args: argparse.Namespace, ws: Workspace) -> date:
    """--today, else the user's day (config.yaml's `timezone:`, else the system's)."""
    from jobtracker.run.setup import config_of
    return getattr(args, "today", None) or clock.local_today(config_of(ws).timezone)


@command("applications", "your applications: list, show ID, note ID TEXT", _configure)
def cmd_applications(args: argparse.Namespace, ws: Workspace) -> int:
    import asyncio  # the event loop: once a command runs, not for --help

    return asyncio.run(_run(args, ws))


async def _run(args: argparse.Namespace, ws: Workspace) -> int:
    from jobtracker import applications, store, tracker
    from jobtracker.run.setup import config_of

    followup = config_of(ws).followup
    async with store.connect(ws.db) as conn:
        if args.action == "note":
            try:
                async with store.write(conn):
                    await applications.add_note(conn, args.id, args.text, clock.now_iso())
            except applications.ApplicationError:
                return _unknown(args.id)
            print(f"note added to application {args.id}")
            return EXIT_OK
        if args.action == "show":
            found = await tracker.load_timeline(conn, args.id, followup, _today(args, ws))
            if found is None:
                return _unknown(args.id)
            if getattr(args, "json", False):
                print_json(found.to_json())
            else:
                print(format_timeline(found))
            return EXIT_OK
        every = await tracker.load_rows(conn, followup, _today(args, ws))
    statuses = getattr(args, "status", None)
    due_only = getattr(args, "due", False)
    rows = [r for r in every if (not statuses or r.status in statuses)
            and (not due_only or r.due)]
    if getattr(args, "json", False):
        # One line (print_json): 5,000 rows print at once, with no cycle check either.
        print_json([r.to_json() for r in rows])
    elif getattr(args, "csv", False):
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(COLUMNS)
        for r in rows:
            record = r.to_json()
            writer.writerow([one_line("" if record[k] is None else str(record[k]))
                             for k in COLUMNS])
    else:
        print(format_rows(rows) if rows else nothing_listed(
            len(every), statuses, due_only, _today(args, ws)))
    return EXIT_OK


def nothing_listed(total: int, statuses: list[str] | None, due_only: bool,
                   today: date) -> str:
    """Why an empty list is empty: no application yet, or none that the filters keep."""
    if not total:
        return "no applications; `jobtracker status POSTING applied` records one"
    which = f" with status {' or '.join(statuses)}" if statuses else ""
    if due_only:
        return (f"nothing due for a follow-up as of {today.isoformat()}{which} "
                f"({total} application{'s' if total != 1 else ''} in all)")
    return f"no application{which} ({total} in all)"


def _unknown(application_id: int) -> int:
    print(f"jobtracker: no application {application_id} (`jobtracker applications` lists "
          "their ids)", file=sys.stderr)
    return EXIT_USAGE


def _date(stamp: str | None) -> str:
    return stamp[:10] if stamp else "-"


def format_rows(rows: list[Row]) -> str:
    lines = [f"{'ID':>5}  {'STATUS':<12} {'COMPANY':<20} {'TITLE':<32} {'APPLIED':<10}  "
             f"{'CONTACT':<10}  DUE"]
    for r in rows:
        due = ("! " if r.due else "  ") + (r.followup_due or "-")
        lines.append(f"{r.id:>5}  {r.status:<12} {one_line(r.company, 20):<20} "
                     f"{one_line(r.title, 32):<32} {_date(r.applied_at):<10}  "
                     f"{_date(r.last_contact_at):<10}  {due}")
    due_count = sum(r.due for r in rows)
    if due_count:
        lines.append(f"\n{due_count} due for a follow-up (!)")
    return "\n".join(lines)


def format_timeline(found: tracker.Timeline) -> str:
    from jobtracker.applications import NO_APPLICATION

    r = found.row
    head = [f"application {r.id}: {r.company} - {r.title}".rstrip(" -"),
            f"  status {r.status} · applied {_date(r.applied_at)} · last contact "
            f"{_date(r.last_contact_at)} · follow-up {r.followup_due or '-'}"
            + (" (due)" if r.due else "")]
    if r.url:
        head.append(f"  {r.url}")
    lines = []
    for entry in found.entries:
        d = entry.data
        if entry.kind == "status":
            source = d["source"] + (f" {d['proposal']}" if d["proposal"] else "")
            text = f"{d['from'] or NO_APPLICATION} → {d['to']} ({source})"
            if d["evidence"]:
                text += f': "{d["evidence"]}"'
        elif entry.kind == "message":
            text = f"mail from {d['from']}: {d['subject']}" + \
                (f" [{d['state']}]" if d["state"] else "")
        elif entry.kind == "note":
            text = f"note: {d['text']}"
        else:
            text = d["text"]
        lines.append(f"  {_date(entry.time)}  {entry.kind:<7} {one_line(text)}")
    # Everything from outside is cleaned again on the way out: no escape sequence
    # stored by any route reaches the terminal.
    return clean_text("\n".join([*head, "", *(lines or ["  nothing recorded yet"])]))


# --- stats ----------------------------------------------------------------------------

def _configure_stats(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--today", type=today_arg, metavar="DATE",
                        help="count follow-ups due as of DATE (YYYY-MM-DD)")
    parser.add_argument("--json", action="store_true", help="a JSON object")


@command("stats", "the funnel: statuses, replies, interviews, by source and resume",
         _configure_stats)
def cmd_stats(args: argparse.Namespace, ws: Workspace) -> int:
    import asyncio  # the event loop: once a command runs, not for --help

    summary = asyncio.run(_stats(ws, _today(args, ws)))
    if args.json:
        print_json(summary)
    else:
        print(format_stats(summary))
    return EXIT_OK


async def _stats(ws: Workspace, today: date) -> dict[str, Any]:
    from jobtracker import store, tracker
    from jobtracker.run.setup import config_of

    followup = config_of(ws).followup
    async with store.connect(ws.db) as conn:
        return await tracker.stats(conn, followup, today)


def format_stats(s: dict[str, Any]) -> str:
    from jobtracker.tracker import calibration
    from jobtracker.tracker.funnel import bars, counted

    total = s["applications"]
    lines = [f"applications  {total} ({s['sent']} sent, {s['due']} due for a follow-up)",
             "  " + "  ".join(f"{k} {v}" for k, v in s["by_status"].items() if v), ""]
    for label, bar, count in bars(s):
        lines.append(f"{label:<11} {bar} {count}")
    median = s["median_days_to_reply"]
    lines += ["", f"responded    {counted(s['responded'], total)}",
              f"interviews   {counted(s['interviews'], total)}",
              f"offers       {counted(s['offers'], total)}",
              f"reply after  {'-' if median is None else f'{median} days (median)'}"]
    for title, key in (("by source", "source"), ("by verdict", "verdict"),
                       ("by resume", "resume")):
        lines += ["", title]
        for g in s[f"by_{key}"]:
            name = one_line(str(g[key] if g[key] is not None else "none"), 28)
            lines.append(f"  {name:<28} responded {counted(g['responded'], g['applications'])}"
                         f", interviews {g['interviews']}")
    if "calibration" in s:
        lines += ["", "calibration: each verdict and what it became"]
        lines += calibration.table(s["calibration"])
    return "\n".join(lines)

