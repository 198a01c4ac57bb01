"""`jobtracker`: the parser built from the registered subcommands, and `main()`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

# One import line per module of subcommands; each registers its own on import.
from jobtracker.cli import (  # noqa: F401
    add,
    applications,
    fetch,
    matches,
    model,
    postings,
    prepare,
    proposals,
    setup,
    work,
)
from jobtracker.cli.base import (
    COMMANDS,
    CREATES_WORKSPACE,
    EXIT_USAGE,
    HELP,
    Parser,
    add_home,
    existing_workspace,
    guarded,
)
from jobtracker.workspace import Workspace, resolve_home


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="jobtracker", description=(
        "A personal job-search pipeline: fetch postings, ask your own model server small "
        "questions about them, review what it proposes."))
    add_home(parser, top=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for name, (configure, _run) in COMMANDS.items():
        child = sub.add_parser(name, help=HELP[name], description=HELP[name])
        add_home(child, top=False)
        configure(child)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return EXIT_USAGE
    ws = Workspace(resolve_home(args.home))

    def body() -> int:
        chosen = ws if args.command in CREATES_WORKSPACE else existing_workspace(ws)
        return COMMANDS[args.command][1](args, chosen)

    return guarded("jobtracker", body)


if __name__ == "__main__":
    sys.exit(main())
