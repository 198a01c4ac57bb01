"""keywords.yaml: the skills the user has that the resume may not name."""

from __future__ import annotations

from typing import Any

import yaml

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
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}: " if mark else ""
        raise KeywordsError(f"{KEYWORDS}: {where}invalid YAML: "
                            f"{exc.problem or exc.context or 'unreadable'}") from None
    except yaml.YAMLError as exc:
        raise KeywordsError(f"{KEYWORDS}: invalid YAML: {exc}") from None
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


