"""Benchmark: the digest at scale (issue 30). Target: < 500 ms.

100,000 postings (a third of them judged and scored, half of those at good or better,
every tenth one in a group led by another), 5,000 applications with 50,000 history
rows and 20,000 linked messages (tests/perf/bench_tracker.py's set), 2,000 pending
proposals, and 20,000 jobs a channel announced before. Measured: `jobtracker digest
--json` and `jobtracker digest` in process (connect, read every section, narrow per
channel, print), the read alone (`notify.digest.build`), medians of 7; and one
`digest --send` to the file channel (the archive, and 14,250 jobs recorded).
With `--base COMMIT`, also the read against that commit's jobtracker/notify/digest.py
(`git show`, loaded as a module of its own) on the same database in the same process,
rounds alternating, best of each compared: what a change to the digest's reading costs.
Run: PYTHONPATH=. .venv/bin/python tests/perf/bench_digest.py [--base COMMIT]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import io
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from jobtracker import store
from jobtracker.cli import main
from jobtracker.notify.digest import build
from jobtracker.run.setup import config_of
from jobtracker.workspace import Workspace
from tests.db import raw_connect
from tests.perf import bench_tracker

POSTINGS, JUDGED, PROPOSALS, ANNOUNCED = 100_000, 33_000, 2_000, 20_000
TARGET = 0.5
VERDICTS = ("strong", "good", "partial", "poor")


def seed(ws: Workspace) -> None:
    bench_tracker.seed(ws)      # postings 1..5,000 with the applications, history, mail
    first = bench_tracker.APPS + 1
    with raw_connect(ws.db) as conn:
        conn.executemany(
            "INSERT INTO postings (id, board_id, external_id, company, title, location, url, "
            "title_level, first_seen, last_seen, job_key, description) "
            "VALUES (?, ?, ?, ?, ?, 'Remote', ?, 'senior', '2026-11-01T00:00:00Z', "
            "'2026-11-30T00:00:00Z', ?, ?)",
            [(i, i % 20 + 1, f"x{i}", f"Company {i % 3000}", f"Senior Engineer {i}",
              f"https://x/{i}", f"k{i}", bench_tracker.DESCRIPTION)
             for i in range(first, POSTINGS + 1)])
        conn.execute("UPDATE postings SET lead_id = id - 1 WHERE id % 10 = 0 AND id > ?",
                     (first,))
        judged = range(1, POSTINGS + 1, POSTINGS // JUDGED)
        conn.executemany(
            "INSERT INTO rankings (posting_id, unit_key, prose_hash, verdict, ranked_at) "
            "VALUES (?, ?, '', ?, '2026-11-30T03:00:00Z')",
            [(i, f"j:{i}", VERDICTS[i % 4]) for i in judged])
        conn.executemany(
            "INSERT INTO scores (posting_id, score, parts, scored_at) "
            "VALUES (?, ?, '{}', '2026-11-30T03:00:00Z')",
            [(i, (i % 997) / 997) for i in judged])
        conn.executemany(
            "INSERT INTO proposals (kind, task, unit_key, payload, summary, created_at) "
            "VALUES ('status', 'inbox', ?, '{}', ?, '2026-11-30T03:00:00Z')",
            [(f"m:{n}", f"Company {n}: applied -> rejected") for n in range(PROPOSALS)])
        conn.execute("INSERT INTO digests (id, sent_at, delivered) "
                     "VALUES (1, '2026-11-29T07:00:00Z', '[\"email\"]')")
        conn.executemany(
            "INSERT INTO digest_announced (channel, posting_id, digest_id) "
            "VALUES ('email', ?, 1)", [(i,) for i in list(judged)[:ANNOUNCED]])


def timed(runs: int, body: object) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        body()    # type: ignore[operator]
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def base_digest(commit: str, folder: Path) -> object:
    """jobtracker/notify/digest.py as it was at `commit`, loaded under a name of its own."""
    text = subprocess.run(["git", "show", f"{commit}:jobtracker/notify/digest.py"],
                          capture_output=True, text=True, check=True).stdout
    (folder / "digest_base.py").write_text(text)
    spec = importlib.util.spec_from_file_location("digest_base", folder / "digest_base.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["digest_base"] = module     # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def main_bench() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", help="also time the read at this commit, in the same run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ws = Workspace(Path(tmp) / "home")
        ws.init()
        (ws.home / "profile.yaml").write_text("prose: Senior engineer.\nlevels: [senior]\n")
        (ws.home / "config.yaml").write_text(
            "llm: {url: null}\nnotify:\n  to: [file, email]\n"
            "  email: {to: ada@example.org, host: 127.0.0.1, tls: false}\n")
        seed(ws)
        config, profile = config_of(ws), ws.profile()

        async def read() -> int:
            async with store.connect(ws.db) as conn:
                digest = await build(conn, ws.db, profile=profile, followup=config.followup,
                                     min_verdict="good", channels=("file", "email"),
                                     now="2026-12-01T07:00:00Z")
            return len(digest.matches)

        def command(*args: str) -> None:
            with contextlib.redirect_stdout(io.StringIO()):
                assert main(["--home", str(ws.home), "digest", *args]) == 0

        found = asyncio.run(read())
        if args.base:
            old = base_digest(args.base, Path(tmp))

            async def read_with(module: object) -> int:
                async with store.connect(ws.db) as conn:
                    digest = await module.build(  # type: ignore[attr-defined]
                        conn, ws.db, profile=profile, followup=config.followup,
                        min_verdict="good", channels=("file", "email"),
                        now="2026-12-01T07:00:00Z")
                return len(digest.matches)

            # Wall time and CPU time (the process's, SQLite's thread included): on a
            # shared machine the wall clock mostly measures the wait for a core.
            rounds: dict[tuple[str, str], list[float]] = {}
            for _ in range(9):
                for name, module in (("base", old), ("now", sys.modules[build.__module__])):
                    wall, cpu = time.perf_counter(), time.process_time()
                    asyncio.run(read_with(module))
                    rounds.setdefault((name, "wall"), []).append(time.perf_counter() - wall)
                    rounds.setdefault((name, "cpu"), []).append(time.process_time() - cpu)
            for clock in ("wall", "cpu"):
                for how, pick in (("median", statistics.median), ("best", min)):
                    base_t, now_t = (pick(rounds[(n, clock)]) for n in ("base", "now"))
                    ratio = now_t / base_t
                    print(f"the read, {args.base} / now, 9 alternating rounds, {how} {clock}: "
                          f"{base_t * 1000:.0f} / {now_t * 1000:.0f} ms, ratio {ratio:.3f} "
                          f"(target <= 1.05: {'met' if ratio <= 1.05 else 'not met'})")
        alone = timed(7, lambda: asyncio.run(read()))
        whole = timed(7, lambda: command("--json"))
        as_text = timed(7, command)
        # Once: a send records every job it announced, and the next one has none of them.
        (ws.home / "config.yaml").write_text("llm: {url: null}\nnotify: {to: [file]}\n")
        sent = timed(1, lambda: command("--send"))
        print(f"{POSTINGS:,} postings ({JUDGED:,} judged), {bench_tracker.APPS:,} applications, "
              f"{PROPOSALS:,} proposals waiting; {found:,} new matches at good or better")
        for label, took in (("digest --json, in process", whole), ("digest (text), in process",
                            as_text), ("digest --send (file), once", sent),
                            ("the read alone", alone)):
            print(f"{label:<26} {took * 1000:7.1f} ms  (target < {TARGET * 1000:.0f} ms: "
                  f"{'ok' if took < TARGET else 'MISSED'}, ratio {took / TARGET:.2f})")


if __name__ == "__main__":
    sys.exit(main_bench())
