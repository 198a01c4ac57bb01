"""`jobtracker`: the subcommands (`COMMANDS`), the parser built from them, and `main()`.

Adding a subcommand: a function decorated with `@command(...)` in a module of
jobtracker/cli/, and that command in `COMMANDS` below. The list lives here, not in
the package's `__init__`: `jobtracker-tui` imports `jobtracker.cli.base`, and an
`__init__` that imported every subcommand would load them all for it."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from jobtracker.cli import (
    add,
    applications,
    contacts,
    fetch,
    learn,
    matches,
    model,
    notify,
    postings,
    prepare,
    proposals,
    render,
    save,
    setup,
    sources,
    work,
)
from jobtracker.cli.base import (
    EXIT_USAGE,
    Command,
    Configure,
    Parser,
    add_home,
    existing_workspace,
    guarded,
)

# One entry per subcommand, in the order `jobtracker --help` lists them.
COMMANDS: tuple[Command, ...] = (
    add.cmd_add, applications.cmd_applications, applications.cmd_stats,
    contacts.cmd_contacts, fetch.cmd_fetch,
    learn.cmd_learn, matches.cmd_matches, matches.cmd_status, model.cmd_model,
    notify.cmd_digest, notify.cmd_interviews,
    postings.cmd_postings, prepare.cmd_prepare, proposals.cmd_proposals, render.cmd_render,
    render.cmd_resume, save.cmd_save, setup.cmd_init, setup.cmd_check, sources.cmd_sources,
    work.cmd_work, work.cmd_resolve, work.cmd_rank,
)

# Subcommand name → its command.
REGISTRY: dict[str, Command] = {command.name: command for command in COMMANDS}


class _Subcommand(Parser):
    """A subcommand's parser that adds its flags (`Command.configure`) the first time it
    parses or prints: `jobtracker work` configures `work` alone, `--help` none, so a
    command's choices (dismissal reasons, statuses, formats) load only with it."""

    def __init__(self, *args: Any, configure: Configure | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._configure = configure

    def _configured(self) -> None:
        configure, self._configure = self._configure, None
        if configure is not None:
            configure(self)

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None
                         ) -> tuple[argparse.Namespace, list[str]]:
        self._configured()
        return super().parse_known_args(args, namespace)

    def format_usage(self) -> str:
        self._configured()
        return super().format_usage()

    def format_help(self) -> str:
        self._configured()
        return super().format_help()


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="jobtracker", description=(
        "A personal job-search pipeline: fetch postings, ask your own model server small "
        "questions about them, review what it proposes."))
    add_home(parser, top=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Subcommand)
    for command in REGISTRY.values():
        child = sub.add_parser(command.name, help=command.help, description=command.help,
                               configure=command.configure)
        add_home(child, top=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return EXIT_USAGE
    # The workspace (and with it every settings section) loads once a command runs.
    from jobtracker.workspace import Workspace, private_files, resolve_home

    ws = Workspace(resolve_home(args.home))

    command = REGISTRY[args.command]

    def body() -> int:
        chosen = ws if command.creates_workspace else existing_workspace(ws)
        return command.run(args, chosen)

    with private_files():     # everything a command writes is its user's alone
        return guarded("jobtracker", body)


if __name__ == "__main__":
    sys.exit(main())
