"""Benchmark: what grouping adds to storing a fetch (target: < 2 s per 100,000 postings).

Run from the repository root:

    .venv/bin/python tests/perf/bench_grouping.py [--postings 100000] [--dup 0.1]

Stores the same listings twice, each into a new database, the way a fetch does
(`upsert.apply_board`, one transaction per board of 100 postings):

- without: the grouping triggers and the job_key index dropped, no key computed,
           no posting placed in a group, no grouping pass
- with:    the schema as shipped: new postings placed in their groups as they are
           stored, and the pass after a board that left it work, through the door a
           fetch uses (`groups.Grouping`)

Nine boards in ten are one company's ATS board; every tenth is an aggregator. A
share `--dup` of all postings are aggregator items copying an earlier ATS posting
(the same text plus a link-back line, " (Remote)" on the title), so the pass really
compares descriptions; the rest are distinct jobs with ~2.5 KB descriptions (half
with typographic quotes or dashes, which make the text non-ASCII), a tenth of them
under a title their company already uses. The two alternate
`--rounds` times, each into a new database; prints the best time of each (a shared
machine only ever adds time), wall clock and the process's CPU time (SQLite's thread
included; less moved by other work on the machine), the difference per 100,000
postings, and how many copies were grouped.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from jobtracker import store  # noqa: E402
from jobtracker.postings import groups, upsert  # noqa: E402
from jobtracker.postings.upsert import apply_board, ensure_board  # noqa: E402
from jobtracker.sources import NormalizedPosting  # noqa: E402

TARGET_SECONDS = 2.0
PER_BOARD = 100
NOW = "2026-11-30T00:00:00Z"
GROUPING_SCHEMA = ("postings_job_open_on_insert", "postings_job_open_on_update",
                   "postings_regroup_on_insert", "postings_regroup_on_change",
                   "postings_regroup_on_close")


class Counts:
    new = updated = reopened = closed = unchanged = 0


def listings(total: int, dup_share: float) -> list[list[NormalizedPosting]]:
    """Boards of 100: nine in ten are one company's ATS board; every tenth is an
    aggregator whose items copy an earlier ATS posting (`dup_share` of all postings)
    or are jobs of their own at companies of every kind."""
    rng = random.Random(17)
    vocabulary = [f"w{i}" for i in range(3000)]
    titles = ["Backend Engineer", "Data Engineer", "Product Designer", "SRE", "iOS Engineer",
              "Engineering Manager", "Frontend Engineer", "ML Engineer"]
    copy_share = min(dup_share * 10, 1.0)     # of an aggregator's items

    def job(number: int, company: str) -> NormalizedPosting:
        title = (f"{rng.choice(titles)} {rng.randrange(50)}" if rng.random() > 0.1
                 else rng.choice(titles))
        text = " ".join(rng.choice(vocabulary) for _ in range(400))
        if rng.random() < 0.5:   # typographic punctuation, as half of real postings have
            text = f"We’re hiring — {text}"
        return NormalizedPosting(external_id=f"e{number}", title=title, company=company,
                                 url=f"https://ats.example/{number}", description=text)

    made: list[NormalizedPosting] = []
    boards: list[list[NormalizedPosting]] = []
    for board, first in enumerate(range(0, total, PER_BOARD)):
        numbers = range(first, min(first + PER_BOARD, total))
        if board % 10 != 9 or not made:
            batch = [job(i, f"Company {board}") for i in numbers]
            made += batch
        else:
            batch = []
            for i in numbers:
                if rng.random() < copy_share:
                    source = rng.choice(made)
                    batch.append(NormalizedPosting(
                        external_id=f"a{i}", title=source.title + " (Remote)",
                        company=source.company + ", Inc.", url=f"https://agg.example/{i}",
                        description=f"{source.description}\n\nVia the aggregator: link {i}"))
                else:
                    batch.append(job(i, f"Company {rng.randrange(total)}"))
        boards.append(batch)
    return boards


async def _alone(conn: object, board_id: int, fresh: list) -> list[groups.Placed]:
    return [groups.ALONE] * len(fresh)


async def store_all(db: Path, boards: list[list[NormalizedPosting]], grouping: bool
                    ) -> tuple[float, float]:
    make_key, place = upsert._key, groups.place
    if not grouping:
        upsert._key = lambda values: ""    # type: ignore[assignment]
        groups.place = _alone              # type: ignore[assignment]
    try:
        return await _store_all(db, boards, grouping)
    finally:
        upsert._key, groups.place = make_key, place   # type: ignore[assignment]


members: list[int] = []    # postings grouped under another, per run with grouping


async def _store_all(db: Path, boards: list[list[NormalizedPosting]], grouping: bool
                     ) -> tuple[float, float]:
    """Wall seconds, and CPU seconds of the whole process (SQLite's thread included)."""
    async with store.connect(db) as conn:
        if not grouping:
            for trigger in GROUPING_SCHEMA:
                await conn.execute(f"DROP TRIGGER {trigger}")
            await conn.execute("DROP INDEX postings_by_job_key")
            await conn.commit()
        started, cpu = time.perf_counter(), time.process_time()
        door = groups.Grouping(conn)
        for number, batch in enumerate(boards):
            async with store.write(conn):
                board_id = await ensure_board(conn, "greenhouse", f"b{number}", "", configured=True)
                if not grouping:
                    await apply_board(conn, groups.BoardGroups(conn, board_id), "", batch, NOW,
                                      Counts())
                    continue
                # As fetch runs it: the pass only when the board left it work.
                async with door.board(board_id) as board:
                    await apply_board(conn, board, "", batch, NOW, Counts())
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        if grouping:
            row = await (await conn.execute(
                "SELECT COUNT(*) FROM postings WHERE lead_id IS NOT NULL")).fetchone()
            members.append(row[0])
    return seconds, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postings", type=int, default=100_000)
    parser.add_argument("--dup", type=float, default=0.1)
    parser.add_argument("--rounds", type=int, default=3,
                        help="alternate the two this many times; the best of each counts")
    args = parser.parse_args()
    boards = listings(args.postings, args.dup)
    copies = sum(p.external_id.startswith("a") for batch in boards for p in batch)
    print(f"{args.postings} postings on {len(boards)} boards, {copies} aggregator copies")
    times: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
    with tempfile.TemporaryDirectory() as tmp:
        for round_ in range(args.rounds):
            for grouping in (False, True):
                db = Path(tmp) / f"{'with' if grouping else 'without'}{round_}.db"
                times[grouping].append(asyncio.run(store_all(db, boards, grouping)))
                db.unlink()
    print(f"grouped as members: {members[0]} (of {copies} copies)")
    scale = 100_000 / args.postings
    for measure, index in (("wall", 0), ("CPU", 1)):
        best = {grouping: min(run[index] for run in runs) for grouping, runs in times.items()}
        for label, grouping in (("without grouping", False), ("with grouping", True)):
            runs = ", ".join(f"{run[index]:.2f}" for run in times[grouping])
            print(f"{measure:>4} {label:<17} {best[grouping]:6.2f} s  (best of {runs})")
        added = (best[True] - best[False]) * scale
        print(f"{measure:>4} grouping adds {added:.2f} s per 100,000 postings "
              f"(target {TARGET_SECONDS:.0f} s: ratio {added / TARGET_SECONDS:.2f})")


if __name__ == "__main__":
    main()
