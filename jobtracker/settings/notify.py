"""config.yaml's `notify:` section: the digest's channels and their settings (docs/notify.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from jobtracker.secrets import has_userinfo
from jobtracker.yamlfile import Document, checks

CHANNELS = ("file", "email", "ntfy", "webhook")
# The judge's verdicts, best first (the rankings table's CHECK holds the same four).
VERDICTS = ("strong", "good", "partial", "poor")
DEFAULT_CHANNEL_DEADLINE = 30.0     # seconds one channel may take, all of it
MAX_CHANNEL_DEADLINE = 600.0


@dataclass(frozen=True)
class EmailChannel:
    """SMTP delivery (docs/notify.md). Like IMAP's, the password is never stored here."""

    to: tuple[str, ...]
    sender: str = "jobtracker@localhost"
    host: str = "127.0.0.1"
    port: int = 25
    tls: bool | str = True           # True (implicit TLS) | "starttls" | False (loopback only)
    user: str | None = None
    password_env: str | None = None
    password_command: str | None = None


@dataclass(frozen=True)
class HttpChannel:
    """An HTTP channel (ntfy, webhook): where to POST, and the bearer token's source."""

    url: str
    token_env: str | None = None
    token_command: str | None = None


@dataclass(frozen=True)
class NotifyConfig:
    to: tuple[str, ...] = ("file",)
    min_verdict: str = "good"
    deadline: float = DEFAULT_CHANNEL_DEADLINE
    email: EmailChannel | None = None
    ntfy: HttpChannel | None = None
    webhook: HttpChannel | None = None


def load_email(doc: Document, value: Any) -> EmailChannel:
    at = ("notify", "email")
    raw = checks.mapping(doc, value, *at, allowed=(
        "to", "from", "host", "port", "tls", "user", "password_env", "password_command"))
    if raw.get("to") is None:
        raise doc.error("is required (the address the digest goes to)", *at, "to")
    to = [raw["to"]] if isinstance(raw["to"], str) else raw["to"]
    if not isinstance(to, list) or not to:
        raise doc.error("must be an address or a list of addresses", *at, "to")
    for index, address in enumerate(to):
        if not isinstance(address, str) or "@" not in address or any(
                ch.isspace() or ch in "<>,;" for ch in address.strip()):
            raise doc.error("must be a plain address such as ada@example.org",
                            *at, "to", *((index,) if isinstance(raw["to"], list) else ()))
    sender = checks.string(doc, raw.get("from", EmailChannel.sender), *at, "from").strip()
    if "@" not in sender or any(ch.isspace() for ch in sender):
        raise doc.error("must be a plain address such as jobtracker@localhost", *at, "from")
    tls = raw.get("tls", True)
    if tls not in (True, False, "starttls"):
        raise doc.error("must be true, starttls or false", *at, "tls")
    host = checks.string(doc, raw.get("host", EmailChannel.host), *at, "host").strip()
    if tls is False and host not in checks.LOOPBACK_HOSTS:
        # Mail and a password in clear text over a network are never sent.
        raise doc.error("tls: false is only for a server on this machine "
                        f"({', '.join(checks.LOOPBACK_HOSTS)})", *at, "tls")
    port = checks.integer(doc, raw.get("port", {True: 465, "starttls": 587}.get(tls, 25)), *at,
                          "port", maximum=65535)
    user = checks.string(doc, raw["user"], *at, "user") if raw.get("user") is not None else None
    env, command = checks.secret_source(doc, raw, at, "password_env", "password_command",
                                  required=user is not None)
    if user is None and (env or command):
        raise doc.error("a password needs a user to log in as", *at, "user")
    return EmailChannel(to=tuple(a.strip() for a in to), sender=sender, host=host, port=port,
                        tls=tls, user=user, password_env=env, password_command=command)


def load_http(doc: Document, value: Any, name: str) -> HttpChannel:
    at = ("notify", name)
    raw = checks.mapping(doc, value, *at, allowed=("url", "token_env", "token_command"))
    if raw.get("url") is None:
        raise doc.error("is required", *at, "url")
    url = checks.url(doc, raw["url"], *at, "url")
    if has_userinfo(url):
        raise doc.error("a user name or password in the URL is never sent; put the token "
                        "in the variable token_env names", *at, "url")
    if name == "ntfy" and not urlsplit(url).path.strip("/"):
        raise doc.error("must name the topic: https://ntfy.sh/TOPIC", *at, "url")
    env, command = checks.secret_source(doc, raw, at, "token_env", "token_command", required=False)
    if (env or command) and urlsplit(url).scheme != "https" \
            and urlsplit(url).hostname not in checks.LOOPBACK_HOSTS:
        raise doc.error("a token is sent only over https (or to this machine)", *at, "url")
    return HttpChannel(url=url, token_env=env, token_command=command)


def load(doc: Document, value: Any) -> NotifyConfig | None:
    if value is None:
        return None
    raw = checks.mapping(doc, value, "notify", allowed=(
        "to", "min_verdict", "deadline", "email", "ntfy", "webhook"))
    to = checks.str_list(doc, raw.get("to", ["file"]), "notify", "to",
                   check=lambda v: v in CHANNELS, expected=", ".join(CHANNELS))
    if not to:
        raise doc.error(f"must name at least one channel ({', '.join(CHANNELS)})",
                        "notify", "to")
    verdict = str(raw.get("min_verdict", NotifyConfig.min_verdict)).strip().lower()
    if verdict not in VERDICTS:
        raise doc.error(f"must be one of: {', '.join(VERDICTS)}", "notify", "min_verdict")
    channels: dict[str, Any] = {}
    for name, load_one in (("email", load_email),
                           ("ntfy", lambda d, v: load_http(d, v, "ntfy")),
                           ("webhook", lambda d, v: load_http(d, v, "webhook"))):
        if raw.get(name) is not None:
            channels[name] = load_one(doc, raw[name])
        elif name in to:
            raise doc.error(f"names {name}, which needs a notify.{name} section "
                            "(docs/notify.md)", "notify", "to")
    return NotifyConfig(
        to=tuple(dict.fromkeys(to)), min_verdict=verdict,
        deadline=checks.number(doc, raw.get("deadline", DEFAULT_CHANNEL_DEADLINE), "notify",
                         "deadline", minimum=0.1, maximum=MAX_CHANNEL_DEADLINE),
        **channels)
