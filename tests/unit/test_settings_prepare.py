"""config.yaml's `prepare:` section (jobtracker/settings/prepare.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobtracker.settings import prepare
from jobtracker.yamlfile import ConfigError, parse


def read(tmp_path: Path, text: str) -> prepare.PrepareConfig:
    doc = parse(tmp_path / "config.yaml", text)
    return prepare.load(doc, doc.data["prepare"] if doc.data else None)


def test_five_packets_unless_told_and_zero_is_none(tmp_path: Path) -> None:
    assert read(tmp_path, "").top == 5
    assert read(tmp_path, "prepare: {top: 0}").top == 0
    with pytest.raises(ConfigError, match=r"config.yaml:1: prepare.top: must be a whole number"):
        read(tmp_path, "prepare: {top: -1}")
