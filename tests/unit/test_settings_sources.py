"""sources.yaml (jobtracker/settings/sources.py): boards of known ATSes, and feeds."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobtracker.settings.sources import Board, Feed, load_sources
from jobtracker.yamlfile import ConfigError


def test_boards_and_feeds_are_read_with_the_company_defaulting_to_the_token(
        tmp_path: Path) -> None:
    path = tmp_path / "sources.yaml"
    path.write_text("boards:\n  - {ats: Lever, token: acme}\n"
                    "feeds:\n  - {name: hn, url: 'https://hn.example/rss'}\n")
    got = load_sources(path, ["lever"])
    assert got.boards == (Board("lever", "acme", "acme"),)
    assert got.feeds == (Feed("hn", "https://hn.example/rss"),)
    assert got.boards[0].name == "lever:acme"


def test_an_ats_not_handed_in_is_refused_with_the_known_ones(tmp_path: Path) -> None:
    path = tmp_path / "sources.yaml"
    path.write_text("boards:\n  - {ats: taleo, token: acme}\n")
    with pytest.raises(ConfigError, match=r"sources.yaml:2: boards\[0\].ats: unknown ATS "
                                          r"'taleo' \(known: ashby, lever\)"):
        load_sources(path, ["lever", "ashby"])
