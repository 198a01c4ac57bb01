"""The email channel: one multipart/alternative mail (plain text first, then the small
HTML form), sent with aiosmtplib.

`tls: true` is implicit TLS (port 465), `starttls` upgrades a plain connection and
refuses to go on when the server does not offer it, `false` is plain text and only
allowed to this machine (`settings` below refuses it for any other host). Certificates are
checked against the system's store (`SSL_CERT_FILE` names another). The login is the
user and password from notify.email, when a user is given.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from jobtracker.channels.base import Channel, ChannelError, Message, Secret
from jobtracker.yamlfile import Document, checks

if TYPE_CHECKING:
    from email.message import EmailMessage


def build(settings: EmailChannel, message: Message) -> EmailMessage:
    from email.message import EmailMessage
    from email.utils import formatdate, make_msgid

    mail = EmailMessage()
    mail["Subject"] = message.subject
    mail["From"] = settings.sender
    mail["To"] = ", ".join(settings.to)
    mail["Date"] = formatdate(localtime=True)
    mail["Message-ID"] = make_msgid("digest", domain=settings.sender.rsplit("@", 1)[-1])
    mail["Auto-Submitted"] = "auto-generated"     # RFC 3834: no vacation replies to it
    mail.set_content(message.text)
    mail.add_alternative(message.html, subtype="html")
    return mail


async def send(settings: EmailChannel, message: Message, password: str | None,
               timeout: float) -> str:
    import aiosmtplib  # only when sending: reading config.yaml imports this module

    mail = build(settings, message)
    try:
        await aiosmtplib.send(
            mail, hostname=settings.host, port=settings.port, username=settings.user,
            password=password, use_tls=settings.tls is True,
            start_tls=settings.tls == "starttls", validate_certs=True,
            tls_context=ssl.create_default_context() if settings.tls else None,
            timeout=timeout)
    except aiosmtplib.SMTPResponseException as exc:
        raise ChannelError(f"the server answered {exc.code}: "
                           f"{' '.join(str(exc.message).split())[:200]}") from None
    except (aiosmtplib.SMTPException, OSError, ssl.SSLError) as exc:
        raise ChannelError(f"{type(exc).__name__}: {' '.join(str(exc).split())[:200]}") from None
    return f"{', '.join(settings.to)} via {settings.host}:{settings.port}"


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


def load(doc: Document, value: Any) -> EmailChannel:
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


def password(settings: EmailChannel) -> Secret | None:
    """The password's source, when the channel logs in."""
    if settings.user is None:
        return None
    return Secret(settings.password_env, settings.password_command, "password_env",
                  "password_command")


CHANNEL: Channel[EmailChannel] = Channel("email", load, send, password)
