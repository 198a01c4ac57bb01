"""What a board's server may not make a download do: follow a redirect anywhere, re-send
a POST to another origin, send more than a board's byte budget, or crash the fetch with
a header no one foresaw."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest
from servers.boards import BoardServer, greenhouse_board, greenhouse_job

from jobtracker.postings import download
from jobtracker.postings.download import DownloadError, address_class, make_client, retry_after
from jobtracker.sources.base import Plan, Request


@pytest.fixture
def other() -> Iterator[BoardServer]:
    """A second server: another origin (another port) on the same loopback address."""
    with BoardServer() as running:
        yield running


def one_get(url: str, method: str = "GET") -> Plan:
    response = yield Request(url, method, {"page": 1} if method == "POST" else None)
    return [response.status, response.body]  # type: ignore[return-value]


def fetch(url: str, method: str = "GET") -> object:
    async def go() -> object:
        async with make_client() as client:
            return (await download.download(client, one_get(url, method), deadline=10)).postings
    return asyncio.run(go())


BOARD = greenhouse_board([greenhouse_job(1, "Engineer")])


@pytest.mark.parametrize("target", [
    "http://10.0.0.1/jobs", "http://192.168.1.20:8080/jobs", "http://[fd00::1]/jobs",
    "http://[::ffff:10.1.2.3]/jobs", "http://172.16.0.9/", "http://169.254.169.254/latest",
    "http://0.0.0.0:9/x"])
@pytest.mark.parametrize("status", [301, 302, 303])
def test_a_redirect_to_another_address_class_is_refused(
        server: BoardServer, target: str, status: int) -> None:
    server.set("/jobs", "", status=status, headers={"Location": target})
    with pytest.raises(DownloadError, match="from a loopback address to a private one"):
        fetch(server.url("/jobs"))


@pytest.mark.parametrize("status", [307, 308])
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_a_307_or_308_to_another_origin_is_refused_and_nothing_is_re_sent(
        server: BoardServer, other: BoardServer, status: int, method: str) -> None:
    other.set("/stolen", BOARD, post=None if method == "POST" else ...)
    if method == "POST":
        server.set("/jobs", "", status=status, headers={"Location": other.url("/stolen")},
                   post=None)
    else:
        server.set("/jobs", "", status=status, headers={"Location": other.url("/stolen")})
    with pytest.raises(DownloadError, match=r"to another origin .* refused"):
        fetch(server.url("/jobs"), method)
    assert other.requests == []


def test_a_post_redirected_by_302_to_another_origin_is_refused(
        server: BoardServer, other: BoardServer) -> None:
    other.set("/stolen", BOARD)
    server.set("/jobs", "", status=302, headers={"Location": other.url("/stolen")}, post=None)
    with pytest.raises(DownloadError, match="refused"):
        fetch(server.url("/jobs"), "POST")
    assert other.requests == []


@pytest.mark.parametrize("target", ["file:///etc/passwd", "ftp://127.0.0.1/x",
                                    "gopher://127.0.0.1:70/"])
def test_a_redirect_to_a_scheme_that_is_not_http_is_refused(
        server: BoardServer, target: str) -> None:
    server.set("/jobs", "", status=302, headers={"Location": target})
    with pytest.raises(DownloadError, match="redirect"):
        fetch(server.url("/jobs"))


def test_redirects_within_the_board_and_within_its_class_are_followed(
        server: BoardServer, other: BoardServer) -> None:
    other.set("/moved", BOARD)
    server.set("/old", "", status=301, headers={"Location": "/jobs"})
    server.set("/jobs", "", status=302, headers={"Location": other.url("/moved")})
    status, body = fetch(server.url("/old"))  # type: ignore[misc]
    assert status == 200 and b"Engineer" in body
    server.set("/same", "", status=307, headers={"Location": "/jobs2"})
    server.set("/jobs2", BOARD)
    assert fetch(server.url("/same"))[0] == 200  # type: ignore[index]


def test_a_redirect_loop_stops(server: BoardServer) -> None:
    server.set("/a", "", status=302, headers={"Location": "/b"})
    server.set("/b", "", status=302, headers={"Location": "/a"})
    with pytest.raises(DownloadError, match="redirects"):
        fetch(server.url("/a"))
    assert len(server.requests) == download.MAX_REDIRECTS + 1


@pytest.mark.parametrize(("board", "target"), [
    ("https://93.184.216.34/jobs", "http://127.0.0.1:8080/admin"),
    ("https://93.184.216.34/jobs", "http://localhost/admin"),
    ("https://93.184.216.34/jobs", "http://app.localhost/admin"),
    ("https://93.184.216.34/jobs", "http://10.1.1.1/"),
    ("https://[2606:4700::1]/jobs", "http://[::1]:631/"),
    ("http://127.0.0.1:8000/jobs", "https://93.184.216.34/x"),
])
def test_a_public_board_cannot_send_the_download_to_this_machine(board: str,
                                                                 target: str) -> None:
    first = httpx.Request("GET", board)
    response = httpx.Response(302, headers={"Location": target}, request=first)
    with pytest.raises(DownloadError, match="refused"):
        asyncio.run(download._check_redirect(first, response, httpx.Request("GET", target)))


@pytest.mark.parametrize(("host", "kind"), [
    ("127.0.0.1", "loopback"), ("127.8.9.10", "loopback"), ("::1", "loopback"),
    ("[::1]", "loopback"), ("localhost", "loopback"), ("LOCALHOST.", "loopback"),
    ("::ffff:127.0.0.1", "loopback"), ("10.0.0.1", "private"), ("fe80::1", "private"),
    ("100.64.0.1", "public"), ("93.184.216.34", "public"), ("0.0.0.0", "private")])
def test_address_classes(host: str, kind: str) -> None:
    assert asyncio.run(address_class(host)) == kind


# --- Retry-After that is no number ----------------------------------------------------

@pytest.mark.parametrize("value", ["²", "³", "¹⁰", "٣", "१", "１", "⑤", "2²", " 3 ", "1e3",
                                   "-1", "9" * 400, "Wed, 21 Oct 99999 07:28:00 GMT",
                                   "Fri, 31 Dec 9999 23:59:59 +1400", "0x10", "nan"])
def test_retry_after_that_is_no_ascii_number_is_never_a_crash(value: str) -> None:
    got = retry_after({"retry-after": value})
    assert got is None or (got >= 0 and got == got)


@pytest.mark.parametrize("value", ["²", "³", "¹", "1²"])
def test_a_rate_limited_board_with_a_strange_retry_after_fails_alone(
        server: BoardServer, value: str) -> None:
    server.set("/jobs", "slow down", status=429, headers={"Retry-After": value})
    with pytest.raises(DownloadError, match="HTTP 429"):
        fetch(server.url("/jobs"))


# --- the board's byte budget -------------------------------------------------------------

def pages(url: str, count: int) -> Plan:
    for page in range(count):
        yield Request(f"{url}?page={page}")
    return []


def test_many_pages_each_under_the_cap_stop_at_the_boards_budget(
        server: BoardServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(download, "MAX_BOARD_BYTES", 1_000_000)
    for page in range(40):
        server.set(f"/big?page={page}", b"x" * 100_000)

    async def go() -> None:
        async with make_client() as client:
            await download.download(client, pages(server.url("/big"), 40), deadline=20)

    with pytest.raises(DownloadError, match=r"more than 0\.954 MB in all"):
        asyncio.run(go())
    assert len(server.requests) <= 11


# --- XML in an encoding no one can read ------------------------------------------------

ENCODINGS = ["x-unknown", "UTF-32", "utf-7", "rot13", "base64", "hex", "punycode", "idna",
             "zlib", "mbcs", "undefined", "EBCDIC-CP-US", "utf-16"]


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_xml_declaring_an_unreadable_encoding_is_a_bad_envelope(encoding: str) -> None:
    from jobtracker.sources import SourceError
    from jobtracker.sources.safexml import parse_xml

    body = f'<?xml version="1.0" encoding="{encoding}"?><rss><channel/></rss>'.encode()
    with pytest.raises(SourceError):
        parse_xml(body)


@pytest.mark.parametrize("encoding", ["x-unknown", "utf-7", "rot13"])
def test_a_feed_in_an_unreadable_encoding_fails_alone_without_a_traceback(
        server: BoardServer, tmp_path, encoding: str) -> None:
    from conftest import run_cli

    from jobtracker.workspace import Workspace

    ws = Workspace(tmp_path / "home")
    ws.init()
    server.set("/feed.xml", f'<?xml version="1.0" encoding="{encoding}"?><rss><channel>'
               "<item><title>x</title></item></channel></rss>".encode(),
               content_type="application/rss+xml")
    server.set("/gh", BOARD)
    (ws.home / "sources.yaml").write_text(
        "boards:\n  - {ats: greenhouse, token: acme, company: Acme, "
        f"url: '{server.url('/gh')}'}}\n"
        f"feeds:\n  - {{name: odd, url: '{server.url('/feed.xml')}'}}\n")
    done = run_cli("--home", str(ws.home), "fetch")
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) <= 3, done.stderr
    assert "encoding" in done.stdout + done.stderr
