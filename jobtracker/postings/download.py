"""Downloading one board or feed: its source's plan run over HTTP, bounded in time and size.

A source says which requests it needs as a plan (jobtracker/sources/base.py); this
module is the one place that sends them. Every download is bounded three ways, so
no board can stall a fetch or the boards written after it:

- a total deadline over all of a board's requests, waits and parsing (`DEADLINE`):
  httpx's timeouts are per phase, and a server sending one byte every two seconds
  never trips them;
- a body size (`MAX_BODY_BYTES`) and a request count (`MAX_REQUESTS`) per board;
- `Retry-After` on 429/503 is honoured up to `RETRY_AFTER_CAP` seconds, a few times;
  a longer wait fails that board only.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from importlib import metadata
from typing import Any

import httpx

from jobtracker.sources import NormalizedPosting, SourceError
from jobtracker.sources.base import Plan, Request, Response

TIMEOUT = httpx.Timeout(30.0, connect=10.0)
# One board's whole download, every request and wait included. The config key
# `fetch.deadline` (seconds) is meant to set it; this is its default.
DEADLINE = 120.0
# The largest body read: big Ashby boards are ~12 MB; anything past this is not a board.
MAX_BODY_BYTES = 64 * 1024 * 1024
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
    return httpx.AsyncClient(timeout=timeout, headers={"User-Agent": USER_AGENT},
                             follow_redirects=True, **kwargs)


class DownloadError(Exception):
    """This board's download failed; the message says why, for `boards.last_error`."""


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


async def _read_body(response: httpx.Response) -> bytes:
    chunks, size = [], 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise DownloadError(f"response larger than {MAX_BODY_BYTES // (1024 * 1024)} MB")
        chunks.append(chunk)
    return b"".join(chunks)


def retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds a `Retry-After` header asks to wait (delta or HTTP date), else None."""
    value = (headers.get("retry-after") or "").strip()
    if not value:
        return None
    if value.isdigit():
        return float(value)
    try:
        moment = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, moment.timestamp() - time.time())


async def _send(client: httpx.AsyncClient, request: Request,
                headers: Mapping[str, str]) -> Response:
    async with client.stream(request.method, request.url, headers=dict(headers),
                             json=request.json) as response:
        body = await _read_body(response) if response.status_code == 200 else b""
        return Response(response.status_code, body, response.headers)


async def _answer(client: httpx.AsyncClient, request: Request, headers: Mapping[str, str],
                  retry_cap: float) -> Response:
    """The response to `request`, after honouring short Retry-After waits."""
    for attempt in range(RATE_LIMIT_RETRIES + 1):
        response = await _send(client, request, headers)
        if response.status not in (429, 503):
            return response
        wait = retry_after(response.headers)
        if wait is None or attempt == RATE_LIMIT_RETRIES:
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
                   retry_cap: float = RETRY_AFTER_CAP) -> Downloaded:
    """Send each request `plan` yields and hand it the response, until it returns.

    Raises DownloadError (HTTP status, size, request count, rate limit), SourceError
    (a body not in the source's shape) or httpx's errors; the caller bounds time.
    """
    result = Downloaded()
    try:
        request = next(plan)
        while True:
            result.requests += 1
            if result.requests > MAX_REQUESTS:
                raise DownloadError(f"stopped after {MAX_REQUESTS} requests")
            headers = dict(conditional or {}) if request.conditional else {}
            response = await _answer(client, request, headers, retry_cap)
            if request.conditional and response.status == 304:
                result.not_modified = True
                return result
            if not response.ok and not request.optional:
                raise DownloadError(_http_error(response))
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
                   deadline: float = DEADLINE) -> Downloaded:
    """`run_plan` within `deadline` seconds; every failure is a DownloadError with a reason."""
    try:
        async with asyncio.timeout(deadline):
            return await run_plan(client, plan, conditional=conditional,
                                  retry_cap=min(RETRY_AFTER_CAP, deadline))
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
