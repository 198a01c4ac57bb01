"""`jobtracker prepare`: application packets for the picks (jobtracker/prepare/; the
lines it prints are jobtracker/prepare/report.py, which the end of
`jobtracker-tui --run` shares). It reaches no model."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from jobtracker.cli.base import (
    EXIT_ALL_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    command,
    positive_int,
    print_json,
    record_id,
)
from jobtracker.clock import now_iso

if TYPE_CHECKING:
    from jobtracker.workspace import Workspace


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("postings", type=record_id, nargs="*", metavar="POSTING",
                        help="prepare exactly these postings (ids as in `matches --json`)")
    parser.add_argument("--top", type=positive_int, metavar="N",
                        help="the N best open matches without an application beyond saved "
                             "(default: config.yaml's prepare.top, 5)")
    parser.add_argument("--json", action="store_true", help="print a JSON array of objects")


@command("prepare", "write application packets for the best matches (no model)", _configure)
def cmd_prepare(args: argparse.Namespace, ws: Workspace) -> int:
    import asyncio  # the event loop: once a command runs, not for --help

    from jobtracker.run.setup import config_of

    if args.postings and args.top:
        print("jobtracker: prepare takes --top N or POSTING ids, not both", file=sys.stderr)
        return EXIT_USAGE
    # The packets' code (forms, answers, documents) loads for `prepare` alone, not for
    # every command whose parser lists it.
    from jobtracker.prepare.answer_bank import load_answers
    from jobtracker.prepare.report import not_ready, prepare_run
    from jobtracker.prepare.run import UnknownPostings, prepare

    config = config_of(ws)
    top = args.top or config.prepare.top or 5
    try:
        if args.json:
            bank, profile = load_answers(ws / "answers.yaml"), ws.profile()
            _, done = asyncio.run(prepare(ws.home, ws.db, profile, bank, now_iso(), top=top,
                                          ids=args.postings, render=config.render))
            print_json([item.to_json() for item in done])
            failed = not_ready(done)
        else:
            lines, failed = prepare_run(ws.home, ws.db, top, args.postings, config.render)
            print("\n".join(lines))
    except UnknownPostings as exc:
        print(f"jobtracker: no posting with id {exc} (`jobtracker matches` lists posting ids)",
              file=sys.stderr)
        return EXIT_USAGE
    # A packet whose required resume (or letter) is missing or failed its check is not
    # ready to send: said by name, exit 1; the other packets were written all the same.
    for line in failed:
        print(f"jobtracker: prepare: {line}", file=sys.stderr)
    return EXIT_ALL_FAILED if failed else EXIT_OK
