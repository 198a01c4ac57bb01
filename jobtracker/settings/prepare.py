"""config.yaml's `prepare:` section: how many packets `prepare` makes (docs/prepare.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jobtracker.yamlfile import Document, checks


@dataclass(frozen=True)
class PrepareConfig:
    top: int = 5              # packets `prepare` and the end of `--run` make; 0: none at the end


def load(doc: Document, value: Any) -> PrepareConfig:
    raw = checks.mapping(doc, value, "prepare", allowed=("top",))
    return PrepareConfig(top=checks.integer(doc, raw.get("top", PrepareConfig.top), "prepare",
                                            "top", minimum=0))
