"""Benchmark: the derived queue at scale (issue 4, design-notes "Performance").

100,000 postings (5 KB descriptions; a fifth UNCERTAIN, 20,000 judged and scored) in a real
workspace; then a full `survey()` (every task's pending count) and
`jobtracker work --dry-run` end to end, as a process. Targets: survey < 150 ms,
dry run < 1 s. Run: .venv/bin/python tests/perf/bench_survey.py
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from jobtracker import runner, store
from jobtracker.workspace import Workspace

N = 100_000
JUDGED = 20_000


def seed(ws: Workspace) -> None:
    asyncio.run(_create(ws))
    rng = random.Random(7)
    words = ["python", "distributed", "systems", "platform", "team", "remote", "build"]
    with sqlite3.connect(ws.db) as conn:
        conn.create_function("description_hash", 1, store.description_hash, deterministic=True)
        conn.execute("INSERT INTO boards (id, source, token, company) "
                     "VALUES (1, 'greenhouse', 'a', 'A')")
        rows = []
        for i in range(1, N + 1):
            level = "UNCERTAIN" if i % 5 == 0 else rng.choice(["senior", "staff", "junior", "mid"])
            text = " ".join(rng.choice(words) for _ in range(800))
            place = rng.choice(["Remote", "Berlin", "Paris"])
            rows.append((i, f"e{i}", "Acme", f"Engineer {i}", place, level, text,
                         "2026-11-01T00:00:00Z"))
        conn.executemany(
            "INSERT INTO postings (id, board_id, external_id, company, title, location, "
            "title_level, description, first_seen, last_seen) "
            "VALUES (?1, 1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8)", rows)
        judged = conn.execute(
            "SELECT id, description_hash(description) FROM postings WHERE title_level IN "
            "('senior','staff') LIMIT ?", (JUDGED,)).fetchall()
        prose = runner.load_setup(ws).profile.prose_hash
        conn.executemany(
            "INSERT INTO rankings (posting_id, unit_key, prose_hash, description_hash, verdict, "
            "reasons, meets, misses, model, ranked_at) VALUES (?, ?, ?, ?, 'good', '[]', '[]', "
            "'[]', 'm', 't')", [(pid, f"p{pid}:{prose}:{h}", prose, h) for pid, h in judged])
        # Judged postings are scored, so tailor has scored matches to count too.
        conn.executemany(
            "INSERT INTO scores (posting_id, score, parts, scored_at) VALUES (?, ?, '{}', 't')",
            [(pid, rng.random()) for pid, _ in judged])


async def _create(ws: Workspace) -> None:
    async with store.connect(ws.db):
        pass


async def time_survey(ws: Workspace) -> list[float]:
    setup = runner.load_setup(ws)
    times = []
    async with store.connect(ws.db) as conn:
        ctx = setup.context(runner.now_iso())
        for _ in range(7):
            started = time.perf_counter()
            states = await runner.survey(conn, ctx, setup.tasks)
            times.append(time.perf_counter() - started)
    print("  queue:", ", ".join(f"{s.name}={s.pending}" for s in states))
    return times


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        ws = Workspace(Path(tmp) / "home")
        ws.init()
        (ws.home / "profile.yaml").write_text(
            "prose: Senior backend engineer\nlevels: [senior, staff]\n"
            "locations: [remote, berlin]\nexclude: [crypto]\n")
        started = time.perf_counter()
        seed(ws)
        print(f"seeded {N:,} postings in {time.perf_counter() - started:.1f} s")
        times = asyncio.run(time_survey(ws))
        best, median = min(times), statistics.median(times)
        print(f"survey(): best {best * 1000:.0f} ms, median {median * 1000:.0f} ms "
              f"(target 150 ms: ratio {median / 0.150:.2f})")
        runs = []
        for _ in range(3):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "jobtracker", "--home", str(ws.home), "work",
                            "--dry-run"], check=True, capture_output=True)
            runs.append(time.perf_counter() - started)
        print(f"work --dry-run end to end: median {statistics.median(runs):.2f} s "
              f"(target 1 s: ratio {statistics.median(runs):.2f})")


if __name__ == "__main__":
    main()
