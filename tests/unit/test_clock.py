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


def test_the_users_day_and_time_are_in_timezone_else_the_systems(monkeypatch) -> None:
    from jobtracker.clock import local, local_today, system_zone, zone_name

    late = "2026-12-04T00:30:00Z"     # 16:30 the day before in Los Angeles
    assert local(late, "America/Los_Angeles").strftime("%d %H:%M") == "03 16:30"
    assert local_today("America/Los_Angeles", late).isoformat() == "2026-12-03"
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    assert system_zone() == zone_name(None) == "Asia/Tokyo"
    assert local_today(None, late).isoformat() == "2026-12-04"
    assert zone_name("Europe/Berlin") == "Europe/Berlin", "timezone: wins"
    monkeypatch.setenv("TZ", "Etc/UTC")
    assert system_zone() == "UTC"
