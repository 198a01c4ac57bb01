"""What was sent: every digest (`digests`) and the jobs each channel announced
(`digest_announced`, migration 0016).

A job is announced once per channel, ever. It is recorded by the posting that led its
group when it was announced; a group later led by another posting (two groups joined,
say) is still the same job, so `announced` maps every recorded posting to the leader
of the group it is in now. Writes run inside the caller's write transaction, after
delivery: no channel is ever waited on while the database is locked.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import aiosqlite


async def last_sent(conn: aiosqlite.Connection) -> str | None:
    """When the last digest that any channel took was sent (UTC, as stored)."""
    row = await (await conn.execute(
        "SELECT MAX(sent_at) FROM digests WHERE delivered != '[]'")).fetchone()
    return row[0] if row and row[0] else None


async def announced(conn: aiosqlite.Connection,
                    channels: Iterable[str]) -> dict[str, frozenset[int]]:
    """channel → the leaders of the job groups it announced."""
    names = list(dict.fromkeys(channels))
    if not names:
        return {}
    marks = ", ".join("?" for _ in names)
    rows = await conn.execute_fetchall(
        "SELECT d.channel, COALESCE(p.lead_id, p.id) FROM digest_announced AS d "
        f"JOIN postings AS p ON p.id = d.posting_id WHERE d.channel IN ({marks})", names)
    found: dict[str, set[int]] = {name: set() for name in names}
    for channel, leader in rows:
        found[str(channel)].add(int(leader))
    return {name: frozenset(ids) for name, ids in found.items()}


async def record(conn: aiosqlite.Connection, *, sent_at: str, since: str | None,
                 file: str | None, delivered: Mapping[str, Iterable[int]],
                 failed: Mapping[str, str]) -> int:
    """One digest: the channels that took it (each with the jobs it announced) and the
    ones that failed (with the reason, already redacted). Returns the digest's id."""
    cursor = await conn.execute(
        "INSERT INTO digests (sent_at, since, file, delivered, failed) VALUES (?, ?, ?, ?, ?)",
        (sent_at, since, file, json.dumps(sorted(delivered)), json.dumps(dict(failed),
                                                                           sort_keys=True)))
    digest_id = int(cursor.lastrowid or 0)
    await conn.executemany(
        "INSERT OR IGNORE INTO digest_announced (channel, posting_id, digest_id) "
        "VALUES (?, ?, ?)",
        [(channel, posting, digest_id) for channel, postings in delivered.items()
         for posting in postings])
    return digest_id
