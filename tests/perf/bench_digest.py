"""Benchmark: the digest at scale (issue 30). Target: < 500 ms.

100,000 postings (a third of them judged and scored, half of those at good or better,
every tenth one in a group led by another), 5,000 applications with 50,000 history
rows and 20,000 linked messages (tests/perf/bench_tracker.py's set), 2,000 pending
proposals, and 20,000 jobs a channel announced before. Measured: `jobtracker digest
--json` and `jobtracker digest` in process (connect, read every section, narrow per
channel, print), the read alone (`notify.digest.build`), medians of 7; and one
`digest --send` to the file channel (the archive, and 14,250 jobs recorded).
Run: PYTHONPATH=. .venv/bin/python tests/perf/bench_digest.py
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

from jobtracker import store
from jobtracker.cli import main
from jobtracker.notify.digest import build
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


def main_bench() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        ws = Workspace(Path(tmp) / "home")
        ws.init()
        (ws.home / "profile.yaml").write_text("prose: Senior engineer.\nlevels: [senior]\n")
        (ws.home / "config.yaml").write_text(
            "llm: {url: null}\nnotify:\n  to: [file, email]\n"
            "  email: {to: ada@example.org, host: 127.0.0.1, tls: false}\n")
        seed(ws)
        config, profile = ws.config(), ws.profile()

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
