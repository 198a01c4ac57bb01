"""Groups of postings that are one job: the pass after each board is stored, and splits.

A group is led by its smallest posting id (the posting seen first, which holds the
verdict, the application and their history); every other member's `lead_id` names
the leader. The schema's triggers keep `job_open` (what the queue and `matches`
read) and mark for this pass every posting that is new, changed or just closed, by
setting its `job_key` to ''. So the pass reads only those rows, and compares a
posting's description only with postings that share its key — one company's
postings under one title — which keeps it cheap at fetch time.

Two postings join when `samejob` says they are one job, unless they are on the
same board and both open (an employer listing the same text twice at once means
two openings, say two offices), or they were split apart by hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import aiosqlite

from jobtracker import samejob

# job_key for a posting the pass has looked at that can have no key (no company).
NO_KEY = "-"
# At most this many postings under one key are compared with a new one, newest first:
# a company that lists the same title a hundred times costs a bounded pass.
MAX_CANDIDATES = 50
_CHUNK = 500


def _chunks(items: Sequence[str], size: int = _CHUNK) -> Iterable[Sequence[str]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


class _Pass:
    """One run of the grouping pass: what it has read, and the leaders it has changed."""

    def __init__(self, conn: aiosqlite.Connection, apart: set[tuple[int, int]]) -> None:
        self.conn = conn
        self.apart = apart
        self.lead: dict[int, int] = {}
        self.texts: dict[int, list[str]] = {}
        self.joined = 0

    async def words(self, posting_id: int) -> list[str]:
        if posting_id not in self.texts:
            row = await (await self.conn.execute(
                "SELECT description FROM postings WHERE id = ?", (posting_id,))).fetchone()
            self.texts[posting_id] = samejob.words(row[0] if row else None)
        return self.texts[posting_id]

    async def members(self, leader: int) -> list[int]:
        rows = await self.conn.execute_fetchall(
            "SELECT id FROM postings WHERE id = ? OR lead_id = ?", (leader, leader))
        return [row[0] for row in rows]

    async def leader(self, posting_id: int) -> int:
        row = await (await self.conn.execute(
            "SELECT COALESCE(lead_id, id) FROM postings WHERE id = ?", (posting_id,))).fetchone()
        return int(row[0])

    async def join(self, x: int, y: int) -> bool:
        """Merge the groups of postings x and y under the smaller leader, unless a pair
        across them was split apart by hand. Leaders are read afresh: an earlier join
        in this pass may have moved them."""
        a, b = await self.leader(x), await self.leader(y)
        if a == b:
            return False
        first, second = await self.members(a), await self.members(b)
        if any((min(x, y), max(x, y)) in self.apart for x in first for y in second):
            return False
        leader, other = min(a, b), max(a, b)
        await self.conn.execute(
            "UPDATE postings SET lead_id = ? WHERE id = ? OR lead_id = ?", (leader, other, other))
        for posting in (*first, *second):
            self.lead[posting] = leader
        self.joined += len(second if other == b else first)
        return True

    async def settle(self, rows: list[aiosqlite.Row], fresh: set[int]) -> None:
        """Compare each fresh posting with the others under its key, joining the same job."""
        for row in rows:
            self.lead.setdefault(row["id"], row["lead_id"] or row["id"])
        for posting in rows:
            if posting["id"] not in fresh:
                continue
            others = [r for r in rows if r["id"] != posting["id"]][-MAX_CANDIDATES:]
            for other in others:
                if self.lead[posting["id"]] == self.lead[other["id"]]:
                    continue
                both_open = posting["closed_at"] is None and other["closed_at"] is None
                if posting["board_id"] == other["board_id"] and both_open:
                    continue
                if samejob.same_text(await self.words(posting["id"]),
                                     await self.words(other["id"])):
                    await self.join(posting["id"], other["id"])


async def assign(conn: aiosqlite.Connection) -> int:
    """Group every posting not yet looked at (job_key ''); returns how many joined a group.

    Runs inside the caller's transaction (fetch writes each board in one)."""
    rows = await conn.execute_fetchall(
        "SELECT id, company, title FROM postings WHERE job_key = ''")
    if not rows:
        return 0
    keyed: dict[str, list[int]] = {}
    updates = []
    for row in rows:
        key = samejob.job_key(row["company"], row["title"])
        updates.append((key or NO_KEY, row["id"]))
        if key is not None:
            keyed.setdefault(key, []).append(row["id"])
    await conn.executemany("UPDATE postings SET job_key = ? WHERE id = ?", updates)
    by_key: dict[str, list[aiosqlite.Row]] = {}
    for chunk in _chunks(list(keyed)):
        marks = ", ".join("?" for _ in chunk)
        for row in await conn.execute_fetchall(
                "SELECT id, job_key, board_id, lead_id, closed_at FROM postings "
                f"WHERE job_key IN ({marks}) ORDER BY id", list(chunk)):
            by_key.setdefault(row["job_key"], []).append(row)
    shared = {key: found for key, found in by_key.items() if len(found) > 1}
    if not shared:
        return 0
    apart = {(row[0], row[1]) for row in await conn.execute_fetchall(
        "SELECT a, b FROM postings_apart")}
    work = _Pass(conn, apart)
    for key, found in shared.items():
        await work.settle(found, set(keyed[key]))
    return work.joined


@dataclass(frozen=True)
class Split:
    """What `split` did: the posting's group before, and who leads the rest now."""

    posting: int
    leader: int | None          # the group it was in (None: it was alone)
    rest_leader: int | None     # who leads the others now (None: nobody is left)


async def split(conn: aiosqlite.Connection, posting_id: int) -> Split:
    """Take a posting out of its group for good: it leads a group of its own, the rest
    stay together under their smallest id, and the pass never joins them again.

    Raises LookupError for an unknown posting. Runs inside the caller's transaction."""
    row = await (await conn.execute(
        "SELECT lead_id FROM postings WHERE id = ?", (posting_id,))).fetchone()
    if row is None:
        raise LookupError(posting_id)
    leader = row[0] or posting_id
    members = [r[0] for r in await conn.execute_fetchall(
        "SELECT id FROM postings WHERE (id = ? OR lead_id = ?) AND id != ? ORDER BY id",
        (leader, leader, posting_id))]
    if not members:
        return Split(posting_id, None, None)
    rest = members[0]
    await conn.executemany(
        "INSERT OR IGNORE INTO postings_apart (a, b) VALUES (?, ?)",
        [(min(posting_id, m), max(posting_id, m)) for m in members])
    await conn.execute("UPDATE postings SET lead_id = NULL WHERE id IN (?, ?)",
                       (posting_id, rest))
    await conn.execute("UPDATE postings SET lead_id = ? WHERE lead_id IN (?, ?) AND id != ?",
                       (rest, leader, posting_id, rest))
    return Split(posting_id, leader, rest)


__all__ = ["MAX_CANDIDATES", "NO_KEY", "Split", "assign", "split"]
