"""config.yaml's `imap:` section: an IMAP account read read-only (docs/mail.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jobtracker.yamlfile import Document, checks


@dataclass(frozen=True)
class ImapConfig:
    """An IMAP account read-only (docs/mail.md). The password is never stored here:
    only how to get it (`password_command` or `password_env`)."""

    host: str
    user: str
    port: int = 993
    password_command: str | None = None
    password_env: str | None = None
    folders: tuple[str, ...] = ("INBOX",)
    tls: bool | str = True          # True (implicit TLS) | "starttls" | False (loopback only)

    @property
    def account(self) -> str:
        """The account's name in the database and in messages: user@host:port."""
        return f"{self.user}@{self.host}:{self.port}"


def load(doc: Document, value: Any) -> ImapConfig | None:
    if value is None:
        return None
    raw = checks.mapping(doc, value, "imap", allowed=(
        "host", "port", "user", "password_command", "password_env", "folders", "tls"))
    for key in ("host", "user"):
        if raw.get(key) is None:
            raise doc.error("is required", "imap", key)
    sources = [key for key in ("password_command", "password_env") if raw.get(key) is not None]
    if len(sources) != 1:
        raise doc.error("give exactly one of password_command and password_env", "imap")
    tls = raw.get("tls", True)
    if tls not in (True, False, "starttls"):
        raise doc.error("must be true, starttls or false", "imap", "tls")
    host = checks.string(doc, raw["host"], "imap", "host").strip()
    if tls is False and host not in checks.LOOPBACK_HOSTS:
        # A password in clear text over a network is never sent.
        raise doc.error("tls: false is only for a server on this machine "
                        f"({', '.join(checks.LOOPBACK_HOSTS)})", "imap", "tls")
    folders = raw.get("folders", ["INBOX"])
    if not isinstance(folders, list) or not folders:
        raise doc.error("must be a non-empty list of folder names", "imap", "folders")
    for index, folder in enumerate(folders):
        # Folder names are case-sensitive (INBOX aside) and sent as a quoted string.
        if not isinstance(folder, str) or not folder.strip() or not folder.isascii() \
                or not folder.isprintable():
            raise doc.error("must be a folder name in printable ASCII (IMAP's modified "
                            "UTF-7 form for other names)", "imap", "folders", index)
    port = checks.integer(doc, raw.get("port", 993 if tls is True else 143), "imap", "port")
    if port > 65535:
        raise doc.error("must be a port number (1-65535)", "imap", "port")
    return ImapConfig(
        host=host, user=checks.string(doc, raw["user"], "imap", "user"), port=port,
        password_command=checks.string(doc, raw["password_command"], "imap", "password_command")
        if raw.get("password_command") is not None else None,
        password_env=checks.string(doc, raw["password_env"], "imap", "password_env")
        if raw.get("password_env") is not None else None,
        folders=tuple(folders), tls=tls)
