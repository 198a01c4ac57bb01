"""The webhook channel: the digest as JSON, POSTed to a URL of the user's (a chat
bridge, n8n, Home Assistant...). The body is `{"subject", "text", "markdown",
"digest"}`, where `digest` is the `digest --json` object with each list cut at 100
items (its `totals` hold the counts)."""

from __future__ import annotations

import json
from typing import Any

from jobtracker.channels.base import Channel, Message
from jobtracker.channels.http import HttpChannel, load_http, post, token, url_of
from jobtracker.yamlfile import Document


async def send(settings: HttpChannel, message: Message, token: str | None,
               timeout: float) -> str:
    body = {"subject": message.subject, "text": message.text, "markdown": message.markdown,
            "digest": message.data}
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    await post(settings.url, content=json.dumps(body, ensure_ascii=False).encode("utf-8"),
               headers=headers, timeout=timeout)
    return settings.url


def load(doc: Document, value: Any) -> HttpChannel:
    return load_http(doc, value, "webhook")


CHANNEL: Channel[HttpChannel] = Channel("webhook", load, send, token, url_of)
