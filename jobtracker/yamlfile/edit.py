"""Edits of a YAML file made in its own text, so what the user wrote stays as written.

A learned change to profile.yaml touches one value: a weight, one item more or less
in a list, a key added. Dumping the parsed document again would drop every comment
and redo the layout, so each edit here finds the node's place through PyYAML's
composed marks and splices the smallest text that makes the change: a scalar
replaced, an item inserted after the last one in the list's own style (block or
flow), a key added beside its siblings.

Every edit is then proven: the new text is parsed and must equal the old data with
exactly the intended change. Anything this cannot do safely (an anchor, a value of
an unexpected type, a list it would empty) is an EditError, and the file is left
for the user to edit by hand.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import yaml

Path_ = tuple[str, ...]
_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9 ._-]*")


class EditError(ValueError):
    """The edit cannot be made in this text; the message says why, for people."""


@dataclass(frozen=True)
class Edit:
    """One change: `op` is `set` (a scalar at `path`), `append` or `remove` (an item of
    the list at `path`). `value` is plain JSON-safe data."""

    op: str
    path: Path_
    value: Any

    def to_json(self) -> dict[str, Any]:
        return {"op": self.op, "path": list(self.path), "value": self.value}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Edit:
        return cls(str(data["op"]), tuple(str(p) for p in data["path"]), data["value"])


def flow(value: Any) -> str:
    """`value` as YAML flow text: plain words stay plain, other strings are quoted."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{flow(k)}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int | float):
        return repr(value)
    text = str(value)
    if _PLAIN.fullmatch(text) and not text.endswith(" ") and yaml.safe_load(text) == text:
        return text
    return json.dumps(text, ensure_ascii=False)   # a JSON string is a YAML double-quoted one


def expected(data: Any, edit: Edit) -> Any:
    """The data the edited text must parse to."""
    out = copy.deepcopy(data) if data is not None else {}
    parent = out
    for key in edit.path[:-1]:
        if not isinstance(parent.get(key), dict):
            parent[key] = {}
        parent = parent[key]
    last = edit.path[-1]
    if edit.op == "set":
        parent[last] = edit.value
    elif edit.op == "append":
        parent[last] = [*(parent.get(last) or []), edit.value]
    elif edit.op == "remove":
        parent[last] = [v for v in parent.get(last) or [] if v != edit.value]
    return out


def apply(text: str, edit: Edit) -> str:
    """`text` with `edit` made; raises EditError when it cannot be made safely."""
    if edit.op not in ("set", "append", "remove") or not edit.path:
        raise EditError(f"not an edit this can make: {edit.op} {'.'.join(edit.path)}")
    try:
        if _uses_anchors(text):
            raise EditError("the file uses YAML anchors; edit it by hand")
        root = yaml.compose(text)
        before = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise EditError(f"the file is not valid YAML: {error}") from None
    if root is not None and not isinstance(root, yaml.MappingNode):
        raise EditError("the file is not a mapping")
    newline = "\r\n" if "\r\n" in text else "\n"
    edited = _Splice(text, newline).run(root, edit)
    try:
        after = yaml.safe_load(edited)
    except yaml.YAMLError as error:
        raise EditError(f"the edit would break the file: {error}") from None
    if _duplicate_key(yaml.compose(edited)) or after != expected(before, edit):
        raise EditError("the edit would change more than intended")
    return edited


class _Splice:
    """Finds where an edit goes in the text and splices it in."""

    def __init__(self, text: str, newline: str) -> None:
        self.text, self.newline = text, newline

    def run(self, root: yaml.Node | None, edit: Edit) -> str:
        mapping, depth = root, 0
        while depth < len(edit.path) - 1 and mapping is not None:
            child = _child(mapping, edit.path[depth])
            if child is None or _is_null(child):
                break
            if not isinstance(child, yaml.MappingNode):
                raise EditError(f"{'.'.join(edit.path[:depth + 1])} is not a mapping")
            mapping, depth = child, depth + 1
        if depth < len(edit.path) - 1 or mapping is None:
            return self._add_key(mapping, edit.path[depth:], _new_value(edit))
        node = _child(mapping, edit.path[-1])
        if node is None or _is_null(node):
            if edit.op == "remove":
                raise EditError(f"{'.'.join(edit.path)} lists nothing to remove")
            return self._add_key(mapping, edit.path[-1:], _new_value(edit), replace=node)
        if edit.op == "set":
            if not isinstance(node, yaml.ScalarNode):
                raise EditError(f"{'.'.join(edit.path)} is not a single value")
            return self._replace(node.start_mark.index, node.end_mark.index, flow(edit.value))
        if not isinstance(node, yaml.SequenceNode):
            raise EditError(f"{'.'.join(edit.path)} is not a list")
        if edit.op == "append":
            return self._append(node, edit.value)
        return self._remove(node, edit.value)

    # --- the splices -------------------------------------------------------------

    def _replace(self, start: int, end: int, new: str) -> str:
        return self.text[:start] + new + self.text[end:]

    def _add_key(self, mapping: yaml.Node | None, path: Sequence[str], value: Any,
                 replace: yaml.Node | None = None) -> str:
        """Add `path[0]: value` (nested for a longer path) to `mapping`."""
        nested: Any = value
        for key in reversed(path[1:]):
            nested = {key: nested}
        if replace is not None:
            # `key: null`, `key: ~` or `key:` alone: the value goes where it stands.
            start, end = replace.start_mark.index, replace.end_mark.index
            if start == end:            # nothing written: just after the key's colon
                start = end = self.text.index(":", self._key_end(mapping, path[0])) + 1
                return self._replace(start, end, " " + flow(nested))
            return self._replace(start, end, flow(nested))
        entry = f"{flow(path[0])}: {flow(nested)}"
        if mapping is None or not isinstance(mapping, yaml.MappingNode) or not mapping.value:
            if mapping is not None and mapping.flow_style:
                close = self._closing(mapping, "}")
                return self._replace(close, close, entry)
            prefix = self.text if not self.text or self.text.endswith("\n") else \
                self.text + self.newline
            return prefix + entry + self.newline
        if mapping.flow_style:
            close = self._closing(mapping, "}")
            return self._replace(close, close, ", " + entry)
        indent = " " * mapping.value[0][0].start_mark.column
        return self._insert_line_after(mapping.value[-1][1], indent + entry)

    def _append(self, seq: yaml.SequenceNode, value: Any) -> str:
        if seq.flow_style:
            close = self._closing(seq, "]")
            return self._replace(close, close, (", " if seq.value else "") + flow(value))
        first = seq.value[0]
        dash = self.text.rfind("-", 0, first.start_mark.index)
        indent = " " * (dash - self.text.rfind("\n", 0, dash) - 1)
        return self._insert_line_after(seq.value[-1], f"{indent}- {flow(value)}")

    def _remove(self, seq: yaml.SequenceNode, value: Any) -> str:
        items = [n for n in seq.value if yaml.safe_load(self.text[
            n.start_mark.index:n.end_mark.index]) == value]
        if not items:
            raise EditError(f"{flow(value)} is not in the list")
        if len(items) == len(seq.value):
            raise EditError("the edit would empty the list; edit it by hand")
        item = items[0]
        index = seq.value.index(item)
        if seq.flow_style:
            if index == 0:
                nxt = seq.value[1].start_mark.index
                return self._replace(item.start_mark.index, nxt, "")
            prev_end = seq.value[index - 1].end_mark.index
            return self._replace(prev_end, item.end_mark.index, "")
        start = self.text.rfind("\n", 0, item.start_mark.index) + 1
        end = self._line_end(item)
        return self._replace(start, end, "")

    # --- positions ---------------------------------------------------------------

    @staticmethod
    def _key_end(mapping: yaml.Node | None, key: str) -> int:
        for key_node, _ in mapping.value if isinstance(mapping, yaml.MappingNode) else ():
            if isinstance(key_node, yaml.ScalarNode) and key_node.value == key:
                return int(key_node.end_mark.index)
        raise EditError(f"{key} is not in the file")

    def _closing(self, node: yaml.Node, bracket: str) -> int:
        """Where to insert before a flow collection's closing bracket (spaces kept after)."""
        close = node.end_mark.index - 1
        if self.text[close] != bracket:
            raise EditError("unexpected layout of a flow collection")
        while close > node.start_mark.index + 1 and self.text[close - 1] in " \t":
            close -= 1
        return close

    def _line_end(self, node: yaml.Node) -> int:
        """The index just past the newline of the line where `node` ends."""
        end = node.end_mark.index
        if end > 0 and self.text[end - 1] == "\n":     # a block scalar ends after its newline
            return end
        newline = self.text.find("\n", end)
        return len(self.text) if newline < 0 else newline + 1

    def _insert_line_after(self, node: yaml.Node, line: str) -> str:
        at = self._line_end(node)
        head = self.text[:at]
        if head and not head.endswith("\n"):
            head += self.newline
        return head + line + self.newline + self.text[at:]


def _uses_anchors(text: str) -> bool:
    """Whether the parser meets an anchor (`&name`) or an alias (`*name`): read from its
    events, so `&` in prose or a comment (`R&D and Q&A teams, &more`, `# at &Partners`)
    is text, as it is to the loader."""
    return any(isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None)
               for event in yaml.parse(text, Loader=yaml.SafeLoader))


def _child(mapping: yaml.Node, key: str) -> yaml.Node | None:
    if not isinstance(mapping, yaml.MappingNode):
        return None
    for key_node, value_node in mapping.value:
        if isinstance(key_node, yaml.ScalarNode) and key_node.value == key:
            return value_node
    return None


def _duplicate_key(node: yaml.Node | None) -> bool:
    """Whether any mapping in the tree names a key twice (the loader would take the last)."""
    if isinstance(node, yaml.MappingNode):
        keys = [k.value for k, _ in node.value if isinstance(k, yaml.ScalarNode)]
        return len(keys) != len(set(keys)) or any(_duplicate_key(v) for _, v in node.value)
    if isinstance(node, yaml.SequenceNode):
        return any(_duplicate_key(v) for v in node.value)
    return False


def _is_null(node: yaml.Node) -> bool:
    return isinstance(node, yaml.ScalarNode) and node.tag.endswith(":null")


def _new_value(edit: Edit) -> Any:
    return [edit.value] if edit.op == "append" else edit.value
