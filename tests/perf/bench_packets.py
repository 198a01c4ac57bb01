"""Benchmark: `jobtracker prepare --top 20` with a tailored resume per posting, PDF and
DOCX (issue 41, "Packets"). Target: < 3 s wall on a quiet machine.

The world: a loopback Greenhouse board with 20 jobs and their forms (60 questions
each), the 2-page sample resume (tests/render_samples.py), `render.formats: [pdf,
docx]`, and one accepted resume edit per posting, so every packet's resume is its
own: each timed run renders 20 PDFs (each read back) and 20 DOCX. Before each run
resume.md gains a line, so the 20 tailored resumes are new texts every time (the
edits still apply) and nothing is answered from an earlier run; the forms are cached
after the first run, which is timed apart.

Each run is the command as a process. Its CPU is the user + system time of the
process and of everything it started (the pool's server and workers: this bench makes
itself their subreaper and waits for each), so what the pool costs in CPU is counted.
With `--base COMMIT` the same command runs from that commit's tree (`git archive`)
on the same workspace in the same rounds, alternating, and the ratio is printed.
Every run's packets are checked: 20 written, every resume.pdf read back ok.

Run: .venv/bin/python tests/perf/bench_packets.py [--runs 5] [--base b058a6b]
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from jobtracker.workspace import Workspace  # noqa: E402
from tests.perf.bench_render import judged_world, tailor_each  # noqa: E402
from tests.perf.bench_startup import tree_at  # noqa: E402
from tests.render_samples import RESUME  # noqa: E402
from tests.servers.boards import (  # noqa: E402
    BoardServer,
)

JOBS = 20
TARGET = 3.0
PR_SET_CHILD_SUBREAPER = 36
COMMAND = "import sys; from jobtracker.cli import main; sys.exit(main())"
OWN: dict[str, list[float]] = {}     # per tree: the CPU of the command's own process


def become_subreaper() -> None:
    """Orphans of the commands run here (the pool's server outlives its parent by a
    moment) become this process's children, so their CPU time is counted."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise SystemExit(f"prctl(PR_SET_CHILD_SUBREAPER): {os.strerror(ctypes.get_errno())}")


def reap_all() -> None:
    """Wait for every descendant left (each exits once its parent has)."""
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def world(tmp: Path, server: BoardServer) -> Workspace:
    """bench_render's judged world, PDF and DOCX, with a tailored resume per posting."""
    ws = judged_world(tmp, server, "llm: {url: null}\nrender: {formats: [pdf, docx]}\n")
    asyncio.run(tailor_each(ws))
    return ws


def checked(ws: Workspace, marker: str) -> None:
    """Every packet written, its resume tailored, holding this run's line, read back ok."""
    answers = sorted((ws.home / "applications").glob("*/answers.json"))
    assert len(answers) == JOBS, answers
    for path in answers:
        data = json.loads(path.read_text())
        docs = {d["file"]: d for d in data["documents"]}
        assert docs["resume.pdf"]["written"] and docs["resume.pdf"]["check"]["ok"], path
        assert docs["resume.docx"]["written"], path
        resume = (path.parent / "resume.md").read_text()
        assert marker in resume and "Mentored four engineers (" in resume, path


def run(tree: Path, ws: Workspace, label: str) -> tuple[float, float]:
    """One `prepare --top 20` from `tree` after resume.md changed: wall and CPU seconds."""
    marker = f"Ran benchmark round {label} {time.monotonic_ns()}."
    (ws.home / "resume.md").write_text(f"{RESUME}\n- {marker}\n")
    cpu = cpu_of_children()
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", COMMAND, "--home", str(ws.home), "prepare",
                           "--top", str(JOBS)], capture_output=True, text=True, cwd=tree,
                          check=False)
    wall = time.perf_counter() - started
    own = cpu_of_children() - cpu          # the command (and what it waited for itself)
    reap_all()
    cpu = cpu_of_children() - cpu
    OWN.setdefault(label.rstrip("0123456789"), []).append(own)
    if done.returncode != 0:
        raise SystemExit(f"prepare failed in {tree} (exit {done.returncode}):\n"
                         f"{done.stdout[-1500:]}\n{done.stderr[-1500:]}")
    checked(ws, marker)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--base", help="a commit to time the same command at")
    args = parser.parse_args()
    become_subreaper()
    with tempfile.TemporaryDirectory() as tmp, BoardServer() as server:
        ws = world(Path(tmp), server)
        trees = {"now": ROOT}
        if args.base:
            trees["base"] = tree_at(args.base, Path(tmp) / "base")
        first = run(ROOT, ws, "first")      # reads and caches the 20 forms
        reads = sum("questions=true" in r.path for r in server.requests)
        for tree in trees.values():         # bytecode compiled once per tree
            run(tree, ws, "warm")
        walls: dict[str, list[float]] = {label: [] for label in trees}
        cpus: dict[str, list[float]] = {label: [] for label in trees}
        for n in range(args.runs):
            for label, tree in trees.items():
                wall, cpu = run(tree, ws, f"{label}{n}")
                walls[label].append(wall)
                cpus[label].append(cpu)
        assert sum("questions=true" in r.path for r in server.requests) == reads, \
            "the timed runs found every form cached"
        print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; "
              f"prepare --top {JOBS}, 20 tailored resumes, PDF + DOCX, as a process "
              "(CPU: user + system of it and of every process it started)")
        print(f"  first run, {reads} forms read: {first[0]:.2f} s wall, {first[1]:.2f} s CPU")
        for label in trees:
            wall, cpu = min(walls[label]), min(cpus[label])
            line = (f"  {label}: best of {args.runs} {wall:.2f} s wall "
                    f"(runs: {', '.join(f'{w:.2f}' for w in walls[label])}), "
                    f"{cpu:.2f} s CPU, of which the command's own process "
                    f"{min(OWN[label]):.2f} s and the pool's server and workers the rest")
            if label == "now":
                line += f"; target < {TARGET:.0f} s wall: {'met' if wall < TARGET else 'NOT met'}"
            print(line)
        if "base" in trees:
            print(f"  now / base: wall {min(walls['now']) / min(walls['base']):.2f}, "
                  f"CPU {min(cpus['now']) / min(cpus['base']):.2f}")


if __name__ == "__main__":
    main()
