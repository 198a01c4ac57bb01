"""`jobtracker prepare`: application packets for the picks, and the same at the end of
`jobtracker-tui --run`. Neither reaches a model (jobtracker/prepare/)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from datetime import datetime
from typing import TYPE_CHECKING, TextIO

from jobtracker.cli.base import EXIT_OK, EXIT_USAGE, command, positive_int, record_id
from jobtracker.clock import now_iso
from jobtracker.prepare.answers import load_answers
from jobtracker.store import StoreError
from jobtracker.text import one_line
from jobtracker.workers.reporters import ascii_line
from jobtracker.workspace import Workspace
from jobtracker.yamlfile import ConfigError

if TYPE_CHECKING:   # the packet code (and its HTTP client) loads when prepare runs
    from jobtracker.prepare.run import Prepared


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("postings", type=record_id, nargs="*", metavar="POSTING",
                        help="prepare exactly these postings (ids as in `matches --json`)")
    parser.add_argument("--top", type=positive_int, metavar="N",
                        help="the N best open matches without an application beyond saved "
                             "(default: config.yaml's prepare.top, 5)")
    parser.add_argument("--json", action="store_true", help="print a JSON array of objects")


def describe(item: Prepared) -> list[str]:
    """A packet in a few plain lines: where, which form, what is left to the user."""
    data = item.to_json()
    form = "the employer's form" if item.resolution.kind == "greenhouse" else "standard set"
    left = item.resolution.unresolved_required
    tail = (f"; {len(left)} required left: " + one_line("; ".join(left), 120)) if left else ""
    lines = [f"posting {item.posting.id} ({item.posting.label}): {data['path']}  "
             f"{form}, {data['resolved']}/{data['fields']} answered{tail}"]
    if item.form_error:
        lines.append(f"  the form could not be read ({one_line(item.form_error, 160)}); "
                     "the standard set is used")
    lines += [f"  {name} was edited by you: it is kept, the new version is {name}.new"
              for name in item.written.kept]
    lines += [f"  not written: {one_line(why, 200)}" for why in item.written.failed]
    return lines


def run_prepare(ws: Workspace, top: int, ids: list[int]) -> list[str]:
    """Load what prepare reads (a ConfigError for a bad file), prepare; the lines to say."""
    from jobtracker.prepare.run import prepare

    bank = load_answers(ws / "answers.yaml")
    profile = ws.profile()
    rescored, done = asyncio.run(prepare(ws.home, ws.db, profile, bank, now_iso(),
                                         top=top, ids=ids))
    lines = [f"rescored {rescored:,} judged posting(s)"]
    if not done:
        lines.append("nothing to prepare: no open match without an application beyond saved "
                     "(`jobtracker rank` judges and scores matches)")
    for item in done:
        lines += describe(item)
    return lines


@command("prepare", "write application packets for the best matches (no model)", _configure)
def cmd_prepare(args: argparse.Namespace, ws: Workspace) -> int:
    if args.postings and args.top:
        print("jobtracker: prepare takes --top N or POSTING ids, not both", file=sys.stderr)
        return EXIT_USAGE
    from jobtracker.prepare.run import UnknownPostings, prepare

    top = args.top or ws.config().prepare.top or 5
    try:
        if args.json:
            bank, profile = load_answers(ws / "answers.yaml"), ws.profile()
            _, done = asyncio.run(prepare(ws.home, ws.db, profile, bank, now_iso(), top=top,
                                          ids=args.postings))
            print(json.dumps([item.to_json() for item in done], indent=2))
        else:
            print("\n".join(run_prepare(ws, top, args.postings)))
    except UnknownPostings as exc:
        print(f"jobtracker: no posting with id {exc} (`jobtracker matches` lists posting ids)",
              file=sys.stderr)
        return EXIT_USAGE
    return EXIT_OK


def after_run(ws: Workspace, out: TextIO | None = None) -> None:
    """The end of `jobtracker-tui --run`: packets for `prepare.top` picks (0: none),
    whether or not a model answered, said in the run's own line format (time, ASCII).
    A bad answers.yaml is one line; the run's own result stands."""
    out = out or sys.stdout
    try:
        top = ws.config().prepare.top
        lines = run_prepare(ws, top, []) if top > 0 else []
    except (ConfigError, StoreError) as exc:
        lines = [f"not done: {exc}"]
    for text in lines:
        print(ascii_line(f"{datetime.now():%H:%M:%S} prepare {text.strip()}"), file=out)
    out.flush()
