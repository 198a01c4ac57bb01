"""`jobtracker postings`: see and undo how postings were grouped into one job.

    jobtracker postings group ID     the group the posting is in: leader first
    jobtracker postings split ID     take the posting out of its group, for good

A wrong merge (two jobs taken for one) is undone by `split`: the posting leads a
group of its own, the rest stay together, and fetches never join them again.
An unknown ID is exit 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from jobtracker.cli.base import EXIT_OK, EXIT_USAGE, add_home, command, record_id
from jobtracker.text import one_line

if TYPE_CHECKING:   # the store and the grouping load when `postings` runs
    import aiosqlite

    from jobtracker.postings import groups
    from jobtracker.workspace import Workspace


def _configure(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    for name, what in (("group", "the postings grouped with this one, leader first"),
                       ("split", "take this posting out of its group, for good")):
        child = actions.add_parser(name, help=what)
        child.add_argument("id", type=record_id, metavar="ID", help="a posting id")
        add_home(child, top=False)


async def _group_lines(conn: aiosqlite.Connection, posting_id: int) -> list[str]:
    row = await (await conn.execute(
        "SELECT COALESCE(lead_id, id) FROM postings WHERE id = ?", (posting_id,))).fetchone()
    if row is None:
        raise LookupError(posting_id)
    rows = await conn.execute_fetchall(
        "SELECT p.id, p.lead_id, p.company, p.title, p.url, p.closed_at, p.first_seen, "
        "b.source, b.token FROM postings AS p JOIN boards AS b ON b.id = p.board_id "
        "WHERE p.id = ? OR p.lead_id = ? ORDER BY p.id", (row[0], row[0]))
    lines = []
    for member in rows:
        role = "leads" if member["lead_id"] is None else "     "
        state = f"closed {member['closed_at'][:10]}" if member["closed_at"] else "open"
        board = one_line(f"{member['source']}:{member['token']}")
        label = one_line(f"{member['company']} - {member['title']}", 60)
        lines.append(f"{member['id']:>7} {role} {board}  {state}  first seen "
                     f"{member['first_seen'][:10]}  {label}  {one_line(member['url'])}")
    return lines


async def _split(db: Path, posting_id: int) -> groups.Split:
    from jobtracker import store
    from jobtracker.postings import groups

    async with store.connect(db) as conn, store.write(conn):
        return await groups.split(conn, posting_id)


async def _group(db: Path, posting_id: int) -> list[str]:
    from jobtracker import store

    async with store.connect(db) as conn:
        return await _group_lines(conn, posting_id)


@command("postings", "see or split a group of postings that are one job", _configure)
def cmd_postings(args: argparse.Namespace, ws: Workspace) -> int:
    import asyncio  # the event loop: once a command runs, not for --help

    try:
        if args.action == "group":
            print("\n".join(asyncio.run(_group(ws.db, args.id))))
            return EXIT_OK
        done = asyncio.run(_split(ws.db, args.id))
    except LookupError:
        print(f"jobtracker: no posting with id {args.id}", file=sys.stderr)
        return EXIT_USAGE
    if done.leader is None:
        print(f"posting {done.posting} is in no group: nothing to split")
    else:
        print(f"posting {done.posting} now stands alone; the rest of its group is led by "
              f"{done.rest_leader}. Fetches will not join them again.")
    return EXIT_OK
