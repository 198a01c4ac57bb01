"""What every channel shares (jobtracker/channels/base.py)."""

from __future__ import annotations

import asyncio
from typing import Any

from jobtracker import channels
from jobtracker.channels.base import Channel, Message


async def _sent(settings: Any, message: Message, secret: str | None, timeout: float) -> str:
    return "there"


def test_the_test_message_names_its_channel_in_every_form() -> None:
    message = Message.test("ntfy")
    assert "for the ntfy channel" in message.text and message.push in message.html
    assert message.data == {"test": True, "text": message.push}


def test_a_channel_needs_no_secret_and_redacts_no_address_unless_it_says() -> None:
    channel: Channel[dict[str, str]] = Channel("plain", lambda doc, value: {}, _sent)
    assert channel.secrets({}) is None and channel.urls({}) == ()
    assert asyncio.run(channel.send({}, Message.test("plain"), None, 1.0)) == "there"


def test_the_shipped_channels_are_listed_in_notify_order() -> None:
    assert list(channels.REGISTRY) == ["email", "ntfy", "webhook"]
