"""`jobtracker work`, `resolve` and `rank`: run the task queue from the command line.

What a run prints and how it ends is `jobtracker.run.headless`, which
`jobtracker-tui --run` shares."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from jobtracker.cli.base import add_run_options, command, positive_int, run_options

if TYPE_CHECKING:
    from jobtracker.workspace import Workspace


def configure_work(parser: argparse.ArgumentParser, pinned: bool = False) -> None:
    if not pinned:
        parser.add_argument("--task", metavar="NAME", help="work only this task")
    parser.add_argument("--budget", type=positive_int, metavar="N", help="at most N units")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the queue and what would run; change nothing")
    parser.add_argument("--verbose", action="store_true",
                        help="also print each unit's steps and model calls")
    parser.add_argument("--reask-stale-prompts", action="store_true",
                        help="also ask again answers written with an older prompt (or an "
                             "unknown one); counted in --dry-run")
    add_run_options(parser)


# The run (its model client, HTTP, the job loop) is imported when a command runs, not
# when the parser is built: `jobtracker --help` and every other command skip it.


def task_of(command_name: str) -> str:
    """The task whose shortcut this command is (a task declares `command`)."""
    from jobtracker import tasks

    found = tasks.REGISTRY.first(lambda task: task.command == command_name)
    assert found is not None, f"no task declares the command {command_name!r}"
    return found.name

@command("work", "run the next task with work (or the pinned one), up to --budget units",
         configure_work)
def cmd_work(args: argparse.Namespace, ws: Workspace) -> int:
    from jobtracker.run.headless import run_work

    return run_work(ws, run_options(args), dry_run=args.dry_run, verbose=args.verbose)


@command("resolve", "the same as `work --task level`",
         lambda parser: configure_work(parser, pinned=True))
def cmd_resolve(args: argparse.Namespace, ws: Workspace) -> int:
    from jobtracker.run.headless import run_work

    return run_work(ws, run_options(args, task=task_of("resolve")), dry_run=args.dry_run,
                    verbose=args.verbose)


@command("rank", "run the judge task, then rescore every judged posting (scoring needs no model)",
         lambda parser: configure_work(parser, pinned=True))
def cmd_rank(args: argparse.Namespace, ws: Workspace) -> int:
    import asyncio

    from jobtracker import runner
    from jobtracker.run.headless import run_work

    code = run_work(ws, run_options(args, task=task_of("rank")), dry_run=args.dry_run,
                    verbose=args.verbose,
                    no_model="No posting was judged; scores are recomputed below, as "
                             "scoring needs no model.")
    if not args.dry_run:
        count = asyncio.run(runner.rescore(runner.load_setup(ws)))
        print(f"rescored {count:,} judged posting(s)")
    return code
