"""The workspace's YAML files: read so that every error can name the file, the line and
the field; `edit` changes one value in a file's own text, keeping the rest as written."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

# libyaml's parser when PyYAML was built with it (its wheels are): the same events,
# nodes and marks, about fifteen times faster, which a profile listing 10,000
# companies to filter needs (some 15 s to read with the pure-Python one).
_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


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


def _record_lines(node: yaml.Node, at: tuple[Any, ...], lines: dict[tuple[Any, ...], int]) -> None:
    lines[at] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = key_node.value
            lines[(*at, key)] = key_node.start_mark.line + 1
            _record_lines(value_node, (*at, key), lines)
            lines[(*at, key)] = key_node.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _record_lines(item, (*at, index), lines)


def _refuse_aliases(path: Path, text: str) -> None:
    """No file of jobtracker's needs anchors or aliases, and an alias is a bomb: a few
    hundred bytes of nested `*a` expand to gigabytes once anything walks the tree (line
    recording does). So the first `&anchor` or `*alias` is an error, found by the
    parser's events, before any tree is built."""
    for event in yaml.parse(text, Loader=_LOADER):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise ConfigError(path, "YAML anchors and aliases (&name, *name, <<: *name) are "
                              "not accepted; write the value out in full",
                              event.start_mark.line + 1)


def _compose_and_construct(text: str) -> tuple[yaml.Node | None, Any]:
    """One parse gives both the node tree (for lines) and the data."""
    loader = _LOADER(text)
    try:
        node = loader.get_single_node()
        return node, loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()


def load(path: Path, missing_ok: bool = True) -> Document:
    """Parse `path`. A missing file is an empty document when `missing_ok`."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        if missing_ok:
            return Document(path, None, {})
        raise ConfigError(path, "file not found") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(path, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise ConfigError(path, f"cannot read: {exc.strerror}") from None
    return parse(path, text)


def parse(path: Path, text: str) -> Document:
    """`text` as the YAML file `path` (errors name it), already read."""
    try:
        _refuse_aliases(path, text)
        node, data = _compose_and_construct(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or exc.context or "invalid YAML"
        raise ConfigError(path, f"invalid YAML: {problem}", line) from None
    except yaml.YAMLError as exc:
        raise ConfigError(path, f"invalid YAML: {exc}") from None
    lines: dict[tuple[Any, ...], int] = {}
    if node is not None:
        _record_lines(node, (), lines)
    return Document(path, data, lines)
