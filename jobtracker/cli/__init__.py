"""The `jobtracker` command line: `base` holds what both command lines share, `main`
the parser and entry point, and each other module one group of subcommands.

Adding a subcommand: a function decorated with `@command(...)` in a module here, and
that command in `COMMANDS` in `entry.py` (not here: `jobtracker-tui` imports
`jobtracker.cli.base`, which runs this file, and must not load every subcommand).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

# httpx imports its own command line (`httpx._main`: click, rich, pygments; ~60 ms) whenever
# those are installed; neither command line here runs it, so it is marked absent before
# httpx loads, and httpx falls back to its stub (`httpx.main` then only says it cannot run).
sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]

from jobtracker.cli.base import (  # noqa: E402  (after the line above, on purpose)
    EXIT_ALL_FAILED,
    EXIT_CLOSED_PIPE,
    EXIT_OK,
    EXIT_USAGE,
)


def main(argv: Sequence[str] | None = None) -> int:
    """The console script's entry point (the subcommands load only when it runs)."""
    from jobtracker.cli.entry import main as run

    return run(argv)


__all__ = ["EXIT_ALL_FAILED", "EXIT_CLOSED_PIPE", "EXIT_OK", "EXIT_USAGE", "main"]
