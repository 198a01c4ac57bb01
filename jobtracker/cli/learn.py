"""`jobtracker learn`: suggest profile.yaml changes from your decisions, as proposals."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from jobtracker.cli.base import EXIT_OK, command, print_json

if TYPE_CHECKING:
    from jobtracker.workspace import Workspace


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="a JSON object")


@command("learn", "suggest profile.yaml changes from your dismissals and outcomes", _configure)
def cmd_learn(args: argparse.Namespace, ws: Workspace) -> int:
    # The rules and the proposal kinds they make load when `learn` runs.
    import asyncio

    from jobtracker.learning.learn import learn_workspace, report

    found = asyncio.run(learn_workspace(ws))
    if args.json:
        print_json({"decisions": found.decisions,
                    "made": [{"id": i, "summary": s} for i, s in found.made],
                    "waiting": found.waiting, "declined": found.declined,
                    "unusable": found.unusable, "later": found.later})
    else:
        print("\n".join(report(found)))
    return EXIT_OK
