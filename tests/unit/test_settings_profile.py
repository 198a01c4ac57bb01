"""profile.yaml (jobtracker/settings/profile.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobtracker.settings import profile
from jobtracker.yamlfile import ConfigError


def test_a_missing_profile_is_the_defaults_and_says_it_does_not_exist(tmp_path: Path) -> None:
    got = profile.load_profile(tmp_path / "profile.yaml")
    assert not got.exists and got.weights == profile.DEFAULT_WEIGHTS and not got.filters.active


def test_levels_are_checked_and_weights_laid_over_the_defaults(tmp_path: Path) -> None:
    path = tmp_path / "profile.yaml"
    path.write_text("prose: Go\nlevels: [Senior]\nweights: {remote: 0}\n")
    got = profile.load_profile(path)
    assert got.levels == ("senior",) and got.weights["remote"] == 0.0
    assert got.prose_hash == profile.load_profile(path).prose_hash
    path.write_text("levels: [wizard]\n")
    with pytest.raises(ConfigError, match=r"profile.yaml:1: levels\[0\]: unknown value 'wizard'"):
        profile.load_profile(path)
