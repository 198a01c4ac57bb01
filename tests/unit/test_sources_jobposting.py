"""A page's own schema.org JobPosting: the real pages with their hand labels (field
accuracy printed), the shapes JSON-LD takes, microdata, and hostile pages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jobtracker.sources import jobposting
from jobtracker.sources.jobposting import (
    PageRefused,
    claims_elsewhere,
    on_page_host,
    read_page,
)

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "real" / "jobposting"
LABELS = json.loads((REAL / "labels.json").read_text(encoding="utf-8"))
FIELDS = ("title", "company", "remote", "salary_min", "salary_max", "currency", "city")


def page(*blocks: object, body: str = "") -> str:
    # As real serialisers write it: "</" escaped, so a description's "</script>" does
    # not end the block.
    scripts = "".join('<script type="application/ld+json">'
                      + json.dumps(b).replace("</", "<\\/") + "</script>" for b in blocks)
    return f"<!doctype html><html><head>{scripts}</head><body>{body}</body></html>"


def _right(field: str, posting: jobposting.JobPosting, label: object) -> bool:
    """How a field is scored against its label (the note in the test below)."""
    if field == "title":
        return " ".join(posting.title.split()) == " ".join(str(label).split())
    if field == "company":
        return (posting.company or None) == label
    if field == "remote":
        # Tri-state on the page, two states here: a page that does not say "remote"
        # (None) is right for a label of false (the visible text says on site).
        return (posting.remote is True) == (label is True)
    if field == "salary_min":
        return posting.salary_min == label
    if field == "salary_max":
        return posting.salary_max == label
    if field == "currency":
        return posting.salary_currency == label
    if label is None:                  # city: no place named at all
        return not any(place.locality for place in posting.places)
    return str(label).casefold() in posting.location.casefold()


def test_real_pages_field_accuracy(capsys: pytest.CaptureFixture[str]) -> None:
    """Every real page gives one posting; the fields match the hand labels at 0.95 or
    better (printed per field: `pytest -s` shows it)."""
    right = dict.fromkeys(FIELDS, 0)
    misses = []
    for name, label in sorted(LABELS.items()):
        reading = read_page((REAL / name).read_bytes())
        assert len(reading.postings) == 1, name
        posting = reading.postings[0]
        for field in FIELDS:
            if _right(field, posting, label[field]):
                right[field] += 1
            else:
                misses.append(f"{name}: {field} {label[field]!r}")
    total = len(LABELS) * len(FIELDS)
    accuracy = sum(right.values()) / total
    with capsys.disabled():
        print(f"\nJobPosting field accuracy on {len(LABELS)} real pages: "
              f"{sum(right.values())}/{total} = {accuracy:.3f}")
        for field in FIELDS:
            print(f"  {field:<11} {right[field]}/{len(LABELS)}")
        for miss in misses:
            print(f"  miss: {miss}")
    assert accuracy >= 0.95, misses


def test_real_pages_other_fields() -> None:
    """The fields the labels do not cover, read off the same pages."""
    def one(name: str) -> jobposting.JobPosting:
        return read_page((REAL / name).read_bytes()).postings[0]

    dell = one("workday-dell-roundrock.html")
    assert dell.telecommute and dell.applicant_locations == ("United States of America",)
    assert dell.identifier == "R246118" and dell.posted_at == "2024-05-22T00:00:00Z"
    indeed = one("indeed-au-papercut-devops.html")
    assert indeed.salary_unit == "YEAR" and indeed.valid_through == "2026-12-12T09:37:46.463000Z"
    assert indeed.company_urls == ("https://au.indeed.com/cmp/Papercut-Software",)
    assert "PaperCut" in (indeed.description or "")
    neura = one("neura-robotics-metzingen.html")
    assert neura.identifier == "00df0928-b013-448c-b3dd-6c6fb80eadc2"
    assert neura.url.startswith("https://jobs.neura-robotics.com/offer/")
    assert "\\n" not in (neura.description or "")
    total = one("totalengineering-coimbatore.html")
    assert total.salary_unit == "MONTH" and total.yearly() == (180000.0, 300000.0)
    reed = one("reed-bjss-leeds-microdata.html")
    assert reed.form == "microdata" and reed.company == "BJSS"
    assert reed.description and "<" not in reed.description
    mars = one("marsbased-remote.html")
    assert mars.location == "Remote (Austria, Belgium)"


# --- the shapes JSON-LD takes ---------------------------------------------------------

def test_graph_arrays_nested_lists_and_references() -> None:
    org = {"@id": "https://acme.example/#org", "@type": "Organization", "name": "Acme",
           "sameAs": ["https://acme.example/"]}
    graph = {"@context": "https://schema.org", "@graph": [
        org, {"@type": ["JobPosting"], "title": "Engineer",
              "hiringOrganization": {"@id": "https://acme.example/#org"}}]}
    listing = {"@type": "ItemList", "itemListElement": [
        {"@type": "ListItem", "item": {"@type": "schema:JobPosting", "title": "Designer"}}]}
    array = [{"@type": "http://schema.org/JobPosting", "title": "Writer",
              "jobLocation": {"@type": "Place", "address": "Berlin, Germany"}}]
    reading = read_page(page(graph, listing, array))
    assert [p.title for p in reading.postings] == ["Engineer", "Designer", "Writer"]
    assert reading.postings[0].company == "Acme"
    assert reading.postings[0].company_urls == ("https://acme.example/",)
    assert reading.postings[2].location == "Berlin, Germany"


def test_salary_shapes_and_units() -> None:
    def salary(value: object) -> tuple[object, ...]:
        found = read_page(page({"@type": "JobPosting", "title": "T",
                                "baseSalary": value})).postings[0]
        return found.salary_min, found.salary_max, found.salary_currency, found.salary_unit

    assert salary({"currency": "usd", "value": {"value": "120,000", "unitText": "YEAR"}}) == \
        (120000.0, None, "USD", "YEAR")
    assert salary({"currency": "EUR", "value": 50, "unitText": "HOUR"}) == \
        (50.0, None, "EUR", "HOUR")
    assert salary({"currency": "GBP", "value": {"minValue": 90, "maxValue": 60}}) == \
        (60.0, 90.0, "GBP", None)
    assert salary({"currency": "$$$$", "value": {"value": "$100,000"}}) == \
        (None, None, None, None)
    assert salary("a lot") == (None, None, None, None)


def test_entities_and_markup_in_text_fields() -> None:
    found = read_page(page({"@type": "JobPosting", "title": "R&amp;D <b>Lead</b>",
                            "description": "&lt;p&gt;Hello&lt;/p&gt;&lt;script&gt;x()&lt;"
                                           "/script&gt;",
                            "hiringOrganization": "Acme &amp; Co"})).postings[0]
    assert found.title == "R&D Lead"
    assert found.company == "Acme & Co"
    assert found.description == "Hello"


def test_microdata_only_when_there_is_no_json_ld() -> None:
    micro = ('<div itemscope itemtype="https://schema.org/JobPosting">'
             '<h1 itemprop="title">Baker</h1>'
             '<div itemprop="hiringOrganization" itemscope itemtype="https://schema.org/Organization">'
             '<span itemprop="name">Crumbs</span></div>'
             '<div itemprop="jobLocation" itemscope itemtype="https://schema.org/Place">'
             '<div itemprop="address" itemscope itemtype="https://schema.org/PostalAddress">'
             '<span itemprop="addressLocality">Lyon</span></div></div>'
             '<div itemprop="description"><p>Bread.</p><script>evil()</script></div></div>')
    alone = read_page(f"<html><body>{micro}</body></html>").postings
    assert [(p.title, p.company, p.location, p.description, p.form) for p in alone] == \
        [("Baker", "Crumbs", "Lyon", "Bread.", "microdata")]
    both = read_page(page({"@type": "JobPosting", "title": "From JSON-LD"}, body=micro))
    assert [p.title for p in both.postings] == ["From JSON-LD"]


def test_a_page_without_a_posting_and_broken_blocks() -> None:
    reading = read_page('<html><script type="application/ld+json">{"@type": "JobPosting", '
                        '"title": "bad "quote""}</script><script type="application/ld+json">'
                        '</script></html>')
    assert reading.postings == []
    assert reading.notes == ["a JSON-LD block that is not JSON left out"]
    assert read_page("<html><body>just text</body></html>").postings == []
    assert read_page(page({"@type": "JobPosting", "description": "no title"})).postings == []


# --- hostile pages ----------------------------------------------------------------------

def test_a_page_over_the_size_bound_is_refused_unread() -> None:
    big = b"<html>" + b" " * (jobposting.MAX_PAGE_BYTES + 1)
    with pytest.raises(PageRefused, match="larger than"):
        read_page(big)


def test_a_50_mb_page_is_refused() -> None:
    with pytest.raises(PageRefused):
        read_page(b"x" * (50 * 1024 * 1024))


def test_deep_nesting_and_wide_blocks_are_bounded() -> None:
    deep = "[" * 200_000 + "]" * 200_000           # json.loads gives up: left out
    nested: object = {"@type": "JobPosting", "title": "Deep"}
    for _ in range(jobposting.MAX_DEPTH + 5):       # valid JSON, deeper than walked
        nested = {"a": [nested]}
    wide = [{"x": i} for i in range(jobposting.MAX_NODES + 10)] + [
        {"@type": "JobPosting", "title": "Past the walk"}]
    reading = read_page(f'<script type="application/ld+json">{deep}</script>'
                        + page(nested, wide, {"@type": "JobPosting", "title": "Fine"}))
    # The deep one is not reached; the walk stops in the wide one, and what follows
    # it on the page is not read.
    assert reading.postings == []
    assert any("too deep or too large" in note for note in reading.notes)


def test_a_page_listing_a_thousand_postings_is_refused() -> None:
    postings = [{"@type": "JobPosting", "title": f"Job {i}"} for i in range(1000)]
    with pytest.raises(PageRefused, match="more than 100"):
        read_page(page(postings))
    micro = "".join(f'<div itemscope itemtype="http://schema.org/JobPosting">'
                    f'<span itemprop="title">Job {i}</span></div>' for i in range(1000))
    with pytest.raises(PageRefused):
        read_page(f"<html><body>{micro}</body></html>")


def test_a_hundred_postings_are_listed() -> None:
    postings = [{"@type": "JobPosting", "title": f"Job {i}"} for i in range(100)]
    assert len(read_page(page(postings)).postings) == 100


def test_scripts_and_javascript_urls_never_come_through() -> None:
    found = read_page(page({
        "@type": "JobPosting", "title": "Clicker",
        "url": "javascript:alert(1)",
        "hiringOrganization": {"name": "Evil", "sameAs": "javascript:alert(2)"},
        "description": "<p>Hi</p><script>steal()</script><img src=x onerror=alert(3)>\x1b[31m"
    })).postings[0]
    assert found.url == ""
    assert found.company_urls == ()
    assert found.description == "Hi"
    assert found.posting("https://jobs.example/1", "https://jobs.example/1").url == \
        "https://jobs.example/1"


def test_a_posting_claiming_another_company_s_domain() -> None:
    """A page on one host naming another site as the job's page and the company's: the
    job's page stays the page read, and the claim is reported."""
    found = read_page(page({
        "@type": "JobPosting", "title": "Staff Engineer",
        "url": "https://careers.google.com/jobs/123",
        "hiringOrganization": {"name": "Google", "sameAs": "https://www.google.com/"},
    })).postings[0]
    assert on_page_host(found, "https://jobs.scam.example/staff").url == ""
    assert claims_elsewhere(found, "https://jobs.scam.example/staff") == ["google.com"]
    own = on_page_host(found, "https://careers.google.com/jobs/123?src=x")
    assert own.url == "https://careers.google.com/jobs/123"
    assert claims_elsewhere(found, "https://careers.google.com/jobs/123") == []
