"""XML from outside is read without a DTD or external entities."""

from __future__ import annotations

import pytest

from jobtracker.config import Feed
from jobtracker.sources import SourceError, parse_feed

FEED = Feed("remote-jobs", "http://127.0.0.1/feed")


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
