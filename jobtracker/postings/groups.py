"""Groups of postings that are one job: placing new postings as they are stored, the
pass after a board that left it work (and as each fetch starts), and splits.

A group is led by its smallest posting id (the posting seen first, which holds the
verdict, the application and their history); every other member's `lead_id` names
the leader. The schema's triggers keep `job_open` (what the queue and `matches`
read) and put every posting that is new, changed or just closed on the pass's work
list (`grouping_todo`). So the pass reads only those rows, and compares a posting's
description only with postings that share its `job_key` — one company's postings
under one title — which keeps it cheap at fetch time.

Two postings join when `samejob` says they are one job, unless they are on the
same board and both open (an employer listing the same text twice at once means
two openings, say two offices), or they were split apart by hand.

A board's new postings are placed before they are written (`place`): each is
compared with the stored postings under its key and written already pointing at its
leader, so the wide row is written once and never read back. Only what `place`
cannot settle (a new posting that is no near copy but the same job as two groups,
which the pass then merges) and postings that changed or closed go through the work
list. Both apply one rule, stated once: which postings a posting is compared with
(`_candidates`) and which of their groups it joins (`_joins`).

A fetch enters grouping through one door: the `Grouping` it makes, and one
`Grouping.board()` per board it writes, inside that board's transaction. The first
board settles what other writers left on the work list; each board's new postings
are placed as upsert stores them (`BoardGroups`), and the pass runs after a board
that left it work.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass

import aiosqlite

from jobtracker.postings import samejob

# At most this many postings under one key are compared with a new one, newest first:
# a company that lists the same title a hundred times costs a bounded pass.
MAX_CANDIDATES = 50
# The board source of job alerts' cards (jobtracker/postings/alerts.py): a card has no
# text to compare, so its company and title alone place it (`place_alerts`).
ALERT_SOURCE = "alert"
_CHUNK = 500


def _chunks(items: Sequence[str], size: int = _CHUNK) -> Iterable[Sequence[str]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


async def _read_texts(conn: aiosqlite.Connection, ids: set[int]) -> dict[int, samejob.Text]:
    texts = {}
    for chunk in _chunks(sorted(ids)):
        marks = ", ".join("?" for _ in chunk)
        for row in await conn.execute_fetchall(
                f"SELECT id, description FROM postings WHERE id IN ({marks})", chunk):
            texts[row[0]] = samejob.Text(row[1])
    return texts


async def _under_keys(conn: aiosqlite.Connection, keys: Iterable[str]
                      ) -> dict[str, list[aiosqlite.Row]]:
    """The stored postings under each key, oldest first (through the job_key index),
    each saying whether it is a job alert's card (its board's source is 'alert')."""
    found: dict[str, list[aiosqlite.Row]] = {}
    for chunk in _chunks(sorted(keys)):
        marks = ", ".join("?" for _ in chunk)
        for row in await conn.execute_fetchall(
                "SELECT p.id, p.job_key, p.board_id, p.lead_id, p.closed_at, p.location, "
                f"b.source = '{ALERT_SOURCE}' AS alert FROM postings AS p "
                f"JOIN boards AS b ON b.id = p.board_id WHERE p.job_key IN ({marks}) "
                "ORDER BY p.id", list(chunk)):
            found.setdefault(row["job_key"], []).append(row)
    return found


def _candidates(rows: Sequence[aiosqlite.Row], board_id: int, closed: bool,
                itself: int | None = None) -> list[int]:
    """The postings under one key that a posting on `board_id` (open unless `closed`)
    is compared with, oldest first: the newest MAX_CANDIDATES of those not on its board
    while both are open (one board listing a text twice is two openings)."""
    return [row["id"] for row in rows if row["id"] != itself
            and (closed or row["board_id"] != board_id or row["closed_at"] is not None)
            ][-MAX_CANDIDATES:]


def _joins(text: samejob.Text, candidates: Sequence[int], texts: Mapping[int, samejob.Text],
           group: Callable[[int], int], own: int | None = None) -> list[int]:
    """The grouping rule: the candidates (oldest first) whose groups a posting joins.

    Its oldest near copy alone, when it has one (an aggregator's copy, a repost with a
    line changed: nothing else is compared); else one similar member of every group
    (`group` names a candidate's leader) other than its `own`."""
    copy = next((pid for pid in candidates if samejob.near_copy(text, texts[pid])), None)
    if copy is not None:
        return [copy]
    joined: dict[int, int] = {}       # a group needs one member to match
    for pid in candidates:
        leader = group(pid)
        if leader != own and leader not in joined and samejob.similar(text, texts[pid]):
            joined[leader] = pid
    return list(joined.values())


@dataclass(frozen=True)
class Placed:
    """Where a new posting goes: the leader of the group it joins (None: it leads its
    own), and whether the pass must still look at it (it matched several groups)."""

    leader: int | None = None
    unsettled: bool = False


ALONE = Placed()


async def place(conn: aiosqlite.Connection, board_id: int,
                fresh: Sequence[tuple[str, str | None]]) -> list[Placed]:
    """Where each of a board's new postings goes, given its (job_key, description),
    before it is written: the group of the stored postings that are the same job, by
    the rule the pass applies (`_candidates`, `_joins`). One that is the same job as
    several groups joins the first, and is left to the pass, which merges them."""
    stored = await _under_keys(conn, {key for key, _ in fresh if key != samejob.NO_KEY})
    if not stored:
        return [ALONE] * len(fresh)
    # Per new posting: its candidates, oldest first, and each candidate's leader.
    candidates: list[list[int]] = []
    leader_of: dict[int, int] = {}
    under: list[list[aiosqlite.Row]] = []     # every stored posting under its key
    for key, text in fresh:
        rows = stored.get(key, [])
        under.append(rows)
        candidates.append(_candidates(rows, board_id, closed=False) if text else [])
        leader_of.update((row["id"], row["lead_id"] or row["id"]) for row in rows)
    placed: list[Placed | None] = [None if ids else ALONE for ids in candidates]
    mine = {index: samejob.Text(fresh[index][1]) for index, ids in enumerate(candidates)
            if ids}
    # Texts are read in two rounds: each posting's oldest candidate first (a copy's is
    # usually what it copies, and the rule tries it first), the other candidates only
    # for the postings it did not settle. Fifty candidates of one group are fifty texts
    # to read for nothing.
    texts = await _read_texts(conn, {ids[0] for ids in candidates if ids})
    for index, text in mine.items():
        oldest = candidates[index][0]
        if samejob.near_copy(text, texts[oldest]):
            placed[index] = Placed(leader_of[oldest])
    texts.update(await _read_texts(conn, {
        pid for index, ids in enumerate(candidates) if placed[index] is None
        for pid in ids[1:] if pid not in texts}))
    for index, text in mine.items():
        if placed[index] is None:
            groups = {leader_of[pid] for pid in _joins(text, candidates[index], texts,
                                                       leader_of.__getitem__)}
            placed[index] = Placed(min(groups), len(groups) > 1) if groups else ALONE
    # The same job from a job alert, seen before its board: a posting that found no text
    # to join takes the group of alert cards alone under its key (their snippets prove
    # nothing either way), so the job is one match and the cards get its text.
    return [where if where not in (None, ALONE) else _alert_group(under[index], board_id)
            for index, where in enumerate(placed)]


def _groups(rows: Sequence[aiosqlite.Row]) -> dict[int, list[aiosqlite.Row]]:
    found: dict[int, list[aiosqlite.Row]] = {}
    for row in rows:
        found.setdefault(row["lead_id"] or row["id"], []).append(row)
    return found


def _alert_group(rows: Sequence[aiosqlite.Row], board_id: int) -> Placed:
    """The group of alert cards alone under a key that a board's new posting joins: the
    oldest (none on its own board, which an alert board never is)."""
    alone = [leader for leader, members in _groups(rows).items()
             if all(member["alert"] and member["board_id"] != board_id for member in members)]
    return Placed(min(alone)) if alone else ALONE


def _place_key(location: str | None) -> str:
    """A location as cards and boards both write it: "Berlin, Germany (Hybrid)" = "berlin
    germany"."""
    text = location or ""
    if text.endswith(")"):
        text = text.rsplit("(", 1)[0]
    return " ".join(samejob.words(text))


async def place_alerts(conn: aiosqlite.Connection, board_id: int,
                       fresh: Sequence[tuple[str, str]]) -> list[Placed]:
    """Where each of an alert sender's new cards goes, given its (job_key, location):
    a card carries no text to compare, so its normalised company and title decide. It
    joins one group under its key, never more (a card never merges two groups): the
    one holding a board's posting, open, in the same place, oldest, in that order; none
    on its own board while both are open (two cards are two openings, `_candidates`)."""
    stored = await _under_keys(conn, {key for key, _ in fresh if key != samejob.NO_KEY})
    out = []
    for key, location in fresh:
        rows = stored.get(key, [])
        ids = set(_candidates(rows, board_id, closed=False))
        groups = _groups([row for row in rows if row["id"] in ids])
        if not groups:
            out.append(ALONE)
            continue
        here = _place_key(location)

        def rank(item: tuple[int, list[aiosqlite.Row]], here: str = here) -> tuple[object, ...]:
            leader, members = item
            return (all(m["alert"] for m in members),
                    all(m["closed_at"] is not None for m in members),
                    not any(_place_key(m["location"]) == here for m in members), leader)
        out.append(Placed(min(groups.items(), key=rank)[0]))
    return out


async def inherit_texts(conn: aiosqlite.Connection) -> int:
    """Groups led by a job alert's card take the text of a board posting in them (the
    ATS's own prose before a feed's blurb, an open posting before a closed one, the
    newest first), so the job is judged on it: a card's snippet is not a description.
    Taken again whenever that text changes. Returns how many leaders took a text.

    Runs inside the caller's transaction (`Grouping.board`, after a board's write)."""
    rows = await conn.execute_fetchall(
        "SELECT l.id, l.description_hash, m.id, m.description_hash FROM postings AS l "
        f"JOIN boards AS b ON b.id = l.board_id AND b.source = '{ALERT_SOURCE}' "
        "JOIN postings AS m ON m.lead_id = l.id "
        "WHERE l.lead_id IS NULL AND m.description_hash != '' "
        f"AND m.description_source != '{ALERT_SOURCE}' "
        "ORDER BY l.id, m.description_source = 'ats' DESC, m.closed_at IS NULL DESC, m.id DESC")
    best: dict[int, tuple[str, int, str]] = {}
    for leader, have, member, give in rows:
        best.setdefault(leader, (have, member, give))
    changes = [(member, member, leader) for leader, (have, member, give) in best.items()
               if have != give]
    await conn.executemany(
        "UPDATE postings SET description = (SELECT description FROM postings WHERE id = ?), "
        "description_source = (SELECT description_source FROM postings WHERE id = ?) "
        "WHERE id = ?", changes)
    return len(changes)


class _Pass:
    """One run of the grouping pass: the rows it read, their texts, and the leaders it
    has moved. Every database round trip costs a thread hop, so rows and texts are
    read in batches and leaders are followed in memory."""

    def __init__(self, conn: aiosqlite.Connection, apart: set[tuple[int, int]]) -> None:
        self.conn = conn
        self.apart = apart
        self.read_lead: dict[int, int] = {}      # posting -> its leader when read
        self.moved: dict[int, int] = {}          # a former leader -> who leads its group now
        self.texts: dict[int, samejob.Text] = {}
        self.joined = 0

    def leader(self, posting_id: int) -> int:
        lead = self.read_lead[posting_id]
        while lead in self.moved:
            lead = self.moved[lead]
        return lead

    async def members(self, leader: int) -> list[int]:
        rows = await self.conn.execute_fetchall(
            "SELECT id FROM postings WHERE id = ? OR lead_id = ?", (leader, leader))
        return [row[0] for row in rows]

    async def join(self, x: int, y: int) -> None:
        """Merge the groups of postings x and y under the smaller leader, unless a pair
        across them was split apart by hand."""
        a, b = self.leader(x), self.leader(y)
        if a == b:
            return
        if self.apart:
            first, second = await self.members(a), await self.members(b)
            if any((min(m, n), max(m, n)) in self.apart for m in first for n in second):
                return
        leader, other = min(a, b), max(a, b)
        cursor = await self.conn.execute(
            "UPDATE postings SET lead_id = ?, job_open = 0 WHERE id = ? OR lead_id = ?",
            (leader, other, other))
        self.moved[other] = leader
        self.joined += max(cursor.rowcount, 0)

    async def settle(self, shared: dict[str, list[aiosqlite.Row]],
                     keyed: dict[str, list[int]]) -> None:
        """Compare each fresh posting with the others under its key and join the groups
        the rule names (`_candidates`, `_joins`, as `place` does)."""
        compared: list[tuple[int, list[int]]] = []
        for key, rows in shared.items():
            for row in rows:
                self.read_lead[row["id"]] = row["lead_id"] or row["id"]
            fresh = set(keyed[key])
            compared += [(posting["id"], _candidates(rows, posting["board_id"],
                                                     posting["closed_at"] is not None,
                                                     itself=posting["id"]))
                         for posting in rows if posting["id"] in fresh]
        self.texts = await _read_texts(self.conn, {posting for x, others in compared
                                                   for posting in (x, *others)})
        for x, others in compared:
            for y in _joins(self.texts[x], others, self.texts, self.leader, self.leader(x)):
                await self.join(x, y)


async def assign(conn: aiosqlite.Connection) -> int:
    """Group every posting on the work list, and empty it; returns how many joined a group.

    Runs inside the caller's transaction (fetch writes each board in one)."""
    todo = await conn.execute_fetchall(
        "SELECT p.id, p.job_key, p.company, p.title FROM grouping_todo AS t "
        "JOIN postings AS p ON p.id = t.posting_id")
    if not todo:          # most boards: their new postings were placed as stored
        return 0
    await conn.execute("DELETE FROM grouping_todo")
    keyed: dict[str, list[int]] = {}
    unkeyed = []          # written by something other than upsert: the key is made here
    for row in todo:
        key = row["job_key"]
        if not key:
            key = samejob.stored_key(row["company"], row["title"])
            unkeyed.append((key, row["id"]))
        if key != samejob.NO_KEY:
            keyed.setdefault(key, []).append(row["id"])
    await conn.executemany("UPDATE postings SET job_key = ? WHERE id = ?", unkeyed)
    shared = {key: found for key, found in (await _under_keys(conn, keyed)).items()
              if len(found) > 1}
    if not shared:
        return 0
    apart = {(row[0], row[1]) for row in await conn.execute_fetchall(
        "SELECT a, b FROM postings_apart")}
    work = _Pass(conn, apart)
    await work.settle(shared, keyed)
    return work.joined


_QUEUE = "INSERT OR IGNORE INTO grouping_todo (posting_id) VALUES (?)"


class BoardGroups:
    """One board's write as grouping sees it: its new postings placed as they are
    stored, and whether it left the pass work (upsert says so)."""

    def __init__(self, conn: aiosqlite.Connection, board_id: int) -> None:
        self.conn = conn
        self.board_id = board_id
        self.work = False
        self.placed = False          # a new posting joined a group as it was stored

    async def place(self, fresh: Sequence[tuple[str, str | None]]) -> list[Placed]:
        """`place` for this board's new postings."""
        placed = await place(self.conn, self.board_id, fresh)
        self.placed = self.placed or any(where.leader is not None for where in placed)
        return placed

    async def place_alerts(self, fresh: Sequence[tuple[str, str]]) -> list[Placed]:
        """`place_alerts` for this (alert) board's new cards."""
        return await place_alerts(self.conn, self.board_id, fresh)

    async def later(self, posting_id: int) -> None:
        """Leave a stored posting to the pass (one `place` could not settle, or one
        stored without being placed)."""
        await self.conn.execute(_QUEUE, (posting_id,))
        self.work = True

    def changed(self) -> None:
        """Postings changed or closed: the schema's triggers put them on the work list."""
        self.work = True


class Grouping:
    """A fetch's one way into grouping: made once per fetch, and `board()` once per
    board written, inside that board's transaction."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        self._leftovers = True       # other writers' rows may be on the work list
        self._cards: bool | None = None   # whether any job alert's card is stored

    @asynccontextmanager
    async def board(self, board_id: int, *, cards: bool = False
                    ) -> AsyncIterator[BoardGroups]:
        """The first board first settles what other writers left on the work list (so
        the groups its postings are placed in are current); the pass runs after a board
        that left it work. Groups led by a job alert's card take their board posting's
        text after a board that placed or changed postings (`cards`: an alert
        sender's board, whose cards may have joined one), once any card is stored."""
        if self._leftovers:
            await assign(self.conn)
        board = BoardGroups(self.conn, board_id)
        yield board
        if board.work:
            await assign(self.conn)
        self._leftovers = False
        if cards:
            self._cards = True
        if (board.work or board.placed or cards) and await self._any_cards():
            await inherit_texts(self.conn)

    async def _any_cards(self) -> bool:
        if self._cards is None:      # asked once a fetch: most workspaces have none
            row = await (await self.conn.execute(
                "SELECT 1 FROM boards WHERE source = ? LIMIT 1", (ALERT_SOURCE,))).fetchone()
            self._cards = row is not None
        return self._cards


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


__all__ = ["ALERT_SOURCE", "ALONE", "MAX_CANDIDATES", "BoardGroups", "Grouping", "Placed",
           "Split", "assign", "inherit_texts", "place", "place_alerts", "split"]
