"""config.yaml `render.dates` (jobtracker/render/settings.py): the month style and the
word for "present" that `resume import` writes dates with; checked like the rest of
config.yaml, English by default."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobtracker.render.settings import LONG, SHORT, DateStyle
from jobtracker.run.setup import config_of
from jobtracker.workspace import Workspace
from jobtracker.yamlfile import ConfigError


def dates_of(tmp_path: Path, yaml: str) -> DateStyle:
    ws = Workspace(tmp_path / "home")
    ws.init()
    (ws.home / "config.yaml").write_text(yaml)
    return config_of(ws).render.dates


def test_english_short_months_and_present_by_default(tmp_path: Path) -> None:
    style = dates_of(tmp_path, "render: {theme: classic}\n")
    assert style == DateStyle(SHORT, "present")
    assert style.span("2013-12-01", "2014-12-01") == "Dec 2013 – Dec 2014"
    assert style.span("2011-06", "") == "Jun 2011 – present"
    assert style.span("", "2014") == "2014"
    assert style.words("2013-13-01") == "2013-13-01", "no month 13: kept as written"


def test_the_month_style_and_the_word_for_present_are_read(tmp_path: Path) -> None:
    assert dates_of(tmp_path, "render:\n  dates: {months: long}\n").months == LONG
    numeric = dates_of(tmp_path, "render:\n  dates: {months: numeric, present: heute}\n")
    assert numeric.span("2011-06-01", "") == "06/2011 – heute"
    names = ", ".join(f"m{n}" for n in range(1, 13))
    own = dates_of(tmp_path, f"render:\n  dates:\n    months: [{names}]\n")
    assert own.words("2020-02-29") == "m2 2020"


@pytest.mark.parametrize(("yaml", "message"), [
    ("render:\n  dates: {months: roman}\n", "config.yaml:2: render.dates.months: unknown "
                                            "month style 'roman'"),
    ("render:\n  dates: {months: [a, b]}\n", "config.yaml:2: render.dates.months: must be "
                                             "short, long, numeric or a list of twelve"),
    ("render:\n  dates: {present: ''}\n", "config.yaml:2: render.dates.present: must be a "
                                          "non-empty string"),
    ("render:\n  dates: {style: x}\n", "render.dates.style: unknown key"),
    ("render:\n  dates: short\n", "render.dates: must be a mapping"),
])
def test_a_bad_setting_names_the_file_line_and_key(tmp_path: Path, yaml: str,
                                                    message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        dates_of(tmp_path, yaml)
    assert message in str(caught.value)
