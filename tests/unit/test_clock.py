"""Every stored time is ISO 8601 UTC to the second, with a Z."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

from jobtracker.clock import iso, now, now_iso


def test_a_time_is_stored_in_utc_to_the_second() -> None:
    berlin = datetime(2026, 11, 30, 21, 41, 59, 999_999, tzinfo=timezone(timedelta(hours=1)))
    assert iso(berlin) == "2026-11-30T20:41:59Z"


def test_now_is_utc_and_stored_the_same_way() -> None:
    assert now().tzinfo is UTC
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", now_iso())
