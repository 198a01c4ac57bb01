"""Each source turns its public API's response shape into normalized postings."""

from __future__ import annotations

import json

import pytest
from servers.boards import (
    ashby_board,
    ashby_job,
    greenhouse_board,
    greenhouse_job,
    lever_posting,
)
from servers.shapes import (
    Item,
    atom,
    json_feed,
    rss,
)

from jobtracker.config import Board, Feed
from jobtracker.sources import REGISTRY, SourceError, identify, parse_feed
from jobtracker.sources.base import MAX_DESCRIPTION_CHARS, TRUNCATED_MARK, iso_time

GH = Board("greenhouse", "acme", "Acme")
LEVER = Board("lever", "acme", "Acme")
ASHBY = Board("ashby", "acme", "Acme")
FEED = Feed("remote-jobs", "http://127.0.0.1/feed")
UUID = "0b5a1b2c-1234-4abc-9def-0123456789ab"


def body(data: object) -> bytes:
    return json.dumps(data).encode()


def test_the_registry_names_the_first_three_ats_and_not_feeds() -> None:
    assert {"greenhouse", "lever", "ashby"} <= set(REGISTRY)
    assert "feed" not in REGISTRY       # every name is in test_sources_more.py
    assert REGISTRY["greenhouse"].default_url("acme") == \
        "https://boards-api.greenhouse.io/v1/boards/acme/jobs?content=true"
    assert REGISTRY["lever"].default_url("acme") == \
        "https://api.lever.co/v0/postings/acme?mode=json"
    assert REGISTRY["ashby"].default_url("acme") == \
        "https://api.ashbyhq.com/posting-api/job-board/acme?includeCompensation=true"


# --- Greenhouse ---------------------------------------------------------------------

def test_greenhouse_unescapes_content_then_reads_the_html() -> None:
    job = greenhouse_job(42, "Senior Engineer", location="Berlin, Germany",
                         content_html="<h2>Role</h2><p>Build &amp; run things.</p>"
                                      "<ul><li>Python</li></ul>",
                         departments=("Engineering", "Platform"))
    assert job["content"].startswith("&lt;h2&gt;")          # the fixture is really escaped
    [posting] = REGISTRY["greenhouse"].parse(body(greenhouse_board([job])), GH)
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
    [posting] = REGISTRY["greenhouse"].parse(body({"jobs": [job]}), GH)
    assert (posting.location, posting.url, posting.description, posting.updated_at) == \
        ("", "", None, None)


def test_greenhouse_location_falls_back_to_offices_and_remote_is_read() -> None:
    job = greenhouse_job(1, "Engineer", location=None, offices=("Remote", "Lisbon"))
    [posting] = REGISTRY["greenhouse"].parse(greenhouse_board([job]), GH)
    assert posting.location == "Remote, Lisbon"
    assert posting.remote is True


def test_greenhouse_jobs_without_id_or_title_are_skipped() -> None:
    jobs = [{"title": "No id"}, {"id": 2, "title": ""}, {"id": 3, "title": "Kept"}, "junk"]
    postings = REGISTRY["greenhouse"].parse(body({"jobs": jobs}), GH)
    assert [p.external_id for p in postings] == ["3"]


def test_greenhouse_empty_board() -> None:
    assert REGISTRY["greenhouse"].parse(b'{"jobs": [], "meta": {"total": 0}}', GH) == []


@pytest.mark.parametrize("payload", [b"<html>oops</html>", b'{"jobs": 5}', b"[]", b"",
                                     b'{"jobs": [', b"\xff\xfe"])
def test_greenhouse_wrong_shapes_are_source_errors(payload: bytes) -> None:
    with pytest.raises(SourceError):
        REGISTRY["greenhouse"].parse(payload, GH)


def test_titles_are_cleaned_of_controls_and_newlines() -> None:
    job = greenhouse_job(1, "Senior\x1b[31m Engineer\n\u202e[b]x[/b]")
    [posting] = REGISTRY["greenhouse"].parse(greenhouse_board([job]), GH)
    assert posting.title == "Senior Engineer [b]x[/b]"


def test_a_huge_description_is_bounded() -> None:
    job = greenhouse_job(1, "Engineer", content_html="<p>" + "word " * 60_000 + "</p>")
    [posting] = REGISTRY["greenhouse"].parse(greenhouse_board([job]), GH)
    assert posting.description is not None
    assert len(posting.description) <= MAX_DESCRIPTION_CHARS + len(TRUNCATED_MARK)
    assert posting.description.endswith(TRUNCATED_MARK)


# --- Lever --------------------------------------------------------------------------

def test_lever_posting_fields() -> None:
    raw = lever_posting(UUID, "Staff Engineer", location="Remote - EU", team="Platform",
                        lists=(("What you'll do", "<li>Design</li><li>Ship</li>"),),
                        salary={"min": 90000, "max": 120000, "currency": "EUR",
                                "interval": "per-year-salary"})
    [posting] = REGISTRY["lever"].parse(body([raw]), LEVER)
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
    [posting] = REGISTRY["lever"].parse(body([raw]), LEVER)
    assert posting.remote is remote


def test_lever_hourly_salary_is_not_a_yearly_one() -> None:
    raw = lever_posting(UUID, "Engineer", salary={"min": 50, "max": 70, "currency": "USD",
                                                  "interval": "per-hour-wage"})
    [posting] = REGISTRY["lever"].parse(body([raw]), LEVER)
    assert posting.salary_min is None


def test_lever_unknown_site_is_a_clear_error() -> None:
    with pytest.raises(SourceError, match="Document not found"):
        REGISTRY["lever"].parse(b'{"ok": false, "error": "Document not found"}', LEVER)


def test_lever_plain_description_when_no_html() -> None:
    raw = lever_posting(UUID, "Engineer", lists=(), additional="")
    raw["description"] = ""
    raw["descriptionPlain"] = "Line one\nLine  two"
    [posting] = REGISTRY["lever"].parse(body([raw]), LEVER)
    assert posting.description == "Line one\nLine  two"


# --- Ashby --------------------------------------------------------------------------

def test_ashby_job_fields_and_compensation() -> None:
    raw = ashby_job(UUID.upper(), "Principal Engineer", location="Berlin", is_remote=None,
                    workplace_type="Remote", salary=(100000, 140000, "EUR"),
                    description_html="<p>Join <b>us</b>.</p>")
    [posting] = REGISTRY["ashby"].parse(body(ashby_board([raw])), ASHBY)
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


# --- identifying an ATS job page ----------------------------------------------------

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


# --- feeds --------------------------------------------------------------------------

ITEMS = [
    Item("g-1", "Senior Engineer", "https://boards.greenhouse.io/acme/jobs/42",
         blurb_html="<p>Short <b>blurb</b> &amp; more.</p>", author="Acme", location="Remote"),
    Item("g-2", "Designer", "https://example.org/jobs/design"),
]


@pytest.mark.parametrize("render", [rss, atom, lambda items: json.dumps(json_feed(items))],
                         ids=["rss", "atom", "json-feed"])
def test_every_feed_format_reads_the_same_items(render) -> None:
    postings = parse_feed(render(ITEMS).encode(), FEED)
    assert [p.external_id for p in postings] == ["g-1", "g-2"]
    first = postings[0]
    assert first.title == "Senior Engineer"
    assert first.url == "https://boards.greenhouse.io/acme/jobs/42"
    assert first.description == "Short blurb & more."
    assert first.description_source == "feed"
    assert first.company == "Acme"
    assert first.posted_at == "2026-09-01T09:30:00Z"


def test_rss_location_element_is_read() -> None:
    [first, _] = parse_feed(rss(ITEMS), FEED)
    assert first.location == "Remote"
    assert first.remote is True


def test_rss_item_without_guid_uses_its_link_and_one_without_either_is_skipped() -> None:
    xml = ('<rss version="2.0"><channel><item><title>A</title><link>https://x.org/a</link>'
           "</item><item><title>B</title></item></channel></rss>")
    assert [p.external_id for p in parse_feed(xml, FEED)] == ["https://x.org/a"]


def test_rss_1_0_items_in_a_namespace_are_read() -> None:
    xml = ('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
           'xmlns="http://purl.org/rss/1.0/"><channel><title>x</title></channel>'
           '<item><title>Staff SRE</title><link>https://x.org/sre</link></item></rdf:RDF>')
    [posting] = parse_feed(xml, FEED)
    assert (posting.title, posting.external_id) == ("Staff SRE", "https://x.org/sre")


def test_atom_xhtml_content_is_read_as_text() -> None:
    xml = ('<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>e1</id><title>T</title>'
           '<content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>One</p>'
           "<p>Two</p></div></content></entry></feed>")
    [posting] = parse_feed(xml, FEED)
    assert posting.description == "One\n\nTwo"


def test_xml_with_a_dtd_is_refused() -> None:
    bomb = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
            '<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>'
            "<rss><channel><item><title>&lol2;</title></item></channel></rss>")
    with pytest.raises(SourceError, match="document type"):
        parse_feed(bomb.encode(), FEED)


def test_external_entities_are_refused() -> None:
    xxe = ('<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
           "<rss><channel><item><title>&x;</title></item></channel></rss>")
    with pytest.raises(SourceError):
        parse_feed(xxe, FEED)


@pytest.mark.parametrize("payload", [b"<rss><channel><item>", b"hello", b'{"items": []}',
                                     b"<html><body>not a feed</body></html>",
                                     b'{"version": "https://jsonfeed.org/version/1", "items": 3}'])
def test_malformed_or_foreign_feeds_are_source_errors(payload: bytes) -> None:
    with pytest.raises(SourceError):
        parse_feed(payload, FEED)


def test_an_empty_feed_has_no_postings() -> None:
    assert parse_feed(rss([]), FEED) == []
    assert parse_feed(json.dumps(json_feed([])), FEED) == []


# --- shared helpers -----------------------------------------------------------------

@pytest.mark.parametrize(("value", "expected"), [
    ("2026-09-01T10:00:00-04:00", "2026-09-01T14:00:00Z"),
    ("2026-09-01T10:00:00Z", "2026-09-01T10:00:00Z"),
    ("2026-09-01T10:00:00.123+00:00", "2026-09-01T10:00:00.123000Z"),
    (1_788_000_000_000, "2026-08-29T10:40:00Z"),
    ("not a date", None), (None, None), (True, None),
])
def test_iso_time(value: object, expected: str | None) -> None:
    assert iso_time(value) == expected
