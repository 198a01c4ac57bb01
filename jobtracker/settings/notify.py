"""config.yaml's `notify:` section: where the digest goes and what it holds
(docs/notify.md). Each channel reads its own section `notify.<name>`
(jobtracker/channels/); `file`, the archive, is always there and has none."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from jobtracker.yamlfile import Document, checks

if TYPE_CHECKING:
    from jobtracker.channels import Channel
    from jobtracker.channels.http import HttpChannel
    from jobtracker.channels.smtp import EmailChannel

# The judge's verdicts, best first (the rankings table's CHECK holds the same four).
VERDICTS = ("strong", "good", "partial", "poor")
DEFAULT_CHANNEL_DEADLINE = 30.0     # seconds one channel may take, all of it
MAX_CHANNEL_DEADLINE = 600.0
FILE = "file"                       # the archive: no section, no secret


def registered() -> Mapping[str, Channel[Any]]:
    """The channels (jobtracker/channels/), imported when a notify section is read:
    a config.yaml without one, and `jobtracker --help`, never load them."""
    from jobtracker import channels

    return channels.REGISTRY


def channel_names() -> tuple[str, ...]:
    """Every name `notify.to` accepts: the archive, then the registered channels."""
    return (FILE, *registered())


@dataclass(frozen=True)
class NotifyConfig:
    to: tuple[str, ...] = (FILE,)
    min_verdict: str = "good"
    deadline: float = DEFAULT_CHANNEL_DEADLINE
    # Channel name → its settings, for each channel whose section config.yaml has.
    settings: Mapping[str, Any] = field(default_factory=dict)

    def __getattr__(self, name: str) -> Any:
        # `notify.email`, `notify.ntfy`...: a registered channel's settings, or None.
        if name in registered():
            return self.settings.get(name)
        raise AttributeError(name)


def load(doc: Document, value: Any) -> NotifyConfig | None:
    if value is None:
        return None
    names = channel_names()
    raw = checks.mapping(doc, value, "notify", allowed=(
        "to", "min_verdict", "deadline", *registered()))
    to = checks.str_list(doc, raw.get("to", [FILE]), "notify", "to",
                         check=lambda v: v in names, expected=", ".join(names))
    if not to:
        raise doc.error(f"must name at least one channel ({', '.join(names)})",
                        "notify", "to")
    verdict = str(raw.get("min_verdict", NotifyConfig.min_verdict)).strip().lower()
    if verdict not in VERDICTS:
        raise doc.error(f"must be one of: {', '.join(VERDICTS)}", "notify", "min_verdict")
    settings: dict[str, Any] = {}
    for channel in registered().values():
        if raw.get(channel.name) is not None:
            settings[channel.name] = channel.settings(doc, raw[channel.name])
        elif channel.name in to:
            raise doc.error(f"names {channel.name}, which needs a notify.{channel.name} "
                            "section (docs/notify.md)", "notify", "to")
    return NotifyConfig(
        to=tuple(dict.fromkeys(to)), min_verdict=verdict,
        deadline=checks.number(doc, raw.get("deadline", DEFAULT_CHANNEL_DEADLINE), "notify",
                               "deadline", minimum=0.1, maximum=MAX_CHANNEL_DEADLINE),
        settings=settings)


def __getattr__(name: str) -> Any:
    # The two channels' settings types, named here for config.py's importers, without
    # loading the channels until they are asked for.
    if name == "EmailChannel":
        from jobtracker.channels.smtp import EmailChannel
        return EmailChannel
    if name == "HttpChannel":
        from jobtracker.channels.http import HttpChannel
        return HttpChannel
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["VERDICTS", "EmailChannel", "HttpChannel", "NotifyConfig", "channel_names", "load",
           "registered"]
