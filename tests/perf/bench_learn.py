"""Benchmark: learning at scale (issue 29).

1. `learn` over 5,000 dismissals and 5,000 applications (target < 1 s): the
   decisions read, every rule run, the suggestions checked against profile.yaml and
   stored as proposals; then again, when every suggestion already waits.
2. `matches --json` with `why` at 100,000 judged postings, against the code before
   `why` and dismissals (`git show <base>:jobtracker/ranking/matches.py`, loaded as
   a module of its own) on the same database in the same run (target: ratio ≤ 1.10).
   Rounds alternate, best of each is compared.
Run: .venv/bin/python tests/perf/bench_learn.py [--base main~N]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from jobtracker import store
from jobtracker.clock import now_iso
from jobtracker.config import load_profile
from jobtracker.learning.dismissals import REASONS
from jobtracker.learning.learn import learn
from jobtracker.ranking import matches as current
from jobtracker.ranking import scoring
from jobtracker.workspace import Workspace

NOW = "2026-09-01T00:00:00Z"
WORDS = ["Principal", "Sales", "Backend", "Data", "Platform", "Go", "Rust", "Frontend"]


def seed(ws: Workspace, postings: int, dismissals: int, applications: int) -> None:
    asyncio.run(_create(ws))
    profile = load_profile(ws.home / "profile.yaml")
    rng = random.Random(29)
    with sqlite3.connect(ws.db) as conn:
        conn.create_function("description_hash", 1, store.description_hash, deterministic=True)
        conn.execute("INSERT INTO boards (id, source, token, company) VALUES (1, 'gh', 'x', 'X')")
        rows = []
        for i in range(1, postings + 1):
            title = f"Senior {rng.choice(WORDS)} {rng.choice(WORDS)} Engineer"
            rows.append((i, f"e{i}", f"Company {i % 700}", title, "Berlin", 0,
                         f"https://jobs.example/{i}", f"{title}: Python.", "senior", NOW, NOW))
        conn.executemany(
            "INSERT INTO postings (id, board_id, external_id, company, title, location, remote, "
            "url, description, title_level, first_seen, last_seen) "
            "VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        conn.execute(
            "INSERT INTO rankings (posting_id, unit_key, prose_hash, description_hash, verdict, "
            "reasons, model, ranked_at) SELECT id, 'k', ?, description_hash, "
            "CASE id % 4 WHEN 0 THEN 'strong' WHEN 1 THEN 'good' WHEN 2 THEN 'partial' "
            "ELSE 'poor' END, '[]', 'm', ? FROM postings", (profile.prose_hash, NOW))
        # Most dismissals at random; the first 20 companies' all for `company`, so the
        # rules have something to find as well as a lot to read.
        conn.executemany(
            "INSERT INTO dismissals (posting_id, reason, note, verdict, dismissed_at) "
            "VALUES (?, ?, '', 'good', ?)",
            [(i, "company" if i % 700 < 20 else rng.choice(REASONS), NOW)
             for i in range(1, dismissals + 1)])
        conn.executemany(
            "INSERT INTO applications (posting_id, company, status, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?)",
            [(i, f"Company {i % 700}", rng.choice(["applied", "screening", "rejected"]), NOW,
              NOW) for i in range(dismissals + 1, dismissals + applications + 1)])
    asyncio.run(_score(ws, profile))


async def _create(ws: Workspace) -> None:
    async with store.connect(ws.db):
        pass


async def _score(ws: Workspace, profile: object) -> None:
    async with store.connect(ws.db) as conn, store.write(conn):
        await scoring.score_postings(conn, profile, NOW)   # type: ignore[arg-type]


async def time_learn(ws: Workspace) -> tuple[float, int]:
    start = time.perf_counter()
    async with store.connect(ws.db) as conn:
        found = await learn(conn, ws.home, ws.profile(), now_iso())
    return time.perf_counter() - start, len(found.made) + found.waiting


def base_module(base: str) -> object:
    """The matches module as it was at `base`, loaded under a name of its own."""
    text = subprocess.run(["git", "show", f"{base}:jobtracker/ranking/matches.py"],
                          capture_output=True, text=True, check=True).stdout
    folder = Path(tempfile.mkdtemp())
    (folder / "matches_base.py").write_text(text)
    spec = importlib.util.spec_from_file_location("matches_base", folder / "matches_base.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["matches_base"] = module     # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def time_matches(module: object, ws: Workspace) -> float:
    profile = ws.profile()
    start = time.perf_counter()
    found = asyncio.run(module.load_matches(ws.db, profile))   # type: ignore[attr-defined]
    # What every --json prints (jobtracker/cli/base.py: print_json).
    json.dumps([m.to_json() for m in found], ensure_ascii=False, check_circular=False)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", default="main", help="the commit to compare matches with")
    parser.add_argument("--postings", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ws = Workspace(Path(tmp) / "learn")
        ws.init()
        seed(ws, 20_000, 5_000, 5_000)
        first, made = asyncio.run(time_learn(ws))
        again, _ = asyncio.run(time_learn(ws))
        print(f"learn, 5,000 dismissals + 5,000 applications: {first * 1000:.0f} ms "
              f"({made} suggestion(s)); again, all waiting: {again * 1000:.0f} ms "
              f"(target < 1000 ms)")
        big = Workspace(Path(tmp) / "matches")
        big.init()
        seed(big, args.postings, 1_000, 0)
        old = base_module(args.base)
        rounds: dict[str, list[float]] = {"base": [], "now": []}
        for _ in range(3):
            rounds["base"].append(time_matches(old, big))
            rounds["now"].append(time_matches(current, big))
        best = {name: min(times) for name, times in rounds.items()}
        print(f"matches --json at {args.postings:,} postings: base {best['base'] * 1000:.0f} ms,"
              f" with why {best['now'] * 1000:.0f} ms, ratio {best['now'] / best['base']:.3f} "
              "(target ≤ 1.10)")


if __name__ == "__main__":
    sys.exit(main())
