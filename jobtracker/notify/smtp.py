"""The email channel: one multipart/alternative mail (plain text first, then the small
HTML form), sent with aiosmtplib.

`tls: true` is implicit TLS (port 465), `starttls` upgrades a plain connection and
refuses to go on when the server does not offer it, `false` is plain text and only
allowed to this machine (config.py refuses it for any other host). Certificates are
checked against the system's store (`SSL_CERT_FILE` names another). The login is the
user and password from notify.email, when a user is given.
"""

from __future__ import annotations

import ssl
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

from jobtracker.config import EmailChannel
from jobtracker.notify.message import ChannelError, Message


def build(settings: EmailChannel, message: Message) -> EmailMessage:
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
    # aiosmtplib loads when a mail is sent, not with every headless run (`--run`).
    import aiosmtplib

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
