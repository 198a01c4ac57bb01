"""keywords.yaml: the skills the user has that the resume may not name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jobtracker import yamlfile
from jobtracker.resume import KEYWORDS

# --- keywords.yaml ----------------------------------------------------------------------

class KeywordsError(ValueError):
    """keywords.yaml cannot be read; the message names the line when YAML gives one."""


def keyword_terms(text: str | None) -> list[str]:
    """Every keyword in keywords.yaml: the scalar values of any nesting of lists and
    mappings (`keywords: [python]`, or lists grouped under names). Keys are group
    names, not keywords."""
    if not text or not text.strip():
        return []
    try:
        # The same reader as every other workspace file: aliases, values that cannot be
        # built, duplicate keys and deep nesting are errors with a line, not tracebacks.
        data = yamlfile.parse(Path(KEYWORDS), text).data
    except yamlfile.ConfigError as exc:
        where = f"line {exc.line}: " if exc.line else ""
        what = f"{exc.field}: {exc.message}" if exc.field else exc.message
        raise KeywordsError(f"{KEYWORDS}: {where}{what}") from None
    found: list[str] = []
    _collect(data, found)
    return found


def _collect(node: Any, out: list[str]) -> None:
    if isinstance(node, dict):
        for value in node.values():
            _collect(value, out)
    elif isinstance(node, list):
        for item in node:
            _collect(item, out)
    elif isinstance(node, str | int | float) and not isinstance(node, bool) and str(node).strip():
        out.append(str(node).strip())


