"""What the HTTP channels (ntfy, webhook) share: their settings, and one bounded POST: no redirects
followed (a token is never carried to another host), the answer read up to a byte
budget, and a 2xx status required."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from jobtracker.channels.base import ChannelError, Secret
from jobtracker.secrets import has_userinfo
from jobtracker.yamlfile import Document, checks

ANSWER_BYTES = 64 * 1024      # of a server's answer, read at most (only errors show it)


async def post(url: str, *, content: bytes, headers: dict[str, str], timeout: float) -> int:
    """POST `content`; the status code, or ChannelError saying why not. The caller's
    total deadline bounds it too; `timeout` bounds each step."""
    import httpx  # only when sending: reading config.yaml imports this module

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


@dataclass(frozen=True)
class HttpChannel:
    """An HTTP channel (ntfy, webhook): where to POST, and the bearer token's source."""

    url: str
    token_env: str | None = None
    token_command: str | None = None


def load_http(doc: Document, value: Any, name: str,
              url_check: Callable[[Document, str, tuple[str, ...]], None] | None = None
              ) -> HttpChannel:
    """`notify.<name>` of an HTTP channel; `url_check` adds the channel's own rule for
    its URL."""
    at = ("notify", name)
    raw = checks.mapping(doc, value, *at, allowed=("url", "token_env", "token_command"))
    if raw.get("url") is None:
        raise doc.error("is required", *at, "url")
    url = checks.url(doc, raw["url"], *at, "url")
    if has_userinfo(url):
        raise doc.error("a user name or password in the URL is never sent; put the token "
                        "in the variable token_env names", *at, "url")
    if url_check is not None:
        url_check(doc, url, at)
    env, command = checks.secret_source(doc, raw, at, "token_env", "token_command",
                                        required=False)
    if (env or command) and urlsplit(url).scheme != "https" \
            and urlsplit(url).hostname not in checks.LOOPBACK_HOSTS:
        raise doc.error("a token is sent only over https (or to this machine)", *at, "url")
    return HttpChannel(url=url, token_env=env, token_command=command)


def token(settings: HttpChannel) -> Secret | None:
    """The bearer token's source, when the channel has one."""
    if settings.token_env is None and settings.token_command is None:
        return None
    return Secret(settings.token_env, settings.token_command, "token_env", "token_command")


def url_of(settings: HttpChannel) -> tuple[str, ...]:
    return (settings.url,)
