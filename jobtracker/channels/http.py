"""One bounded HTTP POST, shared by the ntfy and webhook channels: no redirects
followed (a token is never carried to another host), the answer read up to a byte
budget, and a 2xx status required."""

from __future__ import annotations

import httpx

from jobtracker.notify.message import ChannelError

ANSWER_BYTES = 64 * 1024      # of a server's answer, read at most (only errors show it)


async def post(url: str, *, content: bytes, headers: dict[str, str], timeout: float) -> int:
    """POST `content`; the status code, or ChannelError saying why not. The caller's
    total deadline bounds it too; `timeout` bounds each step."""
    try:
        async with httpx.AsyncClient(timeout=timeout, follow_redirects=False,
                                     trust_env=False) as client, \
                client.stream("POST", url, content=content, headers=headers) as answer:
            body = b""
            async for chunk in answer.aiter_bytes():
                body += chunk
                if len(body) >= ANSWER_BYTES:
                    break
    except httpx.TimeoutException:
        raise ChannelError(f"no answer within {timeout:g} s") from None
    except httpx.HTTPError as exc:
        raise ChannelError(f"{type(exc).__name__}: {exc}") from None
    if not 200 <= answer.status_code < 300:
        said = " ".join(body[:300].decode("utf-8", errors="replace").split())
        raise ChannelError(f"HTTP {answer.status_code}" + (f": {said}" if said else ""))
    return answer.status_code
