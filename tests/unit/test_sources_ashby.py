"""Ashby's public job board API, read into normalized postings."""

from __future__ import annotations

import pytest
from servers.boards import (
    ashby_board,
    ashby_job,
)
from servers.shapes import json_body

from jobtracker.config import Board
from jobtracker.sources import REGISTRY, SourceError

ASHBY = Board("ashby", "acme", "Acme")


UUID = "0b5a1b2c-1234-4abc-9def-0123456789ab"


def test_ashby_job_fields_and_compensation() -> None:
    raw = ashby_job(UUID.upper(), "Principal Engineer", location="Berlin", is_remote=None,
                    workplace_type="Remote", salary=(100000, 140000, "EUR"),
                    description_html="<p>Join <b>us</b>.</p>")
    [posting] = REGISTRY["ashby"].parse(json_body(ashby_board([raw])), ASHBY)
    assert posting.external_id == UUID                        # ids compare lower-case
    assert posting.remote is True                             # isRemote null → workplaceType
    assert posting.description == "Join us."
    assert (posting.salary_min, posting.salary_max, posting.salary_currency) == \
        (100000.0, 140000.0, "EUR")
    assert posting.posted_at == "2026-08-30T12:00:00Z"
    assert posting.department == "Engineering / Infrastructure"


def test_ashby_unlisted_jobs_are_not_postings() -> None:
    jobs = [ashby_job(UUID, "Listed"), ashby_job(UUID.replace("0", "1"), "Hidden",
                                                    is_listed=False)]
    assert [p.title for p in REGISTRY["ashby"].parse(ashby_board(jobs), ASHBY)] == ["Listed"]


def test_ashby_plain_text_404_body_is_not_a_board() -> None:
    with pytest.raises(SourceError):
        REGISTRY["ashby"].parse(b"Not Found", ASHBY)


def test_a_real_ashby_record_hybrid_is_not_remote_and_secondary_locations_count() -> None:
    """Ramp's record (tests/fixtures/real/ats): `workplaceType: Hybrid` with `isRemote:
    true` is not remote (docs/sources.md: hybrid is 0), and `secondaryLocations` reach
    the location."""
    from pathlib import Path

    raw = (Path(__file__).resolve().parent.parent / "fixtures" / "real" / "ats"
           / "ashby-ramp-record.json").read_text(encoding="utf-8")
    [posting] = REGISTRY["ashby"].parse(raw, Board("ashby", "ramp", "Ramp"))
    assert posting.title == "Security Engineer, Cloud"        # the real leading space gone
    assert posting.remote is False
    assert posting.location == "New York, NY (HQ); Remote (Canada); Remote (US)"
    assert (posting.salary_min, posting.salary_max, posting.salary_currency) == (
        211400, 290600, "USD")
    assert posting.posted_at == "2026-04-07T17:12:35.753000Z"
