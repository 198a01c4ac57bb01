"""The workspace's YAML files: read so that every error can name the file, the line and
the field; `edit` changes one value in a file's own text, keeping the rest as written."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from jobtracker import files

# libyaml's parser when PyYAML was built with it (its wheels are): the same events,
# nodes and marks, about fifteen times faster, which a profile listing 10,000
# companies to filter needs (some 15 s to read with the pure-Python one). Only for
# large files: the two disagree on some malformed input (a byte-order mark inside a
# file is text to one and a parse error to the other), and every file a person writes
# by hand is read by the one the error messages were written against.
_FAST_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
FAST_FROM_CHARS = 128 * 1024


def _loader_for(text: str) -> type[yaml.SafeLoader]:
    return _FAST_LOADER if len(text) >= FAST_FROM_CHARS else yaml.SafeLoader


class ConfigError(Exception):
    """A configuration problem, phrased for the user: file, line, field, what is wrong."""

    def __init__(self, path: Path | str, message: str, line: int | None = None,
                 field: str | None = None) -> None:
        self.path = Path(path)
        self.line = line
        self.field = field
        self.message = message
        where = f"{self.path}:{line}" if line else str(self.path)
        what = f"{field}: {message}" if field else message
        super().__init__(f"{where}: {what}")


@dataclass
class Document:
    """A parsed YAML file plus the line (1-based) where each field's value starts."""

    path: Path
    data: Any
    lines: dict[tuple[Any, ...], int]

    def line(self, *field: Any) -> int | None:
        """The line of `field` (a path of keys and indexes), else of its nearest parent."""
        field_path = tuple(field)
        while field_path:
            if field_path in self.lines:
                return self.lines[field_path]
            field_path = field_path[:-1]
        return self.lines.get(())

    def error(self, message: str, *field: Any) -> ConfigError:
        name = ".".join(str(f) if not isinstance(f, int) else f"[{f}]" for f in field)
        return ConfigError(self.path, message, self.line(*field), name.replace(".[", "[") or None)


# Deeper than this is no configuration of jobtracker's, and PyYAML's composer recurses
# once per level: `[` x 3000 would be a RecursionError with no line.
MAX_DEPTH = 64


def _record_lines(node: yaml.Node, at: tuple[Any, ...], lines: dict[tuple[Any, ...], int],
                  path: Path) -> None:
    lines[at] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        seen: dict[Any, int] = {}
        for key_node, value_node in node.value:
            key = key_node.value
            # The loader keeps the last of two equal keys: the earlier one's whole value
            # (every board above a second `boards:`) would vanish without a word.
            name = _key_identity(key_node)
            line = key_node.start_mark.line + 1
            if name in seen:
                raise ConfigError(path, f"duplicate key {_shown(key)} (first on line "
                                  f"{seen[name]}); a second one would replace the first",
                                  line)
            seen[name] = line
            lines[(*at, key)] = line
            _record_lines(value_node, (*at, key), lines, path)
            lines[(*at, key)] = line
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _record_lines(item, (*at, index), lines, path)


def _key_identity(node: yaml.Node) -> Any:
    """What a key is once loaded: `"boards"`, `boards` and `? boards` are one key, and a
    byte-order mark or stray spaces in front of a name do not make it another."""
    if isinstance(node, yaml.ScalarNode):
        value = node.value
        if node.tag == "tag:yaml.org,2002:str":
            value = value.lstrip("\ufeff").strip()
        return (node.tag, value)
    return (node.tag, id(node))


def _shown(key: Any) -> str:
    return repr(key.lstrip("\ufeff")) if isinstance(key, str) else repr(key)


def _refuse_aliases(path: Path, text: str) -> None:
    """No file of jobtracker's needs anchors or aliases, and an alias is a bomb: a few
    hundred bytes of nested `*a` expand to gigabytes once anything walks the tree (line
    recording does). So the first `&anchor` or `*alias` is an error, found by the
    parser's events, before any tree is built. The same pass bounds the nesting depth
    (the parser is a state machine, the composer after it recurses)."""
    depth = 0
    for event in yaml.parse(text, Loader=_loader_for(text)):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise ConfigError(path, "YAML anchors and aliases (&name, *name, <<: *name) are "
                              "not accepted; write the value out in full",
                              event.start_mark.line + 1)
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                raise ConfigError(path, f"invalid YAML: nested more than {MAX_DEPTH} levels "
                                  "deep", event.start_mark.line + 1)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def _compose_and_construct(path: Path, text: str) -> tuple[yaml.Node | None, Any]:
    """One parse gives both the node tree (for lines) and the data.

    Constructing a value can fail after parsing succeeded (`9` x 5000 is past Python's
    digit limit, `2024-02-30` is no date, `!!float abc`); the error then names the
    first value that cannot be built, with its line."""
    loader = _loader_for(text)(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, None
        try:
            return node, loader.construct_document(node)
        except yaml.YAMLError:
            raise
        except Exception as exc:    # ValueError, OverflowError, AttributeError, ...
            raise _unbuildable(path, node, exc) from None
    finally:
        loader.dispose()


def _unbuildable(path: Path, root: yaml.Node, exc: Exception) -> ConfigError:
    """The ConfigError for the first scalar under `root` that cannot be constructed."""
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.ScalarNode):
            try:
                yaml.SafeLoader("").construct_object(node)
            except Exception as failure:
                return ConfigError(path, f"invalid value {_sample(node.value)}: "
                                   f"{_reason(failure, node)}", node.start_mark.line + 1)
        elif isinstance(node, yaml.MappingNode):
            stack.extend(part for pair in reversed(node.value) for part in reversed(pair))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(reversed(node.value))
    return ConfigError(path, f"invalid YAML: {_reason(exc)}", root.start_mark.line + 1)


def _sample(value: str) -> str:
    return repr(value if len(value) <= 40 else value[:37] + "...")


def _reason(exc: Exception, node: yaml.Node | None = None) -> str:
    if node is not None and not isinstance(exc, ValueError | OverflowError):
        return f"not a valid {node.tag.rsplit(':', 1)[-1]}"   # a constructor's own slip
    text = str(exc).split(";")[0].split("\n")[0].strip()
    return text[:160] or type(exc).__name__


def _refuse_surrogates(doc: Document, data: Any, at: tuple[Any, ...] = ()) -> None:
    """A lone surrogate (`"\\udcff"`, what a non-UTF-8 byte becomes on a command line)
    is no character: it cannot be printed, sent or stored, so it is refused here, where
    the file and line are known, rather than by whatever later tries to encode it."""
    stack: list[tuple[tuple[Any, ...], Any]] = [(at, data)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                if isinstance(key, str) and _SURROGATE.search(key):
                    raise doc.error("not valid text (a lone surrogate; was the file "
                                    "written from a non-UTF-8 argument?)", *where)
                stack.append(((*where, key), item))
        elif isinstance(value, list):
            stack.extend(((*where, index), item) for index, item in enumerate(value))
        elif isinstance(value, str) and _SURROGATE.search(value):
            raise doc.error("not valid text (a lone surrogate; was the file written from a "
                            "non-UTF-8 argument?)", *where)


_SURROGATE = re.compile("[\ud800-\udfff]")


# No workspace file of jobtracker's is near this; a larger one is not read.
MAX_FILE_BYTES = 16 * 1024 * 1024


def load(path: Path, missing_ok: bool = True) -> Document:
    """Parse `path`. A missing file is an empty document when `missing_ok`.

    Read through the workspace's one reader (`files.read_regular_bytes`), following a
    link (a dotfiles folder): a FIFO or a device where a YAML file belongs is a
    ConfigError at once, never a read that hangs or fills memory."""
    try:
        raw = files.read_regular_bytes(path, MAX_FILE_BYTES, follow_links=True)
    except files.FileRefused as exc:
        raise ConfigError(path, _refusal(exc)) from None
    if raw is None:
        if missing_ok:
            return Document(path, None, {})
        raise ConfigError(path, "file not found")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(path, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    return parse(path, text)


def _refusal(exc: files.FileRefused) -> str:
    if exc.kind == "special":
        return "not a regular file (a FIFO, a device or a folder); replace it with a YAML file"
    if exc.kind == "large":
        return f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MB; not read"
    return exc.reason.replace("cannot be read:", "cannot read:", 1)


def parse(path: Path, text: str) -> Document:
    """`text` as the YAML file `path` (errors name it), already read."""
    try:
        _refuse_aliases(path, text)
        node, data = _compose_and_construct(path, text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or exc.context or "invalid YAML"
        raise ConfigError(path, f"invalid YAML: {problem}", line) from None
    except yaml.YAMLError as exc:
        raise ConfigError(path, f"invalid YAML: {exc}") from None
    except RecursionError:    # a structure the depth bound did not foresee
        raise ConfigError(path, "invalid YAML: nested too deeply") from None
    lines: dict[tuple[Any, ...], int] = {}
    if node is not None:
        _record_lines(node, (), lines, path)
    doc = Document(path, data, lines)
    _refuse_surrogates(doc, data)
    return doc
