"""Dates from outside are bounded where they enter: an interview time more than about
two years from the mail's Date is refused with the reason, as is a zone past any on
Earth (`UTC+25`); no error of the date reader (year 9999 + an hour, a zone offset of
a day) escapes as anything but a `Refused`. End times are reckoned in UTC, so 60
minutes are 60 across a change of the clocks, and a local time the clocks skip or
pass twice is noted in the slot."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jobtracker.interviews.when import Found, Refused, slots

SENT = datetime(2026, 11, 20, 8, 30, tzinfo=UTC)

FAR = ["Friday 3 December 9999 at 14:00 UTC", "Friday 31 December 9999 at 23:30 UTC",
       "on 9999-12-31 at 23:59 UTC", "Monday 3 December 2029 at 10:00 CET",
       "Tuesday 1 January 2030 at 09:00 Europe/Berlin", "Wednesday 1 January 2020 at 10:00 UTC",
       "on 0001-01-01 at 00:00 UTC", "Thursday 3 December 2099 at 10:00 GMT"]
ZONES = ["UTC+25", "UTC-30", "GMT+99", "UTC+14:75", "+2500", "UTC+24:00", "GMT-15"]


@pytest.mark.parametrize("quote", FAR)
def test_a_time_far_from_the_mails_date_is_refused_with_the_reason(quote: str) -> None:
    with pytest.raises(Refused, match="two years from the mail's date"):
        slots(quote, SENT)


@pytest.mark.parametrize("zone", ZONES)
def test_a_zone_past_any_on_earth_is_refused(zone: str) -> None:
    with pytest.raises(Refused, match="no time zone"):
        slots(f"Thursday 3 December at 14:00 {zone}", SENT)


def test_a_time_within_the_horizon_is_read() -> None:
    found = slots("Friday 3 December 2027 at 14:00 UTC", SENT)
    assert [s.start.isoformat() for s in found.slots] == ["2027-12-03T14:00:00+00:00"]


PIECES = st.sampled_from([
    "Friday", "3", "31", "December", "9999", "10001", "0001", "2026-12-03", "9999-12-31",
    "at", "14:00", "23:59", "24:00", "99:99", "noon", "10am", "13pm", "-", "to", "UTC",
    "UTC+25", "UTC-99:99", "GMT+14", "+9999", "CET", "EST", "Europe/Berlin", "Mars/Olympus",
    "tomorrow", "today", "on Monday", ",", "(", ")", "h", "−12", "0", "00:00"])


@settings(max_examples=400, deadline=None, database=None)
@given(st.lists(PIECES, min_size=1, max_size=9), st.integers(0, 600),
       st.sampled_from([None, "Europe/Berlin", "Pacific/Kiritimati", "America/New_York"]),
       st.sampled_from([SENT, datetime(9999, 12, 31, 23, 0, tzinfo=UTC),
                        datetime(1, 1, 2, tzinfo=UTC)]))
def test_every_error_of_the_date_reader_is_a_refusal(words: list[str], minutes: int,
                                                     zone: str | None, sent: datetime) -> None:
    try:
        found = slots(" ".join(words), sent, user_zone=zone, minutes=minutes)
    except Refused:
        return
    assert isinstance(found, Found)
    for slot in found.slots:
        assert abs(slot.start.astimezone(UTC) - sent) <= timedelta(days=2 * 366 + 1)
        assert slot.end.astimezone(UTC) > slot.start.astimezone(UTC)


CHANGES = [  # (quote, zone): local times the clocks skip, then ones they pass twice
    ("Sunday 29 March 2026 at 02:30 Europe/Berlin", "spring forward"),
    ("Sunday 8 March 2026 at 2:30 am America/New_York", "spring forward"),
    ("Sunday 4 October 2026 at 02:15 Australia/Sydney", "spring forward"),
    ("Sunday 25 October 2026 at 02:30 Europe/Berlin", "go back"),
    ("Sunday 1 November 2026 at 1:30 am America/New_York", "go back"),
    ("Sunday 5 April 2026 at 02:45 Australia/Sydney", "go back"),
]


@pytest.mark.parametrize(("quote", "change"), CHANGES)
@pytest.mark.parametrize("minutes", [0, 45, 90])
def test_a_time_at_a_change_of_the_clocks_lasts_what_it_says_and_is_noted(
        quote: str, change: str, minutes: int) -> None:
    sent = datetime(2026, 2, 1, tzinfo=UTC)
    (slot,) = slots(quote, sent, minutes=minutes).slots
    length = slot.end.astimezone(UTC) - slot.start.astimezone(UTC)
    assert length == timedelta(minutes=minutes or 60)
    assert any(change in note for note in slot.notes), slot.notes


def test_an_until_across_the_fall_back_hour_is_counted_in_real_time() -> None:
    (slot,) = slots("Sunday 25 October 2026 from 01:30 to 03:30 Europe/Berlin",
                    datetime(2026, 10, 1, tzinfo=UTC)).slots
    assert slot.end.astimezone(UTC) - slot.start.astimezone(UTC) == timedelta(hours=3)


def test_an_ordinary_time_has_no_note() -> None:
    (slot,) = slots("Thursday 3 December at 14:00 Europe/Berlin", SENT).slots
    assert slot.notes == ()
