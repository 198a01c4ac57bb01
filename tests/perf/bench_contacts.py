"""Benchmark: contacts and posting signals in `matches --json` at scale (issue 43).

One database of 100,000 judged postings (bench_learn's), with a fifth of them in
groups (members on the same board and on an aggregator: reposts and copies). Timed,
best of each, rounds alternating, on the same database in the same run:

1. `matches --json` as it was at `--base` (no signals, no contacts; its matches.py
   loaded as a module of its own), and as it is now with no contacts: the signals'
   cost;
2. now, with 10,000 contacts at 4,000 companies, 300 of them companies of postings
   (a member's connections spread over many employers; about four in ten matches then
   name someone): the contacts' cost, target within 5%;
3. now, with 10,000 contacts all at companies of postings (every match names eleven
   people): the worst case, printed for the record.

"Now" is what the command runs (ranking/matches.py: `load_listing`, then `json_text`
for `--json`; the table's read for "list"); the base, its `load_matches`.

Run: .venv/bin/python -m tests.perf.bench_contacts [--base main] [--postings 100000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

from jobtracker import store
from jobtracker.contacts.people import company_key
from jobtracker.ranking import matches as current
from jobtracker.workspace import Workspace
from tests.perf.bench_learn import NOW, base_module, seed


def add_groups(ws: Workspace, postings: int) -> None:
    """Members for a fifth of the leaders: every tenth a repost on its board, every
    tenth (offset) a copy on an aggregator."""
    with sqlite3.connect(ws.db) as conn:
        conn.create_function("description_hash", 1, store.description_hash, deterministic=True)
        conn.execute("INSERT INTO boards (id, source, token, company, aggregator) "
                     "VALUES (2, 'feed', 'copies', '', 1)")
        rows = []
        for lead in range(1, postings + 1, 5):
            board = 1 if lead % 10 == 1 else 2
            rows.append((postings + lead, board, f"m{lead}", f"Company {lead % 700}",
                         "Copy", f"https://jobs.copycat.example/{lead}", NOW, NOW, lead))
        conn.executemany(
            "INSERT INTO postings (id, board_id, external_id, company, title, url, first_seen, "
            "last_seen, lead_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)


def add_contacts(ws: Workspace, count: int, companies: int, shared: int) -> None:
    """`count` contacts over `companies` companies, `shared` of which post jobs (the
    postings' companies are `Company 0` to `Company 699`)."""
    names = [f"Company {n}" if n < shared else f"Elsewhere {n}" for n in range(companies)]
    with sqlite3.connect(ws.db) as conn:
        conn.executemany(
            "INSERT INTO contacts (source, name, company, company_key, position, line, "
            "imported_at) VALUES ('linkedin', ?, ?, ?, 'Engineer', ?, ?)",
            [(f"Person {i}", names[i % companies], company_key(names[i % companies]), i + 4,
              NOW) for i in range(count)])


def timed(module: object, ws: Workspace, printed: bool) -> float:
    """CPU seconds (every thread of the process: aiosqlite's too) to list the matches,
    and with `printed`, to print them as `--json` does (cli/base.py: print_json). CPU
    time, not wall time: the shared machine's load moves wall times by 2-3x."""
    profile = ws.profile()
    start = time.process_time()
    if hasattr(module, "load_listing"):
        # What `matches --json` and the table do now (cli/matches.py): light rows,
        # printed by json_text.
        listed = asyncio.run(module.load_listing(ws.db, profile, parts=printed,
                                                 points=printed))
        if printed:
            module.json_text(listed)
        return time.process_time() - start
    found = asyncio.run(module.load_matches(ws.db, profile))   # type: ignore[attr-defined]
    if printed:
        json.dumps([m.to_json() for m in found], ensure_ascii=False, check_circular=False)
    return time.process_time() - start


def best(rounds: int, *runs: tuple[str, object, Workspace]) -> dict[str, float]:
    times: dict[str, list[float]] = {}
    for _ in range(rounds):
        for name, module, ws in runs:
            times.setdefault(name, []).append(timed(module, ws, printed=True))
            times.setdefault(f"{name} load", []).append(timed(module, ws, printed=False))
    return {name: min(found) for name, found in times.items()}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", default="main", help="the commit before signals and contacts")
    parser.add_argument("--postings", type=int, default=100_000)
    parser.add_argument("--contacts", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        plain, known, worst = (Workspace(Path(tmp) / name)
                               for name in ("plain", "known", "worst"))
        for ws in (plain, known, worst):
            ws.init()
            seed(ws, args.postings, 1_000, 0)
            add_groups(ws, args.postings)
        add_contacts(known, args.contacts, 4_000, 300)
        add_contacts(worst, args.contacts, 700, 700)
        old = base_module(args.base)
        found = best(args.rounds, ("base", old, plain), ("now", current, plain),
                     ("contacts", current, known), ("worst", current, worst))
    print(f"matches at {args.postings:,} postings (a fifth in groups), best of {args.rounds}, CPU "
          "time; `--json`: listed and printed as JSON, `list`: listed only")
    rows = (("base", f"{args.base} (no signals, no contacts)", "base"),
            ("now", "now, signals, no contacts", "base"),
            ("contacts", f"now, {args.contacts:,} contacts, 300 of 4,000 companies posting "
                         "(target <= 1.05)", "now"),
            ("worst", f"now, {args.contacts:,} contacts, all at posting companies "
                      "(worst case)", "now"))
    for name, label, against in rows:
        json_ratio = found[name] / found[against]
        load_ratio = found[f"{name} load"] / found[f"{against} load"]
        print(f"  {label}: --json {found[name] * 1000:.0f} ms, list "
              f"{found[f'{name} load'] * 1000:.0f} ms; ratio to {against}: --json "
              f"{json_ratio:.3f}, list {load_ratio:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
