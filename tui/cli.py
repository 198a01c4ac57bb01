"""The `jobtracker-tui` entry point.

`--run` is the headless loop for timers; it must never import Textual, so this
module imports the app only on the interactive path.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="jobtracker-tui",
        description="The jobtracker dashboard; with --run, the same loop headless.")
    parser.add_argument("--home", metavar="DIR", help="the workspace folder")
    parser.add_argument("--run", action="store_true",
                        help="headless: work every task in priority order, then exit")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    del args
    print("jobtracker-tui: the dashboard is not built yet; use `jobtracker`", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
