"""`jobtracker add URL [--company NAME] [--check]`: add a board to sources.yaml from its URL.

The board is appended by editing the file's text, so every comment, blank line
and layout choice the user made stays byte for byte; the result is read back
with the ordinary loader before it replaces the file.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from jobtracker.cli.base import EXIT_ALL_FAILED, EXIT_OK, EXIT_USAGE, command
from jobtracker.config import Board, load_sources
from jobtracker.sources import REGISTRY
from jobtracker.sources.base import LISTING_ONLY
from jobtracker.text import one_line
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
    return [(source.name, page.shape, page.pattern) for source in REGISTRY.values()
            for page in source.pages]


def recognise(url: str) -> Recognised | None:
    """The board a careers or job URL belongs to, or None."""
    for source in REGISTRY.values():
        found = source.recognise(url)
        if found is not None:
            return Recognised(source.name, found.token, found.url, found.name)
    return None


# --- editing sources.yaml as text ----------------------------------------------------

_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._/-]*")
_YAML_WORDS = {"true", "false", "yes", "no", "on", "off", "null", "~", "y", "n"}


def scalar(value: str) -> str:
    """`value` as a YAML scalar inside a flow mapping: plain when safe, else quoted."""
    plain = (_PLAIN.fullmatch(value) and value.lower() not in _YAML_WORDS
             and not re.fullmatch(r"[-+]?[\d._]+(?:e[-+]?\d+)?", value, re.I)
             and not value.endswith(" "))
    return value if plain else json.dumps(value)


def board_line(board: Board) -> str:
    fields = [f"ats: {board.ats}", f"token: {scalar(board.token)}",
              f"company: {scalar(board.company)}"]
    if board.url:
        fields.append(f"url: {scalar(board.url)}")
    return "{" + ", ".join(fields) + "}"


_TOP_KEY = re.compile(r"^[^\s#-][^:]*:")
_BOARDS = re.compile(r"^boards\s*:\s*(.*?)\s*(#.*)?$")


def appended(text: str, item: str) -> str:
    """`text` with `item` added as the last entry of its top-level `boards` list."""
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if _BOARDS.match(line.rstrip("\r\n"))), None)
    if start is None:
        prefix = text if not text or text.endswith(("\n", "\r")) else text + newline
        return f"{prefix}boards:{newline}  - {item}{newline}"
    value = _BOARDS.match(lines[start].rstrip("\r\n")).group(1)
    if value.startswith("[") and value.endswith("]"):    # a flow list on one line
        inner = value[1:-1].strip()
        line = lines[start]
        cut = line.rindex("]")
        lines[start] = line[:cut].rstrip() + (", " if inner else "") + item + line[cut:]
        return "".join(lines)
    if value:
        raise ValueError("sources.yaml's `boards` is not a list this command can extend")
    last, indent = start, "  "
    for index in range(start + 1, len(lines)):
        stripped = lines[index].strip()
        if _TOP_KEY.match(lines[index]):
            break
        if stripped and not stripped.startswith("#"):
            last = index
            if stripped.startswith("- "):
                indent = lines[index][:len(lines[index]) - len(lines[index].lstrip())]
    if not lines[last].endswith(("\n", "\r")):
        lines[last] += newline
    lines.insert(last + 1, f"{indent}- {item}{newline}")
    return "".join(lines)


def _write_checked(path: Path, text: str, board: Board) -> None:
    """Write `text` beside `path`, read it back as sources.yaml, then replace `path`."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".sources-", suffix=".yaml")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        if path.exists():
            os.chmod(temporary, path.stat().st_mode & 0o7777)
        boards = load_sources(Path(temporary), REGISTRY).boards
        if (board.ats, board.token) not in {(b.ats, b.token) for b in boards}:
            raise ValueError("the edited file does not list the new board")
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


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

    url = board.url or REGISTRY[board.ats].default_url(board.token)
    async with make_client() as client:
        got = await download(client, REGISTRY[board.ats].start(board, url, LISTING_ONLY))
    return len(got.postings)


@command("add", "add a board to sources.yaml from a careers or job URL", _configure)
def cmd_add(args: argparse.Namespace, ws: Workspace) -> int:
    found = recognise(args.url)
    if found is None:
        known = "\n".join(f"  {shape}  ({ats})" for ats, shape, _ in shapes())
        print(f"jobtracker: not a board URL jobtracker knows: {one_line(args.url, 200)!r}\n"
              f"the shapes it recognises:\n{known}", file=sys.stderr)
        return EXIT_USAGE
    path = ws / "sources.yaml"
    existing = ws.sources().boards if path.exists() else ()
    board = Board(found.ats, found.token, args.company or _company(found), found.url)
    same = [b for b in existing if b.ats == board.ats and b.token.lower() == board.token.lower()]
    if same:
        print(f"{board.name} is already in {path} (company {same[0].company}); nothing changed")
        return EXIT_OK
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    try:
        _write_checked(path, appended(text, board_line(board)), board)
    except ValueError as exc:
        print(f"jobtracker: {path}: {exc}; add the board by hand", file=sys.stderr)
        return EXIT_USAGE
    print(f"added {board.name} ({board.company}) to {path}")
    if not args.check:
        return EXIT_OK
    from jobtracker.postings.download import DownloadError

    try:
        count = asyncio.run(_count(board))
    except DownloadError as exc:
        print(f"check: {board.name} failed: {one_line(str(exc), 300)}")
        return EXIT_ALL_FAILED
    print(f"check: {board.name} lists {count} posting{'s' if count != 1 else ''}")
    return EXIT_OK
