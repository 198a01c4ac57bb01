"""config.yaml's `timezone:` (jobtracker/settings/timezone.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobtracker.settings import timezone
from jobtracker.yamlfile import ConfigError


def test_the_zone_alone_is_read_from_the_file(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("llm: {whatever: 1}\ntimezone: Europe/Berlin\n")
    assert timezone.load_timezone(path) == "Europe/Berlin"     # the rest is not checked
    assert timezone.load_timezone(tmp_path / "missing.yaml") is None


def test_a_name_that_is_no_zone_says_what_a_zone_looks_like(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("timezone: Mars/Olympus\n")
    with pytest.raises(ConfigError, match=r"config.yaml:1: timezone: 'Mars/Olympus' is not a "
                                          r"time zone name \(IANA"):
        timezone.load_timezone(path)
