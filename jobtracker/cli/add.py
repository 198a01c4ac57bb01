"""`jobtracker add URL [--company NAME] [--check]`: add a board to sources.yaml from its URL.

The board is appended by editing the file's text (jobtracker/sources/listfile.py, which
an accepted `source` proposal uses too), so every comment, blank line and layout
choice the user made stays byte for byte; the result is read back with the ordinary
loader before it replaces the file.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from jobtracker.cli.base import EXIT_ALL_FAILED, EXIT_OK, EXIT_USAGE, command
from jobtracker.text import one_line

if TYPE_CHECKING:   # the settings and sources.yaml's editor load when `add` runs
    from jobtracker.config import Board
    from jobtracker.workspace import Workspace


@dataclass(frozen=True)
class Recognised:
    ats: str
    token: str
    url: str | None = None        # an address override (Lever's EU boards)
    name: str | None = None       # what the company name is guessed from (else the token)


def shapes() -> list[tuple[str, str, re.Pattern[str]]]:
    """(ats, the URL shape people paste, its pattern) for every source that has pages,
    in the registry's order: what `add` recognises, and lists when it recognises none."""
    from jobtracker.sources import REGISTRY  # every source's module: for `add` alone

    return [(source.name, page.shape, page.pattern) for source in REGISTRY.values()
            for page in source.pages]


def recognise(url: str) -> Recognised | None:
    """The board a careers or job URL belongs to, or None."""
    from jobtracker.sources import REGISTRY  # every source's module: for `add` alone

    for source in REGISTRY.values():
        found = source.recognise(url)
        if found is not None:
            return Recognised(source.name, found.token, found.url, found.name)
    return None


# --- the command ---------------------------------------------------------------------

def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("url", metavar="URL", help="a careers page or job URL of the board")
    parser.add_argument("--company", metavar="NAME", help="the company name to store")
    parser.add_argument("--check", action="store_true",
                        help="fetch the board once and print how many postings it lists")


def _company(found: Recognised) -> str:
    name = found.name or found.token
    return name.replace("-", " ").title() if name.islower() else name


async def _count(board: Board) -> int:
    from jobtracker.postings.download import (  # the HTTP client, only for --check
        download,
        make_client,
    )
    from jobtracker.sources import REGISTRY
    from jobtracker.sources.base import LISTING_ONLY

    url = board.url or REGISTRY[board.ats].default_url(board.token)
    async with make_client() as client:
        got = await download(client, REGISTRY[board.ats].start(board, url, LISTING_ONLY))
    return len(got.postings)


_FEED_HINTS = re.compile(r"(?:\.(?:rss|atom|xml)(?:$|[?#])|/(?:feeds?|rss|atom)(?:$|[/.?#])|"
                         r"[?&](?:format|feed)=(?:rss|atom|json))", re.I)


def looks_like_feed(url: str) -> bool:
    """An RSS, Atom or JSON Feed address (`.../jobs.rss`, `.../feed`, `?format=rss`)."""
    return bool(_FEED_HINTS.search(url.strip()))


def feed_hint(url: str) -> str:
    """How to add a feed, which `add` does not: its own list in sources.yaml."""
    from jobtracker.sources.listfile import scalar

    return ("RSS, Atom and JSON feeds go under feeds: in sources.yaml, for example\n"
            f"  feeds:\n    - {{name: NAME, url: {scalar(url)}}}")


def unrecognised(url: str) -> str:
    shown = one_line(url, 200)
    known = "\n".join(f"  {shape}  ({ats})" for ats, shape, _ in shapes())
    if looks_like_feed(url):
        return (f"jobtracker: {shown!r} looks like a feed, not a job board: add it under "
                f"feeds: instead.\n{feed_hint(url)}")
    return (f"jobtracker: not a board URL jobtracker knows: {shown!r}\n"
            f"the shapes it recognises:\n{known}\n{feed_hint(url)}")


@command("add", "add a board to sources.yaml from a careers or job URL", _configure)
def cmd_add(args: argparse.Namespace, ws: Workspace) -> int:
    import asyncio

    from jobtracker.config import Board
    from jobtracker.run.setup import sources_of
    from jobtracker.sources.listfile import add_board, appended, board_line, listed, read_text

    found = recognise(args.url)
    if found is None:
        print(unrecognised(args.url), file=sys.stderr)
        return EXIT_USAGE
    path = ws / "sources.yaml"
    existing = sources_of(ws).boards if path.exists() else ()
    board = Board(found.ats, found.token, args.company or _company(found), found.url)
    same = listed(existing, board)
    if same is not None:
        print(f"{board.name} is already in {path} (company {same.company}); nothing changed")
        return EXIT_OK
    try:
        appended(read_text(path), board_line(board))   # a file this cannot extend says so first
    except ValueError as exc:
        print(f"jobtracker: {path}: {exc}; add the board by hand", file=sys.stderr)
        return EXIT_USAGE
    if args.check:
        # Checked before the file is touched: a board that fails is not left in it.
        from jobtracker.postings.download import DownloadError

        try:
            count = asyncio.run(_count(board))
        except DownloadError as exc:
            print(f"check: {board.name} failed: {one_line(str(exc), 300)}; nothing was "
                  f"added to {path}")
            return EXIT_ALL_FAILED
        print(f"check: {board.name} lists {count} posting{'s' if count != 1 else ''}")
    try:
        add_board(path, board)
    except ValueError as exc:
        print(f"jobtracker: {path}: {exc}; nothing changed: add the board by hand",
              file=sys.stderr)
        return EXIT_USAGE
    print(f"added {board.name} ({board.company}) to {path}")
    return EXIT_OK


__all__ = ["recognise", "shapes"]
