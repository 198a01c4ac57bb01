"""`jobtracker matches` (scored postings, best first) and `jobtracker status`."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from jobtracker import matching, store
from jobtracker.cli import EXIT_OK, EXIT_USAGE, command
from jobtracker.config import STATUSES, Profile
from jobtracker.text import one_line
from jobtracker.workspace import Workspace

# Widest a text column gets in the table; the URL comes last and is never cut,
# so it can be copied whole.
WIDTHS = {"company": 24, "title": 44, "location": 24}


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, got {value}")
    return value


def _configure_matches(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--top", type=_positive_int, metavar="N",
                        help="show only the N best")
    parser.add_argument("--json", action="store_true",
                        help="print a JSON array of objects instead of a table")


async def load_matches(db: Path, profile: Profile, top: int | None = None) -> list[dict[str, Any]]:
    """Open, scored matches, best first, as plain data (the --json objects).

    `stale` is true when the verdict was given for older profile prose or an older
    description: the judge will ask again, and the score stands until it does.
    """
    where, params = matching.match_where(profile)
    sql = (
        "SELECT p.id, s.score, s.parts, r.verdict, p.company, p.title, p.location, p.url, "
        "a.status, (r.prose_hash != ? OR r.description_hash IS NOT "
        "p.description_hash) AS stale "
        f"FROM {matching.FROM_POSTINGS} "
        "JOIN rankings AS r ON r.posting_id = p.id "
        "JOIN scores AS s ON s.posting_id = p.id "
        "LEFT JOIN applications AS a ON a.posting_id = p.id "
        f"WHERE {where} ORDER BY s.score DESC, p.id")
    params = [profile.prose_hash, *params]
    if top is not None:
        sql += " LIMIT ?"
        params.append(top)
    async with store.connect(db) as conn:
        rows = await conn.execute_fetchall(sql, params)
    return [
        {"id": row["id"], "score": row["score"], "verdict": row["verdict"],
         "company": row["company"], "title": row["title"], "location": row["location"],
         "url": row["url"], "status": row["status"], "stale": bool(row["stale"]),
         "parts": json.loads(row["parts"])}
        for row in rows
    ]


def _cell(value: Any, width: int = 0) -> str:
    """Untrusted text as one plain line: no control characters, bounded width."""
    return one_line("" if value is None else str(value), width)


def format_table(matches: list[dict[str, Any]]) -> str:
    header = {"company": "company", "title": "title", "location": "location"}
    rows = [header] + [{k: _cell(m[k], w) for k, w in WIDTHS.items()} for m in matches]
    widths = {k: max(len(r[k]) for r in rows) for k in WIDTHS}
    lines = [f"{'score':>6}  {'verdict':<8} " + "  ".join(
        f"{header[k]:<{widths[k]}}" for k in WIDTHS) + f"  {'status':<12}  url"]
    for match, row in zip(matches, rows[1:], strict=True):
        verdict = match["verdict"] + ("*" if match["stale"] else "")
        lines.append(f"{match['score']:>6.2f}  {verdict:<8} " + "  ".join(
            f"{row[k]:<{widths[k]}}" for k in WIDTHS)
            + f"  {_cell(match['status'] or '-'):<12}  {_cell(match['url'])}")
    if any(m["stale"] for m in matches):
        lines.append("* judged against older profile prose or an older description; "
                     "`jobtracker rank` asks again")
    return "\n".join(lines)


@command("matches", "scored postings, best first", _configure_matches)
def cmd_matches(args: argparse.Namespace, ws: Workspace) -> int:
    found = asyncio.run(load_matches(ws.db, ws.profile(), args.top))
    if args.json:
        print(json.dumps(found, indent=2))
    elif found:
        print(format_table(found))
    else:
        print("no scored matches yet; `jobtracker rank` judges and scores open matches")
    return EXIT_OK


# --- status -------------------------------------------------------------------------

def _configure_status(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("posting", type=int, metavar="POSTING",
                        help="the posting's id (the `id` in `matches --json`)")
    parser.add_argument("status", metavar="STATUS", help=f"one of: {', '.join(STATUSES)}")


async def set_status(db: Path, posting_id: int, status: str, now: str) -> tuple[str, str | None]:
    """Set (creating if need be) the application for a posting.

    Returns the posting's label and the status it had before (None: new application).
    Raises LookupError when there is no such posting.
    """
    async with store.connect(db) as conn, store.write(conn):
        posting = await (await conn.execute(
            "SELECT p.company, p.title, a.status FROM postings AS p "
            "LEFT JOIN applications AS a ON a.posting_id = p.id WHERE p.id = ?",
            (posting_id,))).fetchone()
        if posting is None:
            raise LookupError(posting_id)
        await conn.execute(
            "INSERT INTO applications (posting_id, company, status, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (posting_id) DO UPDATE SET "
            "status = excluded.status, updated_at = excluded.updated_at",
            (posting_id, posting["company"], status, now, now))
    company, title = _cell(posting["company"]), _cell(posting["title"])
    return (f"{company} - {title}" if company else title), posting["status"]


@command("status", "set an application's status by hand", _configure_status)
def cmd_status(args: argparse.Namespace, ws: Workspace) -> int:
    status = args.status.strip().lower()
    if status not in STATUSES:
        print(f"jobtracker: {_cell(args.status)!r} is not an application status "
              f"(expected one of: {', '.join(STATUSES)})", file=sys.stderr)
        return EXIT_USAGE
    now = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    try:
        label, before = asyncio.run(set_status(ws.db, args.posting, status, now))
    except LookupError:
        print(f"jobtracker: no posting with id {args.posting} "
              "(`jobtracker matches` lists posting ids)", file=sys.stderr)
        return EXIT_USAGE
    was = "new application" if before is None else f"was {before}"
    print(f"posting {args.posting} ({label}): {status} ({was})")
    return EXIT_OK
