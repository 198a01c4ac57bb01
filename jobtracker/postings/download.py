"""Downloading one board or feed: its source's plan run over HTTP, bounded in time and size.

A source says which requests it needs as a plan (jobtracker/sources/base.py); this
module is the one place that sends them. Every download is bounded three ways, so
no board can stall a fetch or the boards written after it:

- a total deadline over all of a board's requests, waits and parsing (`DEADLINE`):
  httpx's timeouts are per phase, and a server sending one byte every two seconds
  never trips them;
- a body size (`MAX_BODY_BYTES`), a byte budget over all of a board's bodies
  (`MAX_BOARD_BYTES`) and a request count (`MAX_REQUESTS`) per board;
- `Retry-After` on 429/503 is honoured up to `RETRY_AFTER_CAP` seconds, a few times;
  a longer wait fails that board only.

Redirects are followed here, not by httpx, so that each hop can be checked: at most
`MAX_REDIRECTS`, only to http(s), and one that leaves the board's origin (scheme, host,
port) only when it is a plain GET (301, 302, 303; never a 307/308, which re-sends the
request as it was, body included) to an address of the same class as the board's own
URL: public, private or loopback. A public board cannot send jobtracker to a service
on this machine or the local network, and a POST is never re-sent to another origin.
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from importlib import metadata
from typing import Any

import httpx

from jobtracker.hosts import host_is
from jobtracker.sources import NormalizedPosting, SourceError
from jobtracker.sources.base import Plan, Request, Response

TIMEOUT = httpx.Timeout(30.0, connect=10.0)
# One board's whole download, every request and wait included. The config key
# `fetch.deadline` (seconds) is meant to set it; this is its default.
DEADLINE = 120.0
# The largest body read: big Ashby boards are ~12 MB; anything past this is not a board.
MAX_BODY_BYTES = 64 * 1024 * 1024
# Every body of one board together: paged sources read many pages, each under the cap.
MAX_BOARD_BYTES = 256 * 1024 * 1024
MAX_REDIRECTS = 5
# Requests one board may make (pages and per-job descriptions): a runaway plan stops here.
MAX_REQUESTS = 1000
RETRY_AFTER_CAP = 30.0
RATE_LIMIT_RETRIES = 3


def _version() -> str:
    try:
        return metadata.version("jobtracker")
    except metadata.PackageNotFoundError:
        return "0"


USER_AGENT = f"jobtracker/{_version()} (+personal job search)"


def make_client(timeout: httpx.Timeout = TIMEOUT, **kwargs: Any) -> httpx.AsyncClient:
    """An HTTP client with the fetcher's timeouts and User-Agent."""
    # Redirects are followed by `_send`, which checks every hop (see the module note).
    return httpx.AsyncClient(timeout=timeout, headers={"User-Agent": USER_AGENT},
                             follow_redirects=False, **kwargs)


class DownloadError(Exception):
    """This board's download failed; the message says why, for `boards.last_error`.
    `status` is the HTTP status of an answer that said no (None: no such answer — a
    timeout, a refused connection, a body that is no board)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Downloaded:
    """What a plan produced, with the validators of its conditional request."""

    postings: list[NormalizedPosting] = field(default_factory=list)
    etag: str | None = None
    last_modified: str | None = None
    not_modified: bool = False
    requests: int = 0

    @property
    def skipped(self) -> int:
        return int(getattr(self.postings, "skipped", 0))


class _Budget:
    """The bytes a board may still receive, over all of its requests."""

    def __init__(self, total: int | None = None, page: bool = False) -> None:
        self.total = total or MAX_BOARD_BYTES
        self.left = self.total
        self.page = page         # one web page (`jobtracker save`), not a board

    def take(self, size: int) -> None:
        self.left -= size
        if self.left < 0:
            if self.page:
                raise DownloadError(f"the page is larger than {_mb(self.total)}: not read")
            raise DownloadError(f"the board sent more than {_mb(self.total)} in all "
                                "(pages and descriptions together)")


def _mb(size: int) -> str:
    return f"{size / (1024 * 1024):.3g} MB"


async def _read_body(response: httpx.Response, budget: _Budget) -> bytes:
    chunks, size = [], 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise DownloadError(f"response larger than {_mb(MAX_BODY_BYTES)}")
        budget.take(len(chunk))
        chunks.append(chunk)
    return b"".join(chunks)


# Delta-seconds are ASCII digits only: str.isdigit() is also true for '²' and '٣'.
_DELTA = re.compile(r"[0-9]{1,10}")


def retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds a `Retry-After` header asks to wait (delta or HTTP date), else None."""
    value = (headers.get("retry-after") or "").strip()
    if not value:
        return None
    if _DELTA.fullmatch(value):
        return float(value)
    try:
        moment = parsedate_to_datetime(value)
        return max(0.0, moment.timestamp() - time.time())
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


# --- redirects ------------------------------------------------------------------------

def _origin(url: httpx.URL) -> tuple[str, str, int | None]:
    return url.scheme, url.host, url.port or {"http": 80, "https": 443}.get(url.scheme)


def _class_of(address: str) -> str:
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return "public"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return "loopback"
    if (ip.is_private or ip.is_link_local or ip.is_unspecified or ip.is_reserved
            or ip.is_multicast):
        return "private"
    return "public"


async def address_class(host: str) -> str:
    """`loopback`, `private` or `public`: where `host` is, judged by the addresses it
    resolves to (the most private one wins), so a public name pointing at 127.0.0.1 is
    loopback. A name that does not resolve is `public` (the request will fail anyway)."""
    host = host.strip("[]").rstrip(".").lower()
    if host_is(host, "localhost"):
        return "loopback"
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        pass
    else:
        return _class_of(host)
    try:
        found = await asyncio.get_running_loop().getaddrinfo(host, None,
                                                             type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return "public"
    classes = {_class_of(str(info[4][0])) for info in found}
    return next((c for c in ("loopback", "private") if c in classes), "public")


async def _check_redirect(first: httpx.Request, response: httpx.Response,
                          hop: httpx.Request) -> None:
    """DownloadError unless the redirect to `hop` may be followed (the module note)."""
    where = f"HTTP {response.status_code} redirect"
    if hop.url.scheme not in ("http", "https"):
        raise DownloadError(f"{where} to a {hop.url.scheme}: address refused")
    if _origin(hop.url) == _origin(first.url):
        return
    if response.status_code in (307, 308) or hop.method != "GET" or first.method != "GET":
        raise DownloadError(f"{where} to another origin ({hop.url.host}) refused: it would "
                            "re-send the request there")
    own, target = await address_class(first.url.host), await address_class(hop.url.host)
    if own != target:
        raise DownloadError(f"{where} from a {own} address to a {target} one "
                            f"({hop.url.host}) refused")


async def _send(client: httpx.AsyncClient, request: Request,
                headers: Mapping[str, str], budget: _Budget) -> Response:
    first = outgoing = client.build_request(request.method, request.url,
                                            headers=dict(headers), json=request.json)
    for _ in range(MAX_REDIRECTS + 1):
        response = await client.send(outgoing, stream=True)
        try:
            hop = response.next_request
            if hop is None:
                body = await _read_body(response, budget) if response.status_code == 200 \
                    else b""
                return Response(response.status_code, body, response.headers)
            await _check_redirect(first, response, hop)
        finally:
            await response.aclose()
        outgoing = hop
    raise DownloadError(f"more than {MAX_REDIRECTS} redirects")


async def _answer(client: httpx.AsyncClient, request: Request, headers: Mapping[str, str],
                  retry_cap: float, budget: _Budget,
                  retries: int = RATE_LIMIT_RETRIES) -> Response:
    """The response to `request`, after honouring short Retry-After waits (at most
    `retries` of them)."""
    for attempt in range(retries + 1):
        response = await _send(client, request, headers, budget)
        if response.status not in (429, 503):
            return response
        wait = retry_after(response.headers)
        if wait is None or attempt == retries:
            break
        if wait > retry_cap:
            raise DownloadError(f"rate limited: HTTP {response.status} asks to wait "
                                f"{wait:.0f} s, more than the {retry_cap:g} s a fetch waits")
        await asyncio.sleep(wait)
    return response


def _http_error(response: Response) -> str:
    try:
        reason = httpx.codes(response.status).phrase
    except ValueError:
        reason = ""
    return f"HTTP {response.status} {reason}".strip()


async def run_plan(client: httpx.AsyncClient, plan: Plan, *,
                   conditional: Mapping[str, str] | None = None,
                   retry_cap: float = RETRY_AFTER_CAP, max_bytes: int | None = None,
                   retries: int = RATE_LIMIT_RETRIES, page: bool = False) -> Downloaded:
    """Send each request `plan` yields and hand it the response, until it returns.

    `max_bytes` bounds every body together (MAX_BOARD_BYTES when None); `retries` is
    how many Retry-After waits a request may honour (0: none); `page`: one web page
    read whole, for the messages.

    Raises DownloadError (HTTP status, size, request count, rate limit), SourceError
    (a body not in the source's shape) or httpx's errors; the caller bounds time.
    """
    result = Downloaded()
    budget = _Budget(max_bytes, page)
    try:
        request = next(plan)
        while True:
            result.requests += 1
            if result.requests > MAX_REQUESTS:
                raise DownloadError(f"stopped after {MAX_REQUESTS} requests")
            headers = dict(conditional or {}) if request.conditional else {}
            response = await _answer(client, request, headers, retry_cap, budget, retries)
            if request.conditional and response.status == 304:
                result.not_modified = True
                return result
            if not response.ok and not request.optional:
                raise DownloadError(_http_error(response), response.status)
            if request.conditional:
                result.etag = response.headers.get("etag")
                result.last_modified = response.headers.get("last-modified")
            request = plan.send(response)
    except StopIteration as done:
        result.postings = done.value
        return result
    finally:
        plan.close()


async def download(client: httpx.AsyncClient, plan: Plan, *,
                   conditional: Mapping[str, str] | None = None,
                   deadline: float = DEADLINE, max_bytes: int | None = None,
                   retries: int = RATE_LIMIT_RETRIES, page: bool = False) -> Downloaded:
    """`run_plan` within `deadline` seconds; every failure is a DownloadError with a reason."""
    try:
        async with asyncio.timeout(deadline):
            return await run_plan(client, plan, conditional=conditional,
                                  retry_cap=min(RETRY_AFTER_CAP, deadline),
                                  max_bytes=max_bytes, retries=retries, page=page)
    except TimeoutError:
        raise DownloadError(
            f"no complete answer within the {deadline:g} s download deadline") from None
    except httpx.TimeoutException:
        raise DownloadError("timed out") from None
    except (httpx.HTTPError, httpx.InvalidURL) as exc:   # InvalidURL is no HTTPError
        raise DownloadError(f"{type(exc).__name__}: {exc}" if str(exc)
                            else type(exc).__name__) from None
    except SourceError as exc:
        raise DownloadError(str(exc)) from None
