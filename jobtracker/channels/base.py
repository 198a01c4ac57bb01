"""What every channel shares: the `Channel` a module declares, the `Message` it is
handed, and the error it raises when the message was not taken."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from jobtracker.yamlfile import Document

S = TypeVar("S")


class ChannelError(Exception):
    """A channel did not take the message; the message says why, on one line (the
    caller redacts it before it is shown or stored)."""


@dataclass(frozen=True)
class Message:
    """One digest in every form a channel may send (notify/message.py makes it)."""

    subject: str
    text: str
    markdown: str
    html: str
    push: str
    data: dict[str, Any]

    @classmethod
    def test(cls, channel: str) -> Message:
        """What `jobtracker check --send-test` sends."""
        line = f"jobtracker test message for the {channel} channel: it works."
        return cls(subject="jobtracker: test message", text=line + "\n", markdown=line + "\n",
                   html=f"<!DOCTYPE html><html><body><p>{line}</p></body></html>\n",
                   push=line, data={"test": True, "text": line})


@dataclass(frozen=True)
class Secret:
    """Where a channel's credential comes from: a variable or a command (never the
    secret itself), and the names of the two settings for messages."""

    env: str | None
    command: str | None
    env_field: str
    command_field: str


def no_secret(settings: Any) -> Secret | None:
    return None


def no_urls(settings: Any) -> tuple[str, ...]:
    return ()


@dataclass(frozen=True)
class Channel(Generic[S]):
    """A destination of the digest, declared by its module as `CHANNEL`.

    - `name`: its word in `notify.to`, and the key of its own section `notify.<name>`;
    - `settings(doc, value)`: that section read into the channel's settings, or
      `doc.error(...)` (file, line and field), with the shared checkers;
    - `send(settings, message, secret, timeout)`: deliver; a few words on where it
      went, or `ChannelError`; `timeout` bounds each step (the caller bounds the
      whole by `notify.deadline`);
    - `secrets(settings)`: where its credential comes from, None when it needs none;
    - `urls(settings)`: the addresses every reason is redacted of (they may carry a
      topic or a key).
    """

    name: str
    settings: Callable[[Document, Any], S]
    send: Callable[[S, Message, str | None, float], Awaitable[str]]
    secrets: Callable[[S], Secret | None] = no_secret
    urls: Callable[[S], tuple[str, ...]] = no_urls
