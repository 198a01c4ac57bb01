"""`jobtracker model check`: can the configured model do this work? (docs/llm.md)

    jobtracker model check [--json] [--llm-url URL | --gguf PATH] [--items N]

Exit 0 when it can, 1 when it cannot (a prompt that does not fit, an accuracy
below the bar, a model that cannot be asked), 2 on a configuration error.
Progress goes to stderr, one line per evaluation item; the result to stdout.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from typing import TYPE_CHECKING

from jobtracker.cli.base import (
    EXIT_ALL_FAILED,
    EXIT_OK,
    add_home,
    add_model_options,
    command,
    positive_int,
    print_json,
)

if TYPE_CHECKING:
    from jobtracker.workspace import Workspace


def _configure(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    check = actions.add_parser("check", help="check the server, prompt fit, an evaluation "
                                             "set and your past decisions")
    add_home(check, top=False)
    check.add_argument("--json", action="store_true", help="one JSON object on stdout")
    add_model_options(check)
    check.add_argument("--items", type=positive_int, metavar="N",
                       help="at most N evaluation items per task (default: all)")


def _progress(line: str) -> None:
    from jobtracker.workers.reporters import ascii_line  # the run's reporters: once it runs

    print(ascii_line(f"{datetime.now():%H:%M:%S} {line}"), file=sys.stderr, flush=True)


@command("model", "check whether the configured model can do the work", _configure)
def cmd_model(args: argparse.Namespace, ws: Workspace) -> int:
    # Imported here: the check's evaluation set and clients load only when it runs.
    import asyncio

    from jobtracker.modelcheck import format_text, run_check
    from jobtracker.modelcheck.adapter import load_setup

    setup = load_setup(ws, args.llm_url, args.gguf, args.model)
    if setup.config.llm.gguf is not None:
        _progress(f"model check: starting the embedded model {setup.config.llm.gguf.name}; "
                  "loading can take a while")
    report = asyncio.run(run_check(setup, min_accuracy=setup.config.min_accuracy,
                                   per_task=args.items, progress=_progress))
    if args.json:
        print_json(report.to_json())
    else:
        print(format_text(report))
    return EXIT_OK if report.ok else EXIT_ALL_FAILED
