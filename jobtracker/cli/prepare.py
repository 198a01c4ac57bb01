"""`jobtracker prepare`: application packets for the picks (jobtracker/prepare/; the
lines it prints are jobtracker/prepare/report.py, which the end of
`jobtracker-tui --run` shares). It reaches no model."""

from __future__ import annotations

import argparse
import asyncio
import sys

from jobtracker.cli.base import EXIT_OK, EXIT_USAGE, command, positive_int, print_json, record_id
from jobtracker.clock import now_iso
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
    if args.postings and args.top:
        print("jobtracker: prepare takes --top N or POSTING ids, not both", file=sys.stderr)
        return EXIT_USAGE
    # The packets' code (forms, answers, documents) loads for `prepare` alone, not for
    # every command whose parser lists it.
    from jobtracker.prepare.answers import load_answers
    from jobtracker.prepare.report import run_prepare
    from jobtracker.prepare.run import UnknownPostings, prepare

    config = ws.config()
    top = args.top or config.prepare.top or 5
    try:
        if args.json:
            bank, profile = load_answers(ws / "answers.yaml"), ws.profile()
            _, done = asyncio.run(prepare(ws.home, ws.db, profile, bank, now_iso(), top=top,
                                          ids=args.postings, render=config.render))
            print_json([item.to_json() for item in done])
        else:
            print("\n".join(run_prepare(ws.home, ws.db, top, args.postings, config.render)))
    except UnknownPostings as exc:
        print(f"jobtracker: no posting with id {exc} (`jobtracker matches` lists posting ids)",
              file=sys.stderr)
        return EXIT_USAGE
    return EXIT_OK
