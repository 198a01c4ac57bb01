"""The `jobtracker` command line."""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Callable, Sequence

from jobtracker.store import StoreError
from jobtracker.workspace import Workspace, resolve_home
from jobtracker.yamlfile import ConfigError

EXIT_OK, EXIT_ALL_FAILED, EXIT_USAGE = 0, 1, 2
EXIT_CLOSED_PIPE = 128 + signal.SIGPIPE   # what a shell reports for a writer whose reader left


def closed_pipe() -> int:
    """The reader of our output went away (`jobtracker proposals list | head`): stop
    quietly, as command-line tools do. Standard output is pointed at /dev/null so the
    interpreter's own flush at exit cannot raise again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):   # no real file descriptor (captured in tests)
        pass
    finally:
        os.close(devnull)
    return EXIT_CLOSED_PIPE


def add_home(parser: argparse.ArgumentParser, top: bool) -> None:
    """--home works before or after the subcommand; the later one wins."""
    parser.add_argument(
        "--home", metavar="DIR", default=None if top else argparse.SUPPRESS,
        help="the workspace folder (default: $JOBTRACKER_HOME, else "
             "$XDG_DATA_HOME/jobtracker)")


def add_run_options(parser: argparse.ArgumentParser) -> None:
    model = parser.add_mutually_exclusive_group()
    model.add_argument("--llm-url", metavar="URL", help="model server base URL for this run "
                       "(instead of config.yaml's llm.url or llm.gguf)")
    model.add_argument("--gguf", metavar="PATH", help="serve this GGUF model file with an "
                       "embedded llama.cpp server for this run (needs the [local] extra)")
    parser.add_argument("--concurrency", type=int, metavar="N",
                        help="units in flight at once, all tasks together")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse's own usage errors exit 2 too
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


COMMANDS: dict[str, tuple[Callable[[argparse.ArgumentParser], None],
                          Callable[[argparse.Namespace, Workspace], int]]] = {}


HELP: dict[str, str] = {}


def _no_flags(parser: argparse.ArgumentParser) -> None:
    return None


def command(name: str, help: str,
            configure: Callable[[argparse.ArgumentParser], None] = _no_flags):
    """Register the decorated function as subcommand `name`; `configure` adds its flags."""
    def bind(run: Callable[[argparse.Namespace, Workspace], int]):
        COMMANDS[name] = (configure, run)
        HELP[name] = help
        return run
    return bind


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="jobtracker", description=(
        "A personal job-search pipeline: fetch postings, ask your own model server small "
        "questions about them, review what it proposes."))
    add_home(parser, top=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (configure, _run) in COMMANDS.items():
        child = sub.add_parser(name, help=HELP[name], description=HELP[name])
        add_home(child, top=False)
        configure(child)
    return parser


# --- init -------------------------------------------------------------------------

def _configure_init(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--demo", action="store_true",
                        help="fill the workspace with a sample data set instead")


@command("init", "create the workspace and every missing file (never overwrites)",
         _configure_init)
def cmd_init(args: argparse.Namespace, ws: Workspace) -> int:
    if args.demo:
        from jobtracker.demo import install_demo

        created = install_demo(ws)
    else:
        created = ws.init()
    for path in created:
        print(f"created {path}")
    if not created:
        print(f"{ws.home}: every file already exists; nothing changed")
    return EXIT_OK


@command("check", "validate every file in the workspace and open the database")
def cmd_check(args: argparse.Namespace, ws: Workspace) -> int:
    import asyncio

    from jobtracker import store
    ws.config()
    ws.profile()
    ws.sources()
    ws.plugins()

    async def open_db() -> str:
        # connect() migrates and checks that every table is there (else StoreError).
        async with store.connect(ws.db) as conn:
            return await store.integrity_check(conn)

    verdict = asyncio.run(open_db())
    if verdict != "ok":
        print(f"jobtracker: {ws.db}: the database is damaged (integrity check: "
              f"{' '.join(verdict.split())[:300]}); restore it from a backup, or move it "
              "aside to start a new, empty one", file=sys.stderr)
        return EXIT_USAGE
    print(f"{ws.home}: configuration ok; database ok "
          f"(integrity ok, all {len(store.expected_tables())} tables)")
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    # Subcommand modules register themselves on import.
    from jobtracker import commands  # noqa: F401

    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return EXIT_USAGE
    ws = Workspace(resolve_home(args.home))
    try:
        code = COMMANDS[args.command][1](args, ws)
        sys.stdout.flush()   # inside the try: a closed pipe shows here, not at exit
        return code
    except (ConfigError, StoreError) as exc:
        print(f"jobtracker: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("jobtracker: interrupted; every unit committed so far is kept", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return closed_pipe()


if __name__ == "__main__":
    sys.exit(main())
