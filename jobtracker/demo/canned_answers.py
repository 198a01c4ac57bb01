"""What the demo model says: canned, plausible answers built from the question itself.

No model runs. Each answer is read off the request — the task named in its
`response_format`, the schema, the text of the prompt — so that it passes the
same grounding checks a real model's answer must pass. What an answer means is
the task's to say: each task declares its canned answer (`Task.demo`, see
jobtracker/tasks/canned.py), found here through the task registry, so this module
names no task and a new task brings its own.

A task that declares none gets the smallest instance of the schema it asked for
(`instance_of`). Whatever a schema holds beyond the fields an answer fills is
filled the same way (`fit`), so the answer always validates.
"""

from __future__ import annotations

from typing import Any

from jobtracker import tasks
from jobtracker.tasks.canned import DemoAnswer, Resume

# --- the smallest valid instance of a schema ----------------------------------------

_WORD_FILL = "example"


def instance_of(schema: Any, root: dict[str, Any]) -> Any:
    """The smallest plain instance of `schema`: first choices, minimum sizes."""
    if not isinstance(schema, dict):
        return None
    if "$ref" in schema:
        return instance_of(resolve_ref(schema["$ref"], root), root)
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    for combinator in ("anyOf", "oneOf", "allOf"):
        if schema.get(combinator):
            return instance_of(schema[combinator][0], root)
    kind = schema.get("type", "object" if "properties" in schema else "string")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object":
        return {name: instance_of(sub, root)
                for name, sub in (schema.get("properties") or {}).items()}
    if kind == "array":
        count = max(schema.get("minItems", 0), min(1, schema.get("maxItems", 1)))
        return [instance_of(schema.get("items", {}), root) for _ in range(count)]
    if kind == "string":
        text = _WORD_FILL * (1 + schema.get("minLength", 0) // len(_WORD_FILL))
        return text[:max(schema.get("minLength", 0),
                         min(len(_WORD_FILL), schema.get("maxLength", 99)))]
    if kind in ("integer", "number"):
        value = max(schema.get("minimum", 0), min(0, schema.get("maximum", 0)))
        return int(value) if kind == "integer" else float(value)
    if kind == "boolean":
        return False
    return None


def resolve_ref(ref: str, root: dict[str, Any]) -> Any:
    node: Any = root
    for part in ref.removeprefix("#/").split("/"):
        if part:
            node = node[part]
    return node


def requested_schema(body: dict[str, Any]) -> dict[str, Any]:
    """The answer schema of a chat request, nested (json_schema) or flat (json_object)."""
    fmt = body.get("response_format") or {}
    schema = (fmt.get("json_schema") or {}).get("schema") or fmt.get("schema") or {}
    return schema if isinstance(schema, dict) else {}


# --- filling a schema from what an answer means ---------------------------------------

# Names a schema might give the fields of a resume edit; the first is ours.
_SYNONYMS = {
    "original": ("original", "old", "before", "find", "from", "source", "text"),
    "replacement": ("replacement", "new", "after", "replace", "to", "suggestion", "revised"),
    "reason": ("reason", "why", "rationale", "because", "explanation"),
}


def _pick(value: dict[str, Any], name: str) -> Any:
    if name in value:
        return value[name]
    for ours, names in _SYNONYMS.items():
        if name in names and ours in value:
            return value[ours]
    return None


def fit(value: Any, schema: Any, root: dict[str, Any]) -> Any:
    """`value` shaped to `schema`: strings cut to maxLength, lists to maxItems, an enum
    value outside the enum replaced by the first, missing parts filled minimally."""
    if not isinstance(schema, dict):
        return value
    if "$ref" in schema:
        return fit(value, resolve_ref(schema["$ref"], root), root)
    if value is None:
        return instance_of(schema, root)
    if schema.get("enum") and value not in schema["enum"]:
        return schema["enum"][0]
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "string" or (kind is None and isinstance(value, str)):
        text = value if isinstance(value, str) else "\n\n".join(map(str, value))
        return text[:schema.get("maxLength", len(text))]
    if kind == "array":
        items = list(value) if isinstance(value, list | tuple) else [value]
        items = items[:schema.get("maxItems", len(items))]
        items = [fit(item, schema.get("items", {}), root) for item in items]
        while len(items) < schema.get("minItems", 0):
            items.append(instance_of(schema.get("items", {}), root))
        return items
    if kind == "object" or "properties" in schema:
        given = value if isinstance(value, dict) else {}
        return {name: fit(_pick(given, name), sub, root)
                for name, sub in (schema.get("properties") or {}).items()}
    return value


# --- reading the request -----------------------------------------------------------------

def user_text(body: dict[str, Any]) -> str:
    """The last user message's text."""
    for message in reversed(body.get("messages") or []):
        if isinstance(message, dict) and message.get("role") == "user":
            content = message.get("content")
            return content if isinstance(content, str) else str(content or "")
    return ""


def task_of(body: dict[str, Any]) -> str:
    """The task asked: the json_schema's name (the task's name), else the first task, in
    the registry's order, whose declared `field` the flat format's schema has; '' when
    neither says."""
    name = ((body.get("response_format") or {}).get("json_schema") or {}).get("name")
    if isinstance(name, str) and name:
        return name
    props = set(requested_schema(body).get("properties") or {})
    return next((task.name for task in tasks.REGISTRY.values()
                 if task.demo is not None and task.demo.field and task.demo.field in props),
                "")


def demo_of(body: dict[str, Any]) -> DemoAnswer | None:
    """The canned answer the task asked declares; None for an unknown task or none."""
    task = tasks.REGISTRY.get(task_of(body))
    return task.demo if task is not None else None


class DemoAnswers:
    """The demo model's answer to one chat request, as a schema-valid object: the
    canned answer of the task asked when it declares one, else the smallest instance
    of its schema."""

    def __init__(self, resume: Resume) -> None:
        self.resume = resume

    def __call__(self, body: dict[str, Any]) -> Any:
        schema = requested_schema(body)
        demo = demo_of(body)
        meaning = demo.answer(user_text(body), self.resume) if demo is not None else None
        return fit(meaning, schema, schema)   # fit(None, ...) is the schema's instance


__all__ = ["DemoAnswers", "Resume", "demo_of", "fit", "instance_of", "requested_schema",
           "task_of", "user_text"]
