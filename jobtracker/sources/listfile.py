"""sources.yaml edited as text: a board appended, keeping every other byte as it was.

`jobtracker add` and an accepted `source` proposal (jobtracker/proposals/source.py)
both append through `add_board`: the new board becomes one line, in flow style,
after the last entry of `boards` (a `boards:` list is made when there is none);
comments, blank lines, indentation and line endings stay. The edited text is read
back with the ordinary loader before it replaces the file, and replaces it only when
every board it listed is still there, unchanged and in order: a mistake never leaves
a broken file or loses a board. Appends take a lock (`.sources.yaml.lock`), so two at
once both land; a sources.yaml that is a symbolic link stays one (its target is
edited). Undoing such an accept writes the earlier text back whole.
`jobtracker sources remove` takes one entry's lines out the same way (`removed`,
`write_holding`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from jobtracker import files
from jobtracker.config import Board, ConfigError, Sources, load_sources
from jobtracker.sources import REGISTRY

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
# The top-level `boards` key however it is spelled: plain, quoted, after a byte-order mark.
_BOARDS = re.compile(r"""^\ufeff?(["']?)boards\1\s*:\s*(.*?)\s*(#.*)?$""")


def appended(text: str, item: str) -> str:
    """`text` with `item` added as the last entry of its top-level `boards` list."""
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if _BOARDS.match(line.rstrip("\r\n"))), None)
    if start is None:
        prefix = text if not text or text.endswith(("\n", "\r")) else text + newline
        return f"{prefix}boards:{newline}  - {item}{newline}"
    value = _BOARDS.match(lines[start].rstrip("\r\n")).group(2)
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


def write_checked(path: Path, text: str, board: Board, *, listing: bool = True,
                  before: tuple[Board, ...] | None = None) -> None:
    """Read `text` back as the sources.yaml at `path` (it must list `board`, or with
    `listing` false must not; with `before`, it must list those boards first,
    unchanged and in order, and only `board` after them), then replace `path`: a
    mistake never leaves a broken file, and an edit the loader would read otherwise (a
    second `boards:` it takes instead of the first) never loses a board."""
    try:
        boards = load_sources(path, REGISTRY, text=text).boards
    except ConfigError as exc:
        raise ValueError(f"the edited file would not read back ({exc.message})") from None
    if (listed(boards, board) is not None) != listing:
        raise ValueError("the edited file does not list the new board" if listing
                         else "the edited file still lists the board")
    if before is not None and (tuple(boards[:len(before)]) != before
                               or len(boards) != len(before) + 1):
        raise ValueError("the edit would not keep every board the file lists")
    _write(path, text)


def write_holding(path: Path, text: str, holds: Callable[[Sources], bool]) -> None:
    """Read `text` back as the sources.yaml at `path`, and replace `path` only when what
    it lists `holds` (ValueError otherwise, `path` untouched). A reading error names
    `path`, the user's file, with the line in the edited text."""
    if not holds(load_sources(path, REGISTRY, text=text)):
        raise ValueError("the edited file does not list what it should")
    _write(path, text)


def _write(path: Path, text: str) -> None:
    """sources.yaml through the workspace's one writer: a link is followed and kept
    (its target is written), its mode kept."""
    files.write_workspace(path.parent, path, text, links=files.FOLLOW)


_SECTION = re.compile(r"^(boards|feeds)\s*:\s*(.*?)\s*(#.*)?$")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def removed(text: str, section: str, index: int) -> str:
    """`text` without item `index` of its top-level `section` list (`boards`, `feeds`):
    the item's `- ` line and the lines indented under it (`jobtracker sources remove`).
    Comments and blank lines around it stay. ValueError when the list is not one this
    can edit (flow style on one line)."""
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines)
                  if (m := _SECTION.match(line.rstrip("\r\n"))) and m.group(1) == section),
                 None)
    if start is None:
        raise ValueError(f"no `{section}:` list found")
    if _SECTION.match(lines[start].rstrip("\r\n")).group(2):
        raise ValueError(f"`{section}` is written on one line (flow style); edit it by hand")
    seen = -1
    for i in range(start + 1, len(lines)):
        line = lines[i]
        if _TOP_KEY.match(line):
            break
        stripped = line.strip()
        if not stripped.startswith("- ") and stripped != "-":
            continue
        seen += 1
        if seen != index:
            continue
        end = i + 1
        while end < len(lines) and lines[end].strip() and _indent(lines[end]) > _indent(line) \
                and not lines[end].lstrip().startswith("- "):
            end += 1
        return "".join(lines[:i] + lines[end:])
    raise ValueError(f"`{section}` has no entry {index + 1} in the file's text")


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """The lock for editing the sources.yaml at `path`: two appends at once each read
    the file and replace it, and without it the later would drop the earlier's board."""
    with files.locked(path.parent / ".sources.yaml.lock"):
        yield


def listed(boards: Iterable[Board], board: Board) -> Board | None:
    """The board of `boards` that is `board` (same ats, token compared without case)."""
    return next((b for b in boards if b.ats == board.ats
                 and b.token.lower() == board.token.lower()), None)


def read_text(path: Path) -> str:
    """The file's text exactly as stored (line endings kept); '' when there is none.
    Through the workspace's one reader, a link followed: ConfigError for a FIFO, a
    device, a folder or a file too large, never a read that hangs."""
    try:
        return files.read_regular(path, follow_links=True) or ""
    except files.FileRefused as exc:
        raise ConfigError(path, exc.reason) from None


def add_board(path: Path, board: Board) -> tuple[str, str]:
    """Append `board` to the sources.yaml at `path`: (the text before, the text after).
    Raises ValueError when the file's `boards` is not a list this can extend, or the
    edit would not keep every board it lists; ConfigError when it does not read."""
    target = path.resolve() if path.is_symlink() else path   # a link stays a link
    with locked(target):
        before = read_text(target)
        boards = tuple(load_sources(target, REGISTRY).boards) if before else ()
        after = appended(before, board_line(board))
        write_checked(target, after, board, before=boards)
    return before, after


__all__ = ["add_board", "appended", "board_line", "listed", "locked", "read_text", "removed",
           "scalar", "write_checked", "write_holding"]
