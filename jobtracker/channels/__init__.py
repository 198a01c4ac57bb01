"""Channels: where the digest goes besides the archive file (docs/notify.md).

One module per destination, each declaring its `CHANNEL` (jobtracker/channels/base.py:
its name, how its section `notify.<name>` is read, how it sends, where its credential
comes from, which addresses to redact), listed in `REGISTRY`'s tuple below. Adding a
channel is one module here and one entry in that tuple: config.yaml accepts its name
in `notify.to` and its section, and `digest --send` and `check --send-test` use it.

The room sits below `jobtracker/config.py` (config reads the channels' sections), so
it imports neither config nor notify; the HTTP and SMTP clients are imported when a
message is sent, not when config.yaml is read.
"""

from __future__ import annotations

from typing import Any

from jobtracker.channels import ntfy, smtp, webhook
from jobtracker.channels.base import Channel, ChannelError, Message, Secret
from jobtracker.registry import Registry

# Channel name (its word in `notify.to`) → the channel, in the order `notify` lists them.
REGISTRY: Registry[Channel[Any]] = Registry((smtp.CHANNEL, ntfy.CHANNEL, webhook.CHANNEL))

__all__ = ["REGISTRY", "Channel", "ChannelError", "Message", "Secret"]
