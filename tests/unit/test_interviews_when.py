"""Times in a scheduling mail's sentence (jobtracker/interviews/when.py): each bad
input of issue 30 ends in a certain time, a question, or a refusal — never a guess."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from jobtracker.interviews.when import Refused, holds, slots

# Friday 20 November 2026, 09:30 at +01:00: 3 December 2026 is a Thursday.
SENT = datetime(2026, 11, 20, 9, 30, tzinfo=timezone(timedelta(hours=1)))


def starts(quote: str, **options: object) -> list[str]:
    return [s.start.isoformat() for s in slots(quote, SENT, **options).slots]  # type: ignore[arg-type]


def test_a_weekday_that_contradicts_its_date_is_refused() -> None:
    with pytest.raises(Refused, match="says Tuesday, but 3 December 2026 is a Thursday"):
        slots("Would Tuesday 3 December at 14:00 CET work?", SENT)
    assert starts("Would Thursday 3 December at 14:00 CET work?") == [
        "2026-12-03T14:00:00+01:00"]


@pytest.mark.parametrize(("quote", "start"), [
    ("Can we meet on 3 December at 14:00 CET?", "2026-12-03T14:00:00+01:00"),
    ("Can we meet on 3 December at 2pm CET?", "2026-12-03T14:00:00+01:00"),
    ("Can we meet on December 3 at 2:30 p.m. PST?", "2026-12-03T14:30:00-08:00"),
    ("Can we meet on Dec 3rd at 12pm EST?", "2026-12-03T12:00:00-05:00"),
    ("Can we meet on 3 December at 12 am UTC?", "2026-12-03T00:00:00+00:00"),
    ("Entretien le 3 December à 14h30 CET.", "2026-12-03T14:30:00+01:00"),
])
def test_twelve_and_twenty_four_hour_forms(quote: str, start: str) -> None:
    assert starts(quote) == [start]


@pytest.mark.parametrize(("quote", "start", "zone"), [
    ("on 3 December at 14:00 (UTC+01:00)", "2026-12-03T14:00:00+01:00", None),
    ("on 3 December at 14:00 GMT-5", "2026-12-03T14:00:00-05:00", None),
    ("on 3 December at 14:00 +0530", "2026-12-03T14:00:00+05:30", None),
    ("on 3 December at 14:00 Europe/Berlin", "2026-12-03T14:00:00+01:00", "Europe/Berlin"),
    ("on 3 December at 9am PT", "2026-12-03T09:00:00-08:00", "America/Los_Angeles"),
])
def test_zones_as_offsets_abbreviations_and_names(quote: str, start: str,
                                                   zone: str | None) -> None:
    (slot,) = slots(quote, SENT).slots
    assert slot.start.isoformat() == start and slot.zone == zone


def test_an_offset_that_is_the_users_zone_takes_its_name() -> None:
    (slot,) = slots("on 3 December at 14:00 CET", SENT, user_zone="Europe/Paris").slots
    assert slot.zone == "Europe/Paris" and slot.start.isoformat() == "2026-12-03T14:00:00+01:00"


def test_cet_in_summer_is_taken_as_written_and_noted() -> None:
    (slot,) = slots("on 3 July at 10:00 CET", SENT).slots
    assert slot.start.isoformat() == "2027-07-03T10:00:00+01:00", "next 3 July, as written"
    assert "Europe/Berlin is on UTC+02:00 that day" in slot.notes[0]


def test_tomorrow_counts_from_the_mails_date() -> None:
    assert starts("How about tomorrow at 10 CET?") == ["2026-11-21T10:00:00+01:00"]
    late = datetime(2026, 11, 20, 23, 30, tzinfo=UTC)     # 00:30 on the 21st in CET
    (slot,) = slots("How about tomorrow at 10 CET?", late).slots
    assert slot.start.isoformat() == "2026-11-22T10:00:00+01:00"


def test_no_zone_anywhere_asks_unless_the_user_has_one() -> None:
    found = slots("How about tomorrow at 10?", SENT)
    assert found.slots == [] and found.ask_zone and found.local == ["2026-11-21T10:00"]
    (slot,) = slots("How about tomorrow at 10?", SENT, user_zone="Europe/Berlin").slots
    assert slot.zone == "Europe/Berlin" and "names no time zone" in slot.notes[0]
    (slot,) = slots("How about tomorrow at 10?", SENT, mail_zone_text="CET").slots
    assert slot.written == "CET", "a zone the mail gives elsewhere counts"


def test_two_proposed_slots_are_two_times_and_a_range_is_one() -> None:
    found = slots("Are you free on 3 December, 14:00-15:30 or 16:00 CET?", SENT)
    assert [(s.start.isoformat(), s.end.isoformat()) for s in found.slots] == [
        ("2026-12-03T14:00:00+01:00", "2026-12-03T15:30:00+01:00"),
        ("2026-12-03T16:00:00+01:00", "2026-12-03T17:00:00+01:00")]
    two_days = slots("Thursday 3 December at 10:00 or Friday 4 December at 11:00 CET", SENT)
    assert [s.key() for s in two_days.slots] == ["2026-12-03T10:00", "2026-12-04T11:00"]


@pytest.mark.parametrize(("quote", "problem"), [
    ("See you at 3 on Thursday 3 December.", "'3' could be morning or afternoon"),
    ("Could you share two or three times that suit you next week?", "names no time of day"),
    ("Let us talk at 14:00 CET.", "names no date"),
    ("on 31 November at 10:00 CET", "is not a date"),
    ("on 3 December at 13pm CET", "13 pm is not a time"),
])
def test_uncertain_times_make_no_slot_and_say_why(quote: str, problem: str) -> None:
    found = slots(quote, SENT)
    assert found.slots == [] and problem in (found.problem or "")


def test_counts_and_days_are_not_times() -> None:
    found = slots("We have 3 rounds; the first is on 3 December at 11 a.m. EST.", SENT)
    assert [s.key() for s in found.slots] == ["2026-12-03T11:00"]


def test_holds_compares_the_local_time_the_mail_wrote() -> None:
    found = slots("Thursday 3 December at 14:00 CET", SENT)
    assert holds(found, "2026-12-03T14:00") and not holds(found, "2026-12-03T15:00")
    assert not holds(found, "2026-12-04T14:00")
