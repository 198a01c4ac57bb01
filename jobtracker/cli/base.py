"""What every command line of jobtracker shares: what a subcommand is, argument types,
run options, exit codes and the one path from an error to its exit code.

`jobtracker` (jobtracker/cli/entry.py) and `jobtracker-tui` (tui/cli.py) both build
on it, so a flag means the same and fails the same way in both.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from jobtracker.run.exits import EXIT_ALL_FAILED as EXIT_ALL_FAILED
from jobtracker.run.exits import EXIT_CLOSED_PIPE as EXIT_CLOSED_PIPE
from jobtracker.run.exits import EXIT_INTERRUPTED as EXIT_INTERRUPTED
from jobtracker.run.exits import EXIT_OK as EXIT_OK
from jobtracker.run.exits import EXIT_TERMINATED as EXIT_TERMINATED
from jobtracker.run.exits import EXIT_USAGE as EXIT_USAGE

if TYPE_CHECKING:   # the settings, the store and yaml load when a command runs, not for --help
    from jobtracker.run.setup import RunOptions
    from jobtracker.workspace import Workspace

# EXIT_* above: the exit codes, stated once in jobtracker/run/exits.py (the headless run
# ends with them too); every command line takes them from here.
SQLITE_MAX_INT = 2**63 - 1   # ids are SQLite integers; a larger one is a usage error


# --- argument types -----------------------------------------------------------------

def positive_int(text: str) -> int:
    """A whole number of at least 1 (a budget, a count, a concurrency)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, got {value}")
    if value > SQLITE_MAX_INT:
        raise argparse.ArgumentTypeError(f"{text} is too large")
    return value


def record_id(text: str) -> int:
    """A posting, proposal or application id: a whole number SQLite can hold."""
    return positive_int(text)


_DURATION = re.compile(r"^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s?)?$")


def duration(text: str) -> float:
    """`30m`, `2h`, `1h30m`, `90s` or `90` (seconds) → seconds."""
    match = _DURATION.match(text.strip())
    if not text.strip() or match is None or not any(match.groups()):
        raise argparse.ArgumentTypeError(f"not a duration: {text!r} (try 30m, 2h, 1h30m, 90s)")
    hours, minutes, seconds = (int(g) if g else 0 for g in match.groups())
    return float(hours * 3600 + minutes * 60 + seconds)


# --- shared flags -------------------------------------------------------------------

def add_home(parser: argparse.ArgumentParser, top: bool) -> None:
    """--home works before or after the subcommand; the later one wins."""
    parser.add_argument(
        "--home", metavar="DIR", default=None if top else argparse.SUPPRESS,
        help="the workspace folder (default: $JOBTRACKER_HOME, else "
             "$XDG_DATA_HOME/jobtracker)")


def add_model_options(parser: argparse.ArgumentParser) -> None:
    """--llm-url or --gguf: which model answers, for this command only."""
    model = parser.add_mutually_exclusive_group()
    model.add_argument("--llm-url", metavar="URL", help="model server base URL for this run "
                       "(instead of config.yaml's llm.url or llm.gguf)")
    model.add_argument("--gguf", metavar="PATH", help="serve this GGUF model file with an "
                       "embedded llama.cpp server for this run (needs the [local] extra)")
    parser.add_argument("--model", metavar="NAME", help="ask this model, for every task, in "
                        "this run (instead of config.yaml's llm.model and llm.models)")


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """The model (add_model_options) and --concurrency, its politeness, for one run."""
    add_model_options(parser)
    parser.add_argument("--concurrency", type=positive_int, metavar="N",
                        help="units in flight at once, all tasks together")


def run_options(args: argparse.Namespace, *, task: str | None = None,
                continuous: bool = False) -> RunOptions:
    """The run a command line asked for: flags that a parser did not define count as
    unset, so `work`, `resolve`, `rank` and `jobtracker-tui` all build it here."""
    from jobtracker.run.setup import RunOptions  # the settings: for a run, not for --help

    return RunOptions(
        task=task or getattr(args, "task", None), budget=getattr(args, "budget", None),
        concurrency=getattr(args, "concurrency", None), llm_url=getattr(args, "llm_url", None),
        gguf=getattr(args, "gguf", None), model=getattr(args, "model", None),
        continuous=continuous,
        deadline=getattr(args, "deadline", None),
        reask_stale_prompts=getattr(args, "reask_stale_prompts", False))


class Parser(argparse.ArgumentParser):
    """argparse whose own usage errors exit 2, as every usage error here does, and that
    refuses an argument that is not valid UTF-8 before anything reads it.

    A flag is only ever its whole name (`allow_abbrev=False`, for the subcommands too,
    which argparse builds with this class): `--filter` must not quietly mean
    `--filtered`, nor a flag added later change what an old abbreviation meant."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None
                         ) -> tuple[argparse.Namespace, list[str]]:
        words = list(sys.argv[1:] if args is None else args)
        for position, word in enumerate(words, start=1):
            # Python keeps a byte that is not UTF-8 as a lone surrogate (surrogateescape):
            # no file, database or terminal can take it, so it stops here, with its byte.
            bad = next((ch for ch in word if "\ud800" <= ch <= "\udfff"), None)
            if bad is not None:
                shown = word.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
                byte = (f" (byte 0x{ord(bad) - 0xDC00:02x})" if 0xDC80 <= ord(bad) <= 0xDCFF
                        else "")
                self.error(f"argument {position} ({shown!r}) is not valid UTF-8 text{byte}; "
                           "nothing was read or written")
        return super().parse_known_args(words, namespace)

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


# --- machine-readable output ----------------------------------------------------------

def print_json(value: object) -> None:
    """What every `--json` prints: one JSON value on one line, UTF-8 as it is (a large
    list prints at once; `jq .` shows it indented). The one shape for every command."""
    print(json.dumps(value, ensure_ascii=False, check_circular=False))


# --- subcommands ---------------------------------------------------------------------

Configure = Callable[[argparse.ArgumentParser], None]
Run = Callable[[argparse.Namespace, "Workspace"], int]


def _no_flags(parser: argparse.ArgumentParser) -> None:
    return None


@dataclass(frozen=True)
class Command:
    """A subcommand: its name, its line of help, its flags and what it runs. The ones
    `jobtracker` has are listed in `COMMANDS` (jobtracker/cli/entry.py)."""

    name: str
    help: str
    configure: Configure
    run: Run
    creates_workspace: bool = False     # may run before `init` made the folder

    def __call__(self, args: argparse.Namespace, ws: Workspace) -> int:
        return self.run(args, ws)


def command(name: str, help: str, configure: Configure = _no_flags, *,
            creates_workspace: bool = False) -> Callable[[Run], Command]:
    """The decorated function as subcommand `name`; `configure` adds its flags."""
    def bind(run: Run) -> Command:
        return Command(name, help, configure, run, creates_workspace)
    return bind


def existing_workspace(ws: Workspace) -> Workspace:
    """`ws`, when its folder exists. Only `init` (and the demo) make a workspace: a typo
    in --home, or a first command before `init`, must not leave a new one behind."""
    from jobtracker.yamlfile import ConfigError  # yaml: once a command runs

    if not ws.home.is_dir():
        raise ConfigError(ws.home, "no workspace here; create one with `jobtracker init` "
                                   "(or name another with --home DIR or $JOBTRACKER_HOME)")
    return ws


# --- from an error to an exit code ----------------------------------------------------

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


def guarded(prog: str, body: Callable[[], int]) -> int:
    """Run a command's body; a configuration or database error is one line and exit 2,
    Ctrl-C is 130, a closed pipe is quiet. Shared by both command lines."""
    # The errors' modules (the store, yaml) load when a command runs, not for --help.
    from jobtracker.files import FileRefused
    from jobtracker.store import StoreError
    from jobtracker.yamlfile import ConfigError

    try:
        code = body()
        sys.stdout.flush()   # inside the try: a closed pipe shows here, not at exit
        return code
    except (ConfigError, StoreError, FileRefused) as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"{prog}: interrupted; every unit committed so far is kept", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return closed_pipe()
