"""Every alert reader, fed mangled mail: it reads what it can, and never raises.

Each sample mail (one per sender and template) is cut short at many points, has
bytes flipped, its headers replaced by odd values, its parts' markup broken or
swapped for huge or empty text. Each sender's link and card readers are also fed
odd addresses and odd lines directly. Whatever comes out must be a well-formed
posting: a title, a company, an id, and an address that is https or empty and
carries no tracking.
"""

from __future__ import annotations

import random
import re
import zlib
from collections.abc import Iterator

import pytest
from alerts_samples import SAMPLES

from jobtracker import alerts
from jobtracker.alerts.base import CardText, Line, Mail
from jobtracker.sources.base import NormalizedPosting

HUGE = "x" * 300_000
ODD_TEXT = ("", " ", "·", " · ", " - ", " • ", "|", "via", "via ", "3.7 ★", "$", "$1", "$1M",
            "€-€", "99999999999999999999 days ago", "\x00\x1b[31m", "\u202e", "\u034f" * 50,
            "a" * 5000, "Our Take", "Learn More", "((((", "Title at Company and 5 more")
ODD_HREFS = ("", "https://", "https://www.linkedin.com/jobs/view/", "https://www.linkedin.com/"
             "jobs/view/12/", "https://x.indeed.com/rc/clk?jk=", "https://www.indeed.com/viewjob?"
             "jk=zzzz", "https://www.glassdoor.com/x?jobListingId=abc", "https://wellfound.com/"
             "jobs?job_listing_slug-", "http://t.welcometothejungle.com/ls/click?upn=u001.%%%",
             "https://notifications.googleapis.com/email/redirect?r=!!!", "https://[::1",
             "https://www.ziprecruiter.com/ekm/", "https://a" * 500, "javascript:x",
             "https://notifications.googleapis.com/email/redirect?r=eJwDAAAAAAE")
TRACKING = re.compile(r"trackingId|otpToken|midToken|[?&](?:lk|tsid|guid|utm_\w+)=|/ekm/|"
                      r"/ls/click|redirect\?", re.I)


def check(postings: list[NormalizedPosting]) -> None:
    for posting in postings:
        assert isinstance(posting, NormalizedPosting)
        assert posting.title and posting.company and posting.external_id
        assert "\n" not in posting.title and len(posting.title) <= 200
        assert posting.url == "" or posting.url.startswith("https://")
        assert not TRACKING.search(posting.url)


def mangled(raw: bytes, seed: int) -> Iterator[bytes]:
    rng = random.Random(seed)
    for cut in sorted({rng.randrange(len(raw)) for _ in range(12)}):
        yield raw[:cut]
    for _ in range(12):
        data = bytearray(raw)
        for _ in range(20):
            data[rng.randrange(len(data))] = rng.randrange(256)
        yield bytes(data)
    head, _, body = raw.partition(b"\r\n\r\n")
    for header in (b"From", b"Subject", b"Date", b"Content-Type", b"Message-ID"):
        for value in (b"", b"=?utf-8?q?" + b"=FF" * 500 + b"?=", b"\x00\xff", b"<<<>>>",
                      b"=?bogus-charset?B?AAAA?=", b"a" * 20_000):
            lines = [line if not line.lower().startswith(header.lower() + b":")
                     else header + b": " + value for line in head.split(b"\r\n")]
            yield b"\r\n".join(lines) + b"\r\n\r\n" + body
    yield head + b"\r\n\r\n" + body.replace(b"charset=", b"charset=x-no-such-charset")
    yield head + b"\r\n\r\n" + body.replace(b">", b"")
    yield head + b"\r\n\r\n" + body.replace(b"<", b"")
    yield head + b"\r\n\r\n" + body.replace(b"</", b"<")
    yield head + b"\r\n\r\n" + re.sub(rb"--=+\d+=*", b"", body)
    yield head + b"\r\n\r\n"


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_reader_survives_mangled_mail(name: str) -> None:
    tried = 0
    for raw in mangled(SAMPLES[name].raw, zlib.crc32(name.encode())):
        tried += 1
        reading = alerts.read(raw)
        if reading is not None:
            assert reading.sender in alerts.REGISTRY
            check(reading.postings)
    assert tried > 50


@pytest.mark.parametrize("sender", sorted(alerts.REGISTRY))
def test_every_reader_survives_odd_links_and_odd_lines(sender: str) -> None:
    reader = alerts.REGISTRY[sender]
    mail = Mail("k", "k", "a@example.org", "", "", "2026-11-30T07:30:00Z")
    for href in ODD_HREFS:
        reader.job_link(href)
    links = [link for link in (reader.job_link(h) for h in ODD_HREFS) if link]
    rng = random.Random(sender)
    for _ in range(300):
        lines = [rng.choice(ODD_TEXT) for _ in range(rng.randrange(0, 12))]
        for part in ("html", "text"):
            found = reader.read(CardText(lines, links[:rng.randrange(0, 3)], mail, part))
            if found is not None:
                check([found])
        split = reader.split([Line(text, rng.choice((None, *ODD_HREFS)), rng.randrange(3),
                                   rng.random() < 0.3) for text in lines], "html",
                             alerts.base.Counts())
        assert isinstance(split, list)
    with pytest.raises(AssertionError):      # the check can fail: a tracking link
        check([NormalizedPosting("x", "t", "c", url="https://x.example/?utm_source=mail")])
    reader.read(CardText([HUGE, HUGE, HUGE], links, mail, "html"))
