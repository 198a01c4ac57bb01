"""Greenhouse's public board API, read into normalized postings."""

from __future__ import annotations

import pytest
from servers.boards import (
    greenhouse_board,
    greenhouse_job,
)
from servers.shapes import json_body

from jobtracker.config import Board
from jobtracker.sources import REGISTRY, SourceError

GH = Board("greenhouse", "acme", "Acme")


def test_greenhouse_unescapes_content_then_reads_the_html() -> None:
    job = greenhouse_job(42, "Senior Engineer", location="Berlin, Germany",
                         content_html="<h2>Role</h2><p>Build &amp; run things.</p>"
                                      "<ul><li>Python</li></ul>",
                         departments=("Engineering", "Platform"))
    assert job["content"].startswith("&lt;h2&gt;")          # the fixture is really escaped
    [posting] = REGISTRY["greenhouse"].parse(json_body(greenhouse_board([job])), GH)
    assert posting.external_id == "42"
    assert posting.title == "Senior Engineer"
    assert posting.company == "Acme"
    assert posting.location == "Berlin, Germany"
    assert posting.department == "Engineering, Platform"
    assert posting.url == "https://boards.greenhouse.io/acme/jobs/42"
    assert posting.description == "Role\n\nBuild & run things.\n\n- Python"
    assert posting.description_source == "ats"
    assert posting.updated_at == "2026-09-01T14:00:00Z"      # -04:00 offset → UTC
    assert posting.remote is None


def test_greenhouse_missing_fields_are_empty_not_errors() -> None:
    job = {"id": 7, "title": "Engineer"}
    [posting] = REGISTRY["greenhouse"].parse(json_body({"jobs": [job]}), GH)
    assert (posting.location, posting.url, posting.description, posting.updated_at) == \
        ("", "", None, None)


def test_greenhouse_location_falls_back_to_offices_and_remote_is_read() -> None:
    job = greenhouse_job(1, "Engineer", location=None, offices=("Remote", "Lisbon"))
    [posting] = REGISTRY["greenhouse"].parse(greenhouse_board([job]), GH)
    assert posting.location == "Remote, Lisbon"
    assert posting.remote is True


def test_greenhouse_jobs_without_id_or_title_are_skipped() -> None:
    jobs = [{"title": "No id"}, {"id": 2, "title": ""}, {"id": 3, "title": "Kept"}, "junk"]
    postings = REGISTRY["greenhouse"].parse(json_body({"jobs": jobs}), GH)
    assert [p.external_id for p in postings] == ["3"]


def test_greenhouse_empty_board() -> None:
    assert REGISTRY["greenhouse"].parse(b'{"jobs": [], "meta": {"total": 0}}', GH) == []


@pytest.mark.parametrize("payload", [b"<html>oops</html>", b'{"jobs": 5}', b"[]", b"",
                                     b'{"jobs": [', b"\xff\xfe"])
def test_greenhouse_wrong_shapes_are_source_errors(payload: bytes) -> None:
    with pytest.raises(SourceError):
        REGISTRY["greenhouse"].parse(payload, GH)


def test_greenhouse_pay_input_ranges_become_the_salary() -> None:
    """A job's answer with `?pay_transparency=true` carries `pay_input_ranges` (amounts
    in cents, `currency_type`), the shape public projects' tests keep; an hourly range
    is no yearly salary, an empty list none at all."""
    job = {"id": 4628944002, "title": "Senior Backend Ruby Engineer ", "absolute_url":
           "https://boards.greenhouse.io/cleoai/jobs/4628944002", "location": {"name": "London"},
           "pay_input_ranges": [
               {"min_cents": 7200, "max_cents": 7200, "currency_type": "USD",
                "title": "Hourly Pay Range"},
               {"min_cents": 23200000, "max_cents": 28200000, "currency_type": "usd",
                "title": "Annual Salary:"}]}
    [posting] = REGISTRY["greenhouse"].parse(json_body({"jobs": [job]}), GH)
    assert (posting.salary_min, posting.salary_max, posting.salary_currency) == (
        232000, 282000, "USD")
    for ranges in ([], None, [{"min_cents": "x"}], [{"min_cents": 9, "max_cents": 1}]):
        [none] = REGISTRY["greenhouse"].parse(json_body({"jobs": [{**job, "pay_input_ranges":
                                                                   ranges}]}), GH)
        assert none.salary_min is None and none.salary_currency is None
