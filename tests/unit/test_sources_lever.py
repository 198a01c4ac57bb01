"""Lever's public postings API, read into normalized postings."""

from __future__ import annotations

import pytest
from servers.boards import (
    lever_posting,
)
from servers.shapes import json_body

from jobtracker.config import Board
from jobtracker.sources import REGISTRY, SourceError

LEVER = Board("lever", "acme", "Acme")


UUID = "0b5a1b2c-1234-4abc-9def-0123456789ab"


def test_lever_posting_fields() -> None:
    raw = lever_posting(UUID, "Staff Engineer", location="Remote - EU", team="Platform",
                        lists=(("What you'll do", "<li>Design</li><li>Ship</li>"),),
                        salary={"min": 90000, "max": 120000, "currency": "EUR",
                                "interval": "per-year-salary"})
    [posting] = REGISTRY["lever"].parse(json_body([raw]), LEVER)
    assert posting.external_id == UUID
    assert posting.title == "Staff Engineer"
    assert posting.location == "Remote - EU"
    assert posting.department == "Engineering / Platform"
    assert posting.remote is True
    assert posting.url == f"https://jobs.lever.co/acme/{UUID}"
    assert posting.description == (
        "We build tools.\n\nWhat you'll do\n\n- Design\n- Ship\n\nBenefits.")
    assert posting.posted_at == "2026-08-29T10:40:00Z"       # createdAt is epoch ms
    assert (posting.salary_min, posting.salary_max, posting.salary_currency) == \
        (90000.0, 120000.0, "EUR")


@pytest.mark.parametrize(("workplace", "remote"), [
    ("remote", True), ("onsite", False), ("on-site", False), ("hybrid", False),
    ("unspecified", None), (None, None)])
def test_lever_workplace_types(workplace: str | None, remote: bool | None) -> None:
    raw = lever_posting(UUID, "Engineer")
    raw["workplaceType"] = workplace
    [posting] = REGISTRY["lever"].parse(json_body([raw]), LEVER)
    assert posting.remote is remote


def test_lever_hourly_salary_is_not_a_yearly_one() -> None:
    raw = lever_posting(UUID, "Engineer", salary={"min": 50, "max": 70, "currency": "USD",
                                                  "interval": "per-hour-wage"})
    [posting] = REGISTRY["lever"].parse(json_body([raw]), LEVER)
    assert posting.salary_min is None


def test_lever_unknown_site_is_a_clear_error() -> None:
    with pytest.raises(SourceError, match="Document not found"):
        REGISTRY["lever"].parse(b'{"ok": false, "error": "Document not found"}', LEVER)


def test_lever_plain_description_when_no_html() -> None:
    raw = lever_posting(UUID, "Engineer", lists=(), additional="")
    raw["description"] = ""
    raw["descriptionPlain"] = "Line one\nLine  two"
    [posting] = REGISTRY["lever"].parse(json_body([raw]), LEVER)
    assert posting.description == "Line one\nLine  two"
