"""Benchmark: how long a command takes to start, as a process (issue 41).

`jobtracker --help` (target < 0.25 s) and `jobtracker work` with nothing to do (target
< 0.4 s), plus `fetch`, `matches` and `jobtracker-tui --run` on the same empty
workspace (one loopback board that lists no job), each the best of N runs of a fresh
interpreter, with how many modules it loaded and which of the heavy ones
(tests/integration/test_cli_entry_startup.py fails when one is). With `--base COMMIT`
the same commands run from that commit's tree (`git archive`) in the same rounds.

Run: .venv/bin/python tests/perf/bench_startup.py [--runs 5] [--base main]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from servers.boards import BoardServer, greenhouse_board  # noqa: E402

from tests.integration.test_cli_entry_startup import COMMANDS, REPORT, heavy  # noqa: E402

TARGETS = {"--help": 0.25, "work": 0.4}


def tree_at(commit: str, into: Path) -> Path:
    """`jobtracker/` and `tui/` as they were at `commit`, unpacked under `into`."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "jobtracker", "tui"],
                             capture_output=True, check=True).stdout
    into.mkdir()
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def child_env(cache: Path) -> dict[str, str]:
    """The environment of every timed process: bytecode written once and read after, as
    a user's install has it, even where PYTHONDONTWRITEBYTECODE is set (CI, this
    project's shells), under a cache of this run's own so no tree gets a __pycache__."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


def run_once(tree: Path, module: str, argv: list[str], home: Path, env: dict[str, str]
             ) -> tuple[float, float, list[str]]:
    """Wall seconds, CPU seconds (the child's user + system: what a busy machine changes
    least) and the modules loaded."""
    # cwd = the tree: `python -c` puts it first on sys.path, ahead of the editable install.
    cpu = cpu_of_children()
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", REPORT, module, "--home", str(home), *argv],
                          capture_output=True, text=True, cwd=tree, env=env, check=False)
    seconds = time.perf_counter() - started
    cpu = cpu_of_children() - cpu
    if done.returncode != 0:
        raise SystemExit(f"{module} {' '.join(argv)} failed in {tree}:\n{done.stderr[-2000:]}")
    return seconds, cpu, json.loads(done.stderr.rpartition("\nLOADED ")[2])


def make_home(tree: Path, home: Path, board_url: str) -> Path:
    """An empty workspace made by `tree`'s `init`, listing one board with no job."""
    subprocess.run([sys.executable, "-m", "jobtracker", "--home", str(home), "init"],
                   check=True, capture_output=True, cwd=tree)
    (home / "config.yaml").write_text("llm: {url: null}\n")
    (home / "sources.yaml").write_text(
        f"boards:\n  - {{ats: greenhouse, token: acme, company: Acme, url: '{board_url}'}}\n")
    return home


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--base", help="a commit to time the same commands at")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, BoardServer() as board:
        board.set("/gh/acme", greenhouse_board([]))
        trees = {"now": ROOT}
        if args.base:
            trees["base"] = tree_at(args.base, Path(tmp) / "base")
        # A workspace per tree, made by that tree's own `init`: an older tree refuses a
        # database that a newer one has migrated further.
        homes = {label: make_home(tree, Path(tmp) / f"home-{label}", board.url("/gh/acme"))
                 for label, tree in trees.items()}
        # Bytecode compiled once per tree and command before timing (a user's install has
        # it): without it every run compiles what it imports, and that is what is timed.
        env = child_env(Path(tmp) / "pycache")
        for label, tree in trees.items():
            for module, argv in COMMANDS.values():
                run_once(tree, module, argv, homes[label], env)
        best: dict[tuple[str, str], float] = {}
        cpu: dict[tuple[str, str], float] = {}
        loaded: dict[tuple[str, str], list[str]] = {}
        for _ in range(args.runs):
            for name, (module, argv) in COMMANDS.items():
                for label, tree in trees.items():
                    seconds, used, modules = run_once(tree, module, argv, homes[label], env)
                    key = (label, name)
                    best[key] = min(best.get(key, seconds), seconds)
                    cpu[key] = min(cpu.get(key, used), used)
                    loaded[key] = modules
        print(f"load average {os.getloadavg()[0]:.2f}; best of {args.runs} runs, as processes "
              "(wall, and CPU: the child's user + system time)")
        for name in COMMANDS:
            now = best[("now", name)]
            target = TARGETS.get(name)
            line = (f"{name:>22}: {now:.3f} s (CPU {cpu[('now', name)]:.3f} s), "
                    f"{len(loaded[('now', name)])} modules, "
                    f"heavy: {heavy(loaded[('now', name)], name) or 'none'}")
            if target:
                line += f" (target < {target} s: {'met' if now < target else 'NOT met'})"
            if "base" in trees:
                base = best[("base", name)]
                line += (f"; base {base:.3f} s (CPU {cpu[('base', name)]:.3f} s), "
                         f"{len(loaded[('base', name)])} modules; ratio {now / base:.2f}, "
                         f"CPU {cpu[('now', name)] / cpu[('base', name)]:.2f}")
            print(line)


if __name__ == "__main__":
    sys.exit(main())
