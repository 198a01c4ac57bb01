"""config.yaml's `alerts:` section (jobtracker/settings/alerts.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobtracker.settings import alerts
from jobtracker.yamlfile import ConfigError, parse


def read(tmp_path: Path, text: str) -> alerts.AlertsConfig:
    doc = parse(tmp_path / "config.yaml", text)
    return alerts.load(doc, doc.data["alerts"] if doc.data else None)


def test_absent_alerts_are_read_closed_after_two_weeks_and_five_boards_probed(
        tmp_path: Path) -> None:
    assert read(tmp_path, "") == alerts.AlertsConfig(True, 14, 5)


def test_each_key_is_checked(tmp_path: Path) -> None:
    assert read(tmp_path, "alerts: {enabled: false, probe_companies: 0}").probe_companies == 0
    with pytest.raises(ConfigError, match=r"alerts\.enabled: must be true or false"):
        read(tmp_path, "alerts: {enabled: sometimes}")
    with pytest.raises(ConfigError, match=r"alerts\.close_after_days: must be a whole number"):
        read(tmp_path, "alerts: {close_after_days: 0}")
