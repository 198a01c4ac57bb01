"""The ntfy channel: the digest's short form published to a topic, on ntfy.sh or any
self-hosted server (its publish API: POST the message to the topic's URL).

Headers: `Title` (RFC 2047-encoded when it is not ASCII, as ntfy reads it),
`Markdown: yes`, `Tags: briefcase`, and `Authorization: Bearer <token>` when the
topic is protected. The body is the push form, under ntfy's 4,096-byte limit.
"""

from __future__ import annotations

from email.header import Header
from typing import Any
from urllib.parse import urlsplit

from jobtracker.channels.base import Channel, Message
from jobtracker.channels.http import HttpChannel, load_http, post, token, url_of
from jobtracker.yamlfile import Document


def header_value(text: str) -> str:
    """`text` as an HTTP header value: as is when ASCII, else RFC 2047 (UTF-8, base64)."""
    flat = " ".join(text.split())
    return flat if flat.isascii() else Header(flat, "utf-8").encode(maxlinelen=10_000)


async def send(settings: HttpChannel, message: Message, token: str | None,
               timeout: float) -> str:
    headers = {"Title": header_value(message.subject), "Markdown": "yes",
               "Tags": "briefcase", "Content-Type": "text/plain; charset=utf-8"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    await post(settings.url, content=message.push.encode("utf-8"), headers=headers,
               timeout=timeout)
    return settings.url


def _names_a_topic(doc: Document, url: str, at: tuple[str, ...]) -> None:
    if not urlsplit(url).path.strip("/"):
        raise doc.error("must name the topic: https://ntfy.sh/TOPIC", *at, "url")


def load(doc: Document, value: Any) -> HttpChannel:
    return load_http(doc, value, "ntfy", _names_a_topic)


CHANNEL: Channel[HttpChannel] = Channel("ntfy", load, send, token, url_of)
