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
`jobtracker sources remove` takes one entry out by the parser's marks (`removed`) and
proves the result is the old data less exactly that entry (`write_holding` writes it).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import yaml

from jobtracker import files, yamlfile
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


def removed(text: str, section: str, index: int) -> str:
    """`text` without item `index` of its top-level `section` list (`boards`, `feeds`):
    `jobtracker sources remove`.

    The item is found by the parser's own marks, never by indentation: a blank line or a
    comment inside the entry, a flow-style entry, a `boards` written `"boards"` or
    after a byte-order mark are all the same node. The cut runs from the start of the
    item's `- ` line to the end of the line holding its last value (a comment after the
    item, which may be the next one's, stays); a flow list loses the item and one comma.
    The result is then proven: parsed again, it must equal the old data with exactly
    that item gone, every field of every other entry, boards and feeds, unchanged.
    ValueError (for people, without a file name) when any of that does not hold."""
    before = _data(text, "the file")
    node = _section(text, section)
    if index < 0 or index >= len(node.value):
        raise ValueError(f"`{section}` has no entry {index + 1} in the file's text")
    item = node.value[index]
    if node.flow_style:
        if len(node.value) == 1:
            start, end = item.start_mark.index, item.end_mark.index
        elif index == 0:
            start, end = item.start_mark.index, node.value[1].start_mark.index
        else:
            start, end = node.value[index - 1].end_mark.index, item.end_mark.index
    else:
        dash = text.rfind("-", 0, item.start_mark.index)
        start = text.rfind("\n", 0, dash) + 1
        end = _line_end(text, _content_end(item))
    edited = text[:start] + text[end:]
    after = _data(edited, "the edited file")
    wanted = copy.deepcopy(before)
    del wanted[_key_of(before, section)][index]
    if not _same(after, wanted, section):
        raise ValueError("the edit would change more than that entry")
    return edited


def _prove_appended(before: str, after: str) -> None:
    """`after` must read as `before`'s data with one board more at the end of `boards`:
    every field of every other board and every feed unchanged (ValueError if not)."""
    old = _data(before, "the file") if before.strip() else {}
    new = _data(after, "the edited file")
    key = next((k for k in new if isinstance(k, str)
                and k.lstrip("\ufeff").strip() == "boards"), None)
    listed_now = new.get(key) if key is not None else None
    if not isinstance(listed_now, list) or not listed_now:
        raise ValueError("the edited file does not list the new board")
    wanted = copy.deepcopy(old)
    wanted[key] = [*(old.get(key) or []), listed_now[-1]]
    if new != wanted:
        raise ValueError("the edit would change more than the new board")


def _data(text: str, what: str) -> dict[str, Any]:
    try:
        data = yamlfile.parse(Path("sources.yaml"), text).data
    except ConfigError as exc:
        raise ValueError(f"{what} does not read ({exc.message})") from None
    return data if isinstance(data, dict) else {}


def _section(text: str, section: str) -> yaml.SequenceNode:
    """The node of the top-level `section` list, found as the loader finds the key."""
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    if isinstance(root, yaml.MappingNode):
        for key, value in root.value:
            if isinstance(key, yaml.ScalarNode) and \
                    key.value.lstrip("\ufeff").strip() == section:
                if not isinstance(value, yaml.SequenceNode):
                    break
                return value
    raise ValueError(f"no `{section}:` list found")


def _key_of(data: dict[str, Any], section: str) -> str:
    return next(k for k in data if isinstance(k, str) and k.lstrip("\ufeff").strip() == section)


def _same(after: dict[str, Any], wanted: dict[str, Any], section: str) -> bool:
    """Equal data, where a list left empty may read as nothing (`boards:` alone)."""
    key = _key_of(wanted, section)
    if wanted[key] == [] and after.get(key) is None and key in after:
        after = {**after, key: []}
    return after == wanted


def _content_end(node: yaml.Node) -> int:
    """Where the last value written inside `node` ends (a block mapping's own end mark
    runs on over the comments and blank lines that follow it)."""
    while True:
        if isinstance(node, yaml.MappingNode) and not node.flow_style and node.value:
            key, value = node.value[-1]
            if isinstance(value, yaml.ScalarNode) and value.start_mark.index == \
                    value.end_mark.index:
                return int(key.end_mark.index)      # `url:` with nothing after it
            node = value
        elif isinstance(node, yaml.SequenceNode) and not node.flow_style and node.value:
            node = node.value[-1]
        else:
            return int(node.end_mark.index)


def _line_end(text: str, at: int) -> int:
    """Just past the newline of the line `at` is on (a block scalar ends past its own)."""
    if at > 0 and text[at - 1] == "\n":
        return at
    newline = text.find("\n", at)
    return len(text) if newline < 0 else newline + 1


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
        _prove_appended(before, after)
        write_checked(target, after, board, before=boards)
    return before, after


__all__ = ["add_board", "appended", "board_line", "listed", "locked", "read_text", "removed",
           "scalar", "write_checked", "write_holding"]
