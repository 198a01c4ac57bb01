"""The source registry: every source by name, and the job pages it recognises."""

from __future__ import annotations

import pytest

from jobtracker.sources import REGISTRY, identify

UUID = "0b5a1b2c-1234-4abc-9def-0123456789ab"


def test_the_registry_names_the_first_three_ats_and_not_feeds() -> None:
    assert {"greenhouse", "lever", "ashby"} <= set(REGISTRY)
    assert "feed" not in REGISTRY       # every name: the test below
    assert REGISTRY["greenhouse"].default_url("acme") == \
        "https://boards-api.greenhouse.io/v1/boards/acme/jobs?content=true"
    assert REGISTRY["lever"].default_url("acme") == \
        "https://api.lever.co/v0/postings/acme?mode=json"
    assert REGISTRY["ashby"].default_url("acme") == \
        "https://api.ashbyhq.com/posting-api/job-board/acme?includeCompensation=true"


def test_the_registry_names_every_source() -> None:
    assert set(REGISTRY) == {"greenhouse", "lever", "ashby", "workable", "smartrecruiters",
                             "recruitee", "personio", "workday", "hackernews", "remoteok",
                             "remotive", "himalayas"}


@pytest.mark.parametrize(("url", "expected"), [
    ("https://boards.greenhouse.io/acme/jobs/4012345?gh_src=rss",
     ("greenhouse", "acme", "4012345")),
    ("https://job-boards.eu.greenhouse.io/acme/jobs/77", ("greenhouse", "acme", "77")),
    ("https://boards.greenhouse.io/embed/job_app?for=acme&token=88",
     ("greenhouse", "acme", "88")),
    (f"https://jobs.lever.co/acme/{UUID}/apply", ("lever", "acme", UUID)),
    (f"https://jobs.eu.lever.co/acme/{UUID}", ("lever", "acme", UUID)),
    (f"https://jobs.ashbyhq.com/Acme/{UUID.upper()}", ("ashby", "Acme", UUID)),
    ("https://example.org/jobs/42", None),
    ("https://boards.greenhouse.io/acme", None),
])
def test_identify_ats_job_pages(url: str, expected: tuple[str, str, str] | None) -> None:
    assert identify(url) == expected
