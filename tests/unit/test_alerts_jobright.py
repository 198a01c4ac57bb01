"""Jobright's daily digest: its job links, and the real digest's cards read whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobtracker import alerts
from jobtracker.alerts import jobright

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "real" / "alerts"


@pytest.mark.parametrize("href, expected", [
    ("https://jobright.ai/jobs/info/69e8fc294b0fa35a7076a8f6?utm_source25&imp_idx__digest&"
     "utm_medium=email", "69e8fc294b0fa35a7076a8f6"),
    ("https://JOBRIGHT.ai/jobs/info/69E8FC294B0FA35A7076A8F6/", "69e8fc294b0fa35a7076a8f6"),
    ("https://jobright.ai/jobs/info/69e8fc29", None),                  # not an id
    ("https://jobright.ai/jobs?id=69e8fc294b0fa35a7076a8f6", None),    # a search
    ("https://jobright.ai.evil.example/jobs/info/69e8fc294b0fa35a7076a8f6", None),
    ("https://static.jobright.ai/img/logo/logo_mail.png", None),
])
def test_a_job_link_gives_the_id_and_a_page_without_tracking(href: str,
                                                             expected: str | None) -> None:
    link = jobright.SENDER.job_link(href)
    if expected is None:
        assert link is None
        return
    assert link is not None
    assert (link.external_id, link.url) == (f"jobright:{expected}",
                                             f"https://jobright.ai/jobs/info/{expected}")


def test_the_real_digest_reads_pay_place_and_age_and_leaves_the_badges_out() -> None:
    reading = alerts.read((REAL / "jobright-1.eml").read_bytes())
    assert reading is not None and reading.sender == "jobright" and reading.part == "html"
    by_company = {p.company: p for p in reading.postings}
    affirm = by_company["Affirm"]
    assert (affirm.salary_min, affirm.salary_max, affirm.salary_currency) == (
        125_000, 175_000, "USD")
    assert affirm.location == "Remote" and affirm.remote is True
    assert affirm.posted_at == "2026-08-28T11:31:09Z"             # "3 hours ago"
    stripe = by_company["Stripe"]
    assert stripe.title == "Backend Engineer, Link" and stripe.location == "Toronto, ON"
    for posting in reading.postings:
        assert "referral" not in posting.location and "%" not in posting.title
        assert "utm_" not in posting.url and "imp_id" not in posting.url


def test_a_forged_jobright_sender_makes_no_posting() -> None:
    raw = (REAL / "jobright-1.eml").read_bytes().replace(
        b"From: Jobright <no-reply@jobright.ai>",
        b"From: no-reply@jobright.ai <attacker@evil.example>")
    reading = alerts.read(raw)
    assert reading is None or not reading.postings
