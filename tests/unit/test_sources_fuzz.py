"""Every parser, fed type-confused payloads: only its own "bad envelope" error may escape.

Each field of a valid sample (at every depth) is replaced in turn by None, numbers,
lists, objects, strings and a huge string, or removed; the envelope itself is
replaced by each of those and by broken bytes. For XML sources each element's text
is emptied, made huge, nested or removed. Sources that page or fetch descriptions
are driven through their plans with the fuzzed body as the list and as the detail.
"""

from __future__ import annotations

import contextlib
import copy
import json
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from servers.boards import (
    ashby_board,
    ashby_job,
    greenhouse_board,
    greenhouse_job,
    lever_posting,
)
from servers.shapes import (
    REMOTEOK_LEGAL,
    Item,
    answer_plan,
    atom,
    himalayas_job,
    himalayas_page,
    hn_comment,
    hn_search,
    hn_thread,
    json_feed,
    personio_position,
    personio_xml,
    recruitee_offer,
    remoteok_job,
    remotive_board,
    remotive_job,
    rss,
    smartrecruiters_detail,
    smartrecruiters_page,
    smartrecruiters_posting,
    workable_detail,
    workable_job,
    workable_page,
    workday_detail,
    workday_job,
    workday_page,
)

from jobtracker.config import Board, Feed
from jobtracker.sources import REGISTRY, NormalizedPosting, SourceError, parse_feed
from jobtracker.sources.base import Request, Response

HUGE = "<p>" + "x" * 200_000
ODD: tuple[Any, ...] = (None, 0, -1, 10**40, 1.5, True, "", "x", HUGE, [], [None, 5],
                        {}, {"a": {"b": []}})
BROKEN = (b"", b"\xff\xfe\x00", b"{", b"[", b"null", b"<", b"<a>", b"\x00" * 10)
UUID = "0b5a1b2c-1234-4abc-9def-0123456789ab"

# ats → (the list body, the detail body or None)
JSON_SAMPLES: dict[str, tuple[Any, Any]] = {
    "greenhouse": (greenhouse_board([greenhouse_job(1, "Engineer")]), None),
    "lever": ([lever_posting(UUID, "Engineer",
                             salary={"min": 1, "max": 2, "currency": "EUR",
                                     "interval": "per-year-salary"})], None),
    "ashby": (ashby_board([ashby_job(UUID, "Engineer", salary=(1, 2, "EUR"))]), None),
    "workable": (workable_page([workable_job("AAA111", "Engineer")]),
                 workable_detail("AAA111", "Engineer")),
    "smartrecruiters": (smartrecruiters_page([smartrecruiters_posting("7", "Engineer")]),
                        smartrecruiters_detail("7", "Engineer")),
    "recruitee": ({"offers": [recruitee_offer(1, "Engineer")]}, None),
    "workday": (workday_page([workday_job("R1", "Engineer")], 1),
                workday_detail("R1", "Engineer")),
    "hackernews": (hn_thread(2, [hn_comment(21, "Acme | SRE | Remote<p>Hi")]),
                   hn_search((2, "Ask HN: Who is hiring? (November 2026)"))),
    "remoteok": ([REMOTEOK_LEGAL, remoteok_job("9", "Engineer", salary=(1, 2))], None),
    "remotive": (remotive_board([remotive_job(5, "Engineer")]), None),
    "himalayas": (himalayas_page([himalayas_job("j", "Engineer")], 0, 1), None),
}


def paths(data: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every key path into `data`, outermost first."""
    children = (data.items() if isinstance(data, dict)
                else enumerate(data) if isinstance(data, list) else ())
    for key, value in children:
        yield (*prefix, key)
        yield from paths(value, (*prefix, key))


def replaced(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    copied = copy.deepcopy(data)
    holder = copied
    for key in path[:-1]:
        holder = holder[key]
    if value is _REMOVE:
        del holder[path[-1]]
    else:
        holder[path[-1]] = value
    return copied


_REMOVE = object()


def json_variants(sample: Any) -> Iterator[bytes]:
    for value in ODD:
        yield json.dumps(value).encode()
    yield from BROKEN
    yield json.dumps(sample).encode()[:-3]
    for path in paths(sample):
        for value in (*ODD, _REMOVE):
            yield json.dumps(replaced(sample, path, value)).encode()


def xml_variants(sample: str) -> Iterator[bytes]:
    yield from BROKEN
    yield sample.encode()[:-7]
    count = sum(1 for _ in ET.fromstring(sample).iter())
    for index in range(count):
        for change in ("empty", "huge", "nest", "remove", "attr"):
            root = ET.fromstring(sample)
            elements = list(root.iter())
            target = elements[index]
            if change == "empty":
                target.text = ""
                for child in list(target):
                    target.remove(child)
            elif change == "huge":
                target.text = HUGE
            elif change == "nest":
                target.text = None
                ET.SubElement(ET.SubElement(target, "nested"), "deeper").text = "5"
            elif change == "attr":
                target.set("type", "xhtml")
                target.set("href", "")
            elif index:
                parent = next(e for e in elements if target in list(e))
                parent.remove(target)
            yield ET.tostring(root)


def check(postings: Any) -> None:
    assert isinstance(postings, list)
    for posting in postings:
        assert isinstance(posting, NormalizedPosting)
        assert isinstance(posting.title, str) and posting.title
        assert isinstance(posting.external_id, str) and posting.external_id


def drive(ats: str, list_body: bytes, detail_body: bytes) -> None:
    """A plan source with `list_body` for its list requests and `detail_body` for the rest."""
    board = Board(ats, "acme.wd5/External" if ats == "workday" else "acme", "Acme")
    source = REGISTRY[ats]
    url = source.default_url(board.token)

    def respond(request: Request) -> Response:
        is_list = request.method == "POST" or "offset=" in request.url or "/items/" in request.url
        if ats == "hackernews":      # the search comes first, then the thread
            is_list = "/items/" in request.url
        return Response(200, list_body if is_list else detail_body)
    postings, _ = answer_plan(source.start(board, url, {}), respond)
    check(postings)


@pytest.mark.parametrize("ats", sorted(JSON_SAMPLES))
def test_json_sources_survive_type_confused_payloads(ats: str) -> None:
    sample, detail = JSON_SAMPLES[ats]
    board = Board(ats, "acme", "Acme")
    tried = 0
    for body in json_variants(sample):
        tried += 1
        with contextlib.suppress(SourceError):
            check(REGISTRY[ats].parse(body, board))
        if REGISTRY[ats].plan is not None:
            good_detail = json.dumps(detail).encode() if detail is not None else b"{}"
            with contextlib.suppress(SourceError):
                drive(ats, body, good_detail)
    if detail is not None and REGISTRY[ats].plan is not None:
        good_list = json.dumps(sample).encode()
        for body in json_variants(detail):
            tried += 1
            with contextlib.suppress(SourceError):
                drive(ats, good_list, body)
    assert tried > 100


XML_SAMPLES: dict[str, tuple[str, Callable[[bytes], Any]]] = {
    "personio": (personio_xml([personio_position(1, "Engineer", additional=("Remote",))]),
                 lambda body: REGISTRY["personio"].parse(body, Board("personio", "a", "A"))),
    "rss": (rss([Item("g", "Engineer", "https://boards.greenhouse.io/acme/jobs/1",
                      author="Acme", location="Remote")]),
            lambda body: parse_feed(body, Feed("f", "http://x"))),
    "atom": (atom([Item("g", "Engineer", "https://example.org/1", author="Acme")]),
             lambda body: parse_feed(body, Feed("f", "http://x"))),
}


@pytest.mark.parametrize("kind", sorted(XML_SAMPLES))
def test_xml_sources_survive_mangled_documents(kind: str) -> None:
    sample, parse = XML_SAMPLES[kind]
    tried = 0
    for body in xml_variants(sample):
        tried += 1
        with contextlib.suppress(SourceError):
            check(parse(body))
    assert tried > 50


def test_json_feed_survives_type_confused_payloads() -> None:
    sample = json_feed([Item("g", "Engineer", "https://example.org/1", author="Acme")])
    for body in json_variants(sample):
        with contextlib.suppress(SourceError):
            check(parse_feed(body, Feed("f", "http://x")))
