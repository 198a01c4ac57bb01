"""Every task's answer schema is bounded: a small model under a grammar fills whatever
room a schema leaves (an unbounded string ran to 1,997 tokens in 29 s)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest

from jobtracker.tasks import REGISTRY


def unbounded(schema: dict[str, Any], where: str = "") -> Iterator[str]:
    """Paths of free-text strings without maxLength and arrays without maxItems."""
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    if "string" in kinds and "enum" not in schema and "maxLength" not in schema:
        yield f"{where or '/'}: string without maxLength"
    if "array" in kinds and "maxItems" not in schema:
        yield f"{where or '/'}: array without maxItems"
    for name, child in (schema.get("properties") or {}).items():
        yield from unbounded(child, f"{where}/{name}")
    if isinstance(schema.get("items"), dict):
        yield from unbounded(schema["items"], f"{where}/items")
    for key in ("anyOf", "oneOf", "allOf"):
        for index, child in enumerate(schema.get(key) or ()):
            yield from unbounded(child, f"{where}/{key}/{index}")


def task_schema(name: str) -> dict[str, Any]:
    return sys.modules[type(REGISTRY[name]).__module__].SCHEMA


def test_the_checker_finds_what_it_looks_for() -> None:
    loose = {"type": "object", "properties": {
        "notes": {"type": "array", "items": {"type": "string"}},
        "level": {"type": "string", "enum": ["a", "b"]},
        "maybe": {"type": ["string", "null"]}}}
    assert sorted(unbounded(loose)) == [
        "/maybe: string without maxLength",
        "/notes/items: string without maxLength",
        "/notes: array without maxItems",
    ]


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_task_schema_bounds_its_strings_and_arrays(name: str) -> None:
    assert list(unbounded(task_schema(name))) == []
