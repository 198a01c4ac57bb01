"""Benchmark: the judge task's derived queue and a full rescore at scale.

Run from the repository root:

    .venv/bin/python tests/perf/bench_judge.py [--postings 100000] [--judged 20000] [--chars 5000]

Seeds postings (a quarter of them matches, descriptions of --chars characters),
ranks --judged of the matches with up-to-date hashes, then times judge.count(),
judge.pending(limit=20) and scoring.rescore(). The queue's cost is dominated by
recomputing description_hash() for every judged match on each survey (the
comparison must happen in SQL, before the LIMIT); it grows with judged postings
times description length.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from jobtracker import store  # noqa: E402
from jobtracker.config import Config, Profile  # noqa: E402
from jobtracker.ranking import scoring  # noqa: E402
from jobtracker.tasks import Context  # noqa: E402
from jobtracker.tasks.judge import JudgeTask  # noqa: E402

PROFILE = Profile(prose="Senior Python engineer.", levels=("senior", "staff"),
                  locations=("remote", "berlin"), exists=True)
LEVELS = ("senior", "staff", "junior", "UNCERTAIN")
PLACES = ("Berlin", "Remote", "Paris", "New York")


async def seed(conn, postings: int, chars: int) -> None:
    filler = ("Python services, distributed systems. " * (chars // 38 + 1))[:chars]
    rows = [(i, f"e{i}", f"{LEVELS[i % 4]} Engineer {i}", PLACES[(i // 4) % 4], LEVELS[i % 4],
             f"{i} {filler}", f"2026-08-{1 + i % 28:02d}T00:00:00Z")
            for i in range(1, postings + 1)]
    async with store.write(conn):
        await conn.execute("INSERT INTO boards (id, source, token) VALUES (1, 'greenhouse', 'a')")
        await conn.executemany(
            "INSERT INTO postings (id, board_id, external_id, title, location, title_level, "
            "description, first_seen, last_seen) VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?7)", rows)


async def timed(label: str, call):
    start = time.perf_counter()
    result = await call
    print(f"{label:<28} {(time.perf_counter() - start) * 1000:8.0f} ms   ({result})")
    return result


async def main(args: argparse.Namespace) -> None:
    task = JudgeTask()
    ctx = Context(home=Path("."), config=Config(), profile=PROFILE, now="2026-09-01T00:00:00Z")
    with tempfile.TemporaryDirectory() as folder:
        async with store.connect(Path(folder) / "bench.db") as conn:
            await seed(conn, args.postings, args.chars)
            judged = await task.pending(conn, ctx, limit=args.judged)
            async with store.write(conn):
                await conn.executemany(
                    "INSERT INTO rankings (posting_id, unit_key, prose_hash, description_hash, "
                    "verdict, ranked_at) VALUES (?, ?, ?, ?, 'good', ?)",
                    [(u.subject, u.unit_key, u.data["prose_hash"], u.data["description_hash"],
                      ctx.now) for u in judged])
            print(f"{args.postings} postings, {len(judged)} judged matches, "
                  f"{args.chars}-char descriptions")
            await timed("judge.count()", task.count(conn, ctx))
            await timed("judge.pending(limit=20)", _length(task.pending(conn, ctx, limit=20)))
            await timed("scoring.rescore()", scoring.rescore(conn, PROFILE, ctx.now))


async def _length(call) -> int:
    return len(await call)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postings", type=int, default=100_000)
    parser.add_argument("--judged", type=int, default=20_000)
    parser.add_argument("--chars", type=int, default=5000)
    asyncio.run(main(parser.parse_args()))
