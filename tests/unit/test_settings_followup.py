"""config.yaml's `followup:` section (jobtracker/settings/followup.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobtracker.settings import followup
from jobtracker.yamlfile import ConfigError, parse


def read(tmp_path: Path, text: str) -> followup.Followup:
    doc = parse(tmp_path / "config.yaml", text)
    return followup.load_followup(doc, doc.data["followup"] if doc.data else None)


def test_a_key_given_replaces_that_default_only(tmp_path: Path) -> None:
    got = read(tmp_path, "followup: {applied: 3, offer: 2}")
    assert got.days == {**followup.FOLLOWUP_DEFAULTS, "applied": 3, "offer": 2}
    assert got.ghosted_after == followup.GHOSTED_AFTER


def test_a_key_that_is_no_status_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"followup.pending: unknown key"):
        read(tmp_path, "followup: {pending: 3}")
