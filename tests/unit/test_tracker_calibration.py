"""jobtracker.tracker.calibration: each verdict beside what the applications became."""

from __future__ import annotations

from dataclasses import replace

from jobtracker.tracker.calibration import calibration, share, table
from jobtracker.tracker.overview import Row
from tui.screens.applications import calibration_cells

BASE = Row(id=0, posting_id=0, company="Co", title="Engineer", status="applied", url="",
           applied_at="2026-10-01T00:00:00Z", changed_at=None, last_contact_at=None,
           first_reply_at=None, screened=False, interviewed=False, offered=False,
           closed_at=None, source=None, verdict="strong", tailored=False)


def rows(verdict: str, sent: int, interviews: int) -> list[Row]:
    return [replace(BASE, id=i, posting_id=i, verdict=verdict, interviewed=i < interviews)
            for i in range(sent)]


def by_verdict(entries: list[dict]) -> dict[str, dict]:
    return {e["verdict"]: e for e in entries}


def test_a_rate_is_given_from_five_applications_up_and_counts_below() -> None:
    found = by_verdict(calibration(rows("strong", 5, 2) + rows("good", 4, 1), {}))
    assert found["strong"]["interview_rate"] == 0.4
    assert found["good"]["interview_rate"] is None
    assert (share(1, 4), share(2, 5), share(0, 0)) == ("1 of 4", "2 of 5 (40%)", "-")


def test_a_saved_application_is_not_an_application_sent() -> None:
    unsent = [replace(BASE, applied_at=None, status="saved")]
    assert by_verdict(calibration(unsent, {}))["strong"]["applications"] == 0


def test_the_outcomes_that_contradict_a_verdict_are_named() -> None:
    dismissed = {"strong": [{"posting": 7, "reason": "role"}, {"posting": 8, "reason": "salary"}]}
    found = by_verdict(calibration(rows("poor", 2, 1), dismissed))
    assert found["poor"]["contradicted"] == [{"application": 0, "posting": 0,
                                              "outcome": "interview"}]
    # A salary dismissal says nothing against the verdict; a `role` one does.
    assert found["strong"]["contradicted"] == [{"posting": 7, "outcome": "dismissed: role"}]
    assert found["strong"]["dismissed"] == 2
    assert "  contradicted: posting 7 was strong, then dismissed: role" in table(
        list(by_verdict(calibration([], dismissed)).values()))


def test_the_applications_screen_shows_a_verdict_in_three_columns() -> None:
    entry = by_verdict(calibration(rows("good", 7, 2), {}))["good"]
    assert calibration_cells(entry) == "    7    2 (29%)         0"
