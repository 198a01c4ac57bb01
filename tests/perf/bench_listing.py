"""Benchmark: `jobtracker matches --json` and `jobtracker matches` (the table) at
100,000 postings, as processes, against another commit in the same run (issue 41,
"Listing"; target: at most half of the base's time).

One database (bench_learn's 100,000 judged postings, bench_contacts' groups: a fifth
of the jobs have a repost or an aggregator's copy; 1,000 dismissed). The base is that
commit's `jobtracker/` and `tui/` (`git archive`), run on a copy of the database taken
back to that commit's schema (the tables and indexes of later migrations dropped, its
`user_version`). Each round runs the four commands in turn, base and now alternating;
the best of the rounds is compared, wall time and CPU time (the child's user + system:
what a busy machine changes least). Output goes to /dev/null for both.

Run: .venv/bin/python tests/perf/bench_listing.py --base a6b961a [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT)]

from jobtracker.workspace import Workspace  # noqa: E402
from tests.perf.bench_contacts import add_groups  # noqa: E402
from tests.perf.bench_learn import seed  # noqa: E402
from tests.perf.bench_startup import tree_at  # noqa: E402

TARGET = 0.5
# What `jobtracker matches` runs, in a fresh interpreter from the tree in its cwd.
RUN = "import sys; from jobtracker.cli import main; sys.exit(main(sys.argv[1:]))"
FRESH = ("import asyncio, sys; from pathlib import Path; from jobtracker import store\n"
         "async def go():\n"
         "    async with store.connect(Path(sys.argv[1])):\n"
         "        pass\n"
         "asyncio.run(go())")


def schema_of(tree: Path, folder: Path) -> tuple[set[tuple[str, str]], int]:
    """The (type, name) of every table and index a fresh database made by `tree` has,
    and its user_version."""
    db = folder / "fresh.db"
    subprocess.run([sys.executable, "-c", FRESH, str(db)], cwd=tree, check=True)
    with sqlite3.connect(db) as conn:
        names = {(str(t), str(n)) for t, n in conn.execute(
            "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")}
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    return names, version


def back_to(db: Path, names: set[tuple[str, str]], version: int) -> None:
    """Drop what later migrations added; say the schema is `version`."""
    with sqlite3.connect(db) as conn:
        extra = [(t, n) for t, n in conn.execute(
            "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
            "AND type IN ('table', 'index', 'trigger', 'view')") if (t, n) not in names]
        for kind, name in sorted(extra, key=lambda item: item[0] != "index"):
            conn.execute(f'DROP {kind.upper()} IF EXISTS "{name}"')
        conn.execute(f"PRAGMA user_version = {version}")


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(tree: Path, home: Path, argv: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one `jobtracker matches ...` process."""
    cpu = cpu_of_children()
    started = time.perf_counter()
    with open("/dev/null", "wb") as sink:
        subprocess.run([sys.executable, "-c", RUN, "--home", str(home), "matches", *argv],
                       stdout=sink, cwd=tree, check=True)
    return time.perf_counter() - started, cpu_of_children() - cpu


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", default="main", help="the commit to compare with")
    parser.add_argument("--postings", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        ws = Workspace(folder / "now")
        ws.init()
        seed(ws, args.postings, 1_000, 0)
        add_groups(ws, args.postings)
        asyncio.run(_migrated(ws))
        base_tree = tree_at(args.base, folder / "tree")
        shutil.copytree(ws.home, folder / "base")
        back_to(folder / "base" / ws.db.name, *schema_of(base_tree, folder))
        homes = {"base": (base_tree, folder / "base"), "now": (ROOT, ws.home)}
        commands = {"matches --json": ["--json"], "matches": []}
        times: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for _ in range(args.rounds):
            for label, argv in commands.items():
                for name, (tree, home) in homes.items():
                    times.setdefault((label, name), []).append(run_once(tree, home, argv))
    print(f"{args.postings:,} postings (a fifth of the jobs in groups), best of "
          f"{args.rounds} rounds, base {args.base} and now alternating, as processes")
    print(f"{'command':<16} {'base wall':>9} {'now wall':>9} {'ratio':>6}   "
          f"{'base CPU':>9} {'now CPU':>9} {'ratio':>6}   target <= {TARGET}")
    for label in commands:
        base_wall, now_wall = (min(w for w, _ in times[(label, n)]) for n in ("base", "now"))
        base_cpu, now_cpu = (min(c for _, c in times[(label, n)]) for n in ("base", "now"))
        met = now_cpu / base_cpu <= TARGET and now_wall / base_wall <= TARGET
        print(f"{label:<16} {base_wall:8.2f}s {now_wall:8.2f}s {now_wall / base_wall:6.3f}   "
              f"{base_cpu:8.2f}s {now_cpu:8.2f}s {now_cpu / base_cpu:6.3f}   "
              f"{'met' if met else 'not met'}")
    return 0


async def _migrated(ws: Workspace) -> None:
    """Open the store once, so any migration of this tree has run before the copy."""
    from jobtracker import store

    async with store.connect(ws.db):
        pass


if __name__ == "__main__":
    sys.exit(main())
