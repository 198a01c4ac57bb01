"""What every source shares: titles cleaned, descriptions bounded, times read as ISO 8601."""

from __future__ import annotations

import pytest
from servers.boards import (
    greenhouse_board,
    greenhouse_job,
)

from jobtracker.config import Board
from jobtracker.sources import REGISTRY
from jobtracker.sources.base import MAX_DESCRIPTION_CHARS, TRUNCATED_MARK, iso_time

GH = Board("greenhouse", "acme", "Acme")


def test_titles_are_cleaned_of_controls_and_newlines() -> None:
    job = greenhouse_job(1, "Senior\x1b[31m Engineer\n\u202e[b]x[/b]")
    [posting] = REGISTRY["greenhouse"].parse(greenhouse_board([job]), GH)
    assert posting.title == "Senior Engineer [b]x[/b]"


def test_a_huge_description_is_bounded() -> None:
    job = greenhouse_job(1, "Engineer", content_html="<p>" + "word " * 60_000 + "</p>")
    [posting] = REGISTRY["greenhouse"].parse(greenhouse_board([job]), GH)
    assert posting.description is not None
    assert len(posting.description) <= MAX_DESCRIPTION_CHARS + len(TRUNCATED_MARK)
    assert posting.description.endswith(TRUNCATED_MARK)


@pytest.mark.parametrize(("value", "expected"), [
    ("2026-09-01T10:00:00-04:00", "2026-09-01T14:00:00Z"),
    ("2026-09-01T10:00:00Z", "2026-09-01T10:00:00Z"),
    ("2026-09-01T10:00:00.123+00:00", "2026-09-01T10:00:00.123000Z"),
    (1_788_000_000_000, "2026-08-29T10:40:00Z"),
    ("not a date", None), (None, None), (True, None),
])
def test_iso_time(value: object, expected: str | None) -> None:
    assert iso_time(value) == expected
