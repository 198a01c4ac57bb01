"""Feeds: RSS 2.0, RSS 1.0, Atom and JSON Feed read into the same postings."""

from __future__ import annotations

import json

import pytest
from servers.shapes import (
    Item,
    atom,
    json_feed,
    rss,
)

from jobtracker.config import Feed
from jobtracker.sources import SourceError, parse_feed

FEED = Feed("remote-jobs", "http://127.0.0.1/feed")


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


@pytest.mark.parametrize("payload", [b"<rss><channel><item>", b"hello", b'{"items": []}',
                                     b"<html><body>not a feed</body></html>",
                                     b'{"version": "https://jsonfeed.org/version/1", "items": 3}'])
def test_malformed_or_foreign_feeds_are_source_errors(payload: bytes) -> None:
    with pytest.raises(SourceError):
        parse_feed(payload, FEED)


def test_an_empty_feed_has_no_postings() -> None:
    assert parse_feed(rss([]), FEED) == []
    assert parse_feed(json.dumps(json_feed([])), FEED) == []
