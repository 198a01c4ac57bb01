"""Benchmark: `jobtracker work --task level` as a process against a bare httpx client.

The shape of issue 41's loop target: 2,000 level units through the loopback model
server answering in 20 ms, at concurrency 8. Each side is a process of its own,
start-up included, on the same server with the same cap, in the same run:

- bare: a fresh interpreter that imports httpx and sends the same 2,000 chat
  calls (the body a level unit sends, with asyncio.Semaphore + gather);
- now: `jobtracker work --task level` on a fresh copy of a seeded workspace;
- base (with --base COMMIT): the same command with the package as it was at that
  commit (`git archive` into a temporary folder, put first on PYTHONPATH), on a
  fresh copy of a workspace that tree made and migrated itself (an older tree
  refuses a database migrated further than it knows).

Rounds alternate between the sides (the order rotates each round) and each side's
best wall time counts: the least disturbed by the rest of the machine. Each
process's CPU time (user + system, from wait4) is printed too, which load changes
least. Target: now / bare >= 0.92 (a rate ratio: bare wall / now wall).

Run: .venv/bin/python tests/perf/bench_work_process.py [--units 2000] [--rounds 3]
     [--concurrency 8] [--latency 0.020] [--base b058a6b]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from jobtracker.tasks.base import posting_block
from jobtracker.tasks.level import TASK as LEVEL
from jobtracker.workspace import Workspace
from tests.db import raw_connect
from tests.perf.bench_startup import tree_at
from tests.perf.bench_work import SERVER, level_workspace

ROOT = Path(__file__).resolve().parents[2]
TARGET = 0.92

# The bare client: what the same calls cost with nothing around them. The body is
# built in the parent (the exact shape LLMClient sends for a level unit) and passed
# as a file, so both sides send the same bytes' worth of JSON.
BARE = """
import asyncio, json, sys
import httpx

url, units, concurrency, body_file = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
body = json.load(open(body_file))

async def main():
    limit = asyncio.Semaphore(concurrency)
    async with httpx.AsyncClient() as client:
        async def one():
            async with limit:
                response = await client.post(f"{url}/chat/completions", json=body)
                response.raise_for_status()
                response.json()
        await asyncio.gather(*(one() for _ in range(units)))

asyncio.run(main())
"""


def level_body(units: int) -> dict[str, object]:
    """The chat body of a seeded unit, as LLMClient builds it (nested json_schema)."""
    data = {"title": f"Engineer {units}", "company": "Acme", "location": "Remote",
            "description": f"Posting {units}. " + "We build things. " * 150,
            "truncated": False}
    request = LEVEL.build_request("", posting_block(data))
    return {"model": "test-model", "messages": request.messages, "temperature": 0,
            "max_tokens": 512, "response_format": {"type": "json_schema", "json_schema": {
                "name": "level", "schema": request.schema, "strict": True}}}


def timed(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds user + system, exit status) of one child process."""
    started = time.perf_counter()
    child = subprocess.Popen(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert child.stderr is not None
    err = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.stderr.write(err.decode(errors="replace"))
    return wall, usage.ru_utime + usage.ru_stime, child.returncode


def readings(home: Path) -> int:
    with raw_connect(Workspace(home).db) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM level_readings").fetchone()[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--latency", type=float, default=0.020)
    parser.add_argument("--base", help="also time `work` as it was at this commit")
    args = parser.parse_args()
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(args.latency)], text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert server.stdout is not None and server.stdin is not None
    url = server.stdout.readline().strip()
    jobtracker = str(Path(sys.executable).with_name("jobtracker"))
    try:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            trees = {"base": tree_at(args.base, folder / "base")} if args.base else {}
            # A seeded workspace per tree, each made by that tree's own code.
            templates = {name: level_workspace(folder / f"template-{name}", url, args.units,
                                               args.concurrency, trees.get(name))
                         for name in ("now", *trees)}
            body_file = folder / "body.json"
            body_file.write_text(json.dumps(level_body(args.units)))
            base_env = {k: v for k, v in os.environ.items()
                        if not k.startswith(("OTEL_", "JOBTRACKER_"))}
            sides: dict[str, tuple[list[str], dict[str, str]]] = {
                "bare": ([sys.executable, "-c", BARE, url, str(args.units),
                          str(args.concurrency), str(body_file)], base_env),
                "now": ([jobtracker, "work", "--task", "level"],
                        {**base_env, "PYTHONPATH": str(ROOT)}),
            }
            if args.base:
                sides["base"] = ([jobtracker, "work", "--task", "level"],
                                 {**base_env, "PYTHONPATH": f"{trees['base']}{os.pathsep}{ROOT}"})
            results: dict[str, list[tuple[float, float]]] = {name: [] for name in sides}
            names = list(sides)
            for number in range(args.rounds):
                order = names[number % len(names):] + names[:number % len(names)]
                for name in order:
                    argv, env = sides[name]
                    home = folder / f"ws-{name}-{number}"
                    if name != "bare":
                        shutil.copytree(templates[name].home, home)
                        env = {**env, "JOBTRACKER_HOME": str(home)}
                    wall, cpu, code = timed(argv, env, folder)
                    if code != 0:
                        raise SystemExit(f"{name} exited {code} in round {number + 1}")
                    if name != "bare":
                        done = readings(home)
                        if done != args.units:
                            raise SystemExit(f"{name} wrote {done} readings, not {args.units}")
                        shutil.rmtree(home)
                    results[name].append((wall, cpu))
                    print(f"round {number + 1} {name:<4} wall {wall:6.2f} s  cpu {cpu:5.2f} s",
                          flush=True)
    finally:
        server.stdin.close()
        server.wait(10)
    report(results, args)


def report(results: dict[str, list[tuple[float, float]]], args: argparse.Namespace) -> None:
    ideal = args.units * args.latency / args.concurrency
    best = {name: (min(w for w, _ in runs), min(c for _, c in runs))
            for name, runs in results.items()}
    print(f"\n{args.units:,} level units, {args.latency * 1000:g} ms answers, concurrency "
          f"{args.concurrency}, best of {args.rounds} (ideal wall {ideal:.2f} s)")
    for name, (wall, cpu) in best.items():
        print(f"  {name:<4} wall {wall:6.2f} s ({args.units / wall:4.0f}/s, "
              f"{ideal / wall:.3f} of ideal)  cpu {cpu:5.2f} s")
    bare_wall, bare_cpu = best["bare"]
    for name in ("base", "now"):
        if name in best:
            wall, cpu = best[name]
            print(f"  {name} / bare: rate {bare_wall / wall:.3f}, extra cpu "
                  f"{cpu - bare_cpu:+.2f} s ({(cpu - bare_cpu) / args.units * 1e6:.0f} us/unit)")
    ratio = bare_wall / best["now"][0]
    print(f"target: work as a process >= {TARGET} of the bare client: ratio {ratio:.3f} — "
          f"{'met' if ratio >= TARGET else 'NOT met'}")


if __name__ == "__main__":
    main()
