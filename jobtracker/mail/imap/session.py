"""One IMAP connection that can only read: the commands it may send are listed here.

The standard library's `imaplib`, driven from a worker thread (`asyncio.to_thread`):
no dependency to add, and every command goes through one method (`_command`), so the
read-only guarantee is a check on that method rather than a habit. `SELECT`, `STORE`,
`COPY`, `MOVE`, `EXPUNGE`, `APPEND` and every other command that is not in `ALLOWED`
raise before a byte is sent; a `UID FETCH` must ask for `BODY.PEEK[...]`, never
`BODY[...]` (which sets `\\Seen`).

Bounds: a literal longer than the fetch cap is refused before it is read (a server
cannot make jobtracker hold 2 GB), a response line is bounded by imaplib (1 MB), and
every socket operation times out after `TIMEOUT` seconds.
"""

from __future__ import annotations

import imaplib
import re
import ssl
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from jobtracker.config import LOOPBACK_HOSTS, ImapConfig
from jobtracker.mail.imap.errors import ImapError
from jobtracker.mail.maildir import MAX_PARSE_BYTES
from jobtracker.secrets import Redactor

# A message's first bytes are fetched, as many as the Maildir path parses: the text of
# an email comes before its attachments. A longer message is stored as partial.
FETCH_BYTES = MAX_PARSE_BYTES
TIMEOUT = 30.0
# Every command this client can send. UID takes a subcommand from UID_ALLOWED.
ALLOWED = frozenset({"CAPABILITY", "STARTTLS", "LOGIN", "EXAMINE", "UID", "LOGOUT"})
UID_ALLOWED = frozenset({"SEARCH", "FETCH"})
# What jobtracker never sends (docs/mail.md lists them; a test checks the wire).
NEVER_SENT = ("SELECT", "STORE", "COPY", "MOVE", "EXPUNGE", "APPEND", "DELETE", "CREATE",
              "RENAME", "SUBSCRIBE", "SETFLAGS")
DETAIL_CHARS = 200

T = TypeVar("T")
# FETCH items that set \Seen: BODY[...] (BODY.PEEK[...] does not), RFC822, RFC822.TEXT.
_SETS_SEEN = re.compile(r"\bBODY\[|\bRFC822(?!\.SIZE|\.HEADER)\b")


class _ReadOnly:
    """imaplib with the read-only guard and the literal bound (a mixin for both classes)."""

    def _command(self, name: str, *args: Any) -> Any:
        if name not in ALLOWED:
            raise ImapError(f"refused to send {name}: jobtracker only reads")
        if name == "UID":
            sub = str(args[0]).upper() if args else ""
            if sub not in UID_ALLOWED:
                raise ImapError(f"refused to send UID {sub}: jobtracker only reads")
            items = " ".join(str(a) for a in args[1:]).upper()
            if sub == "FETCH" and _SETS_SEEN.search(items):
                raise ImapError("refused to fetch without PEEK: it would mark mail as read")
        return super()._command(name, *args)  # type: ignore[misc]

    def read(self, size: int) -> bytes:
        # imaplib reads a literal whole, as long as the server announces it.
        if size > FETCH_BYTES:
            raise imaplib.IMAP4.abort(f"the server sent {size:,} bytes at once "
                                      f"(at most {FETCH_BYTES:,} are read)")
        return super().read(size)  # type: ignore[misc]


class _Plain(_ReadOnly, imaplib.IMAP4):
    pass


class _Tls(_ReadOnly, imaplib.IMAP4_SSL):
    pass


@dataclass(frozen=True)
class Fetched:
    """One message's bytes as fetched (`partial`: only its first FETCH_BYTES)."""

    uid: int
    raw: bytes
    partial: bool
    internal_date: str | None     # UTC ISO 8601: when the server received it


def quoted(folder: str) -> str:
    """A folder name as an IMAP quoted string (imaplib sends arguments as they are)."""
    return '"' + folder.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return " ".join(_text(v) for v in value)
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return str(value)


_UID = re.compile(rb"\bUID (\d+)")
_SIZE = re.compile(rb"\bRFC822\.SIZE (\d+)")
_DATE = re.compile(rb'\bINTERNALDATE "\s*(\d{1,2}-[A-Za-z]{3}-\d{4} \d\d:\d\d:\d\d [+-]\d{4})"')


def _internal_date(meta: bytes) -> str | None:
    found = _DATE.search(meta)
    if not found:
        return None
    try:
        when = datetime.strptime(found.group(1).decode(), "%d-%b-%Y %H:%M:%S %z")
    except ValueError:
        return None
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_fetch(data: list[Any], wanted: set[int]) -> list[Fetched]:
    """imaplib's FETCH answer → one Fetched per requested UID that came with a body.

    imaplib gives `(b'1 (UID 5 RFC822.SIZE 12 BODY[]<0> {12}', b'<bytes>')` then the
    rest of the line (`b')'` or `b' FLAGS (...))'`); the items may come in any order,
    so both parts are searched."""
    found: dict[int, Fetched] = {}
    for index, item in enumerate(data):
        if not isinstance(item, tuple) or len(item) != 2:
            continue
        head, raw = item
        after = data[index + 1] if index + 1 < len(data) else b""
        meta = head + (after if isinstance(after, bytes) else b"")
        uid, size = _UID.search(meta), _SIZE.search(meta)
        if uid is None or int(uid.group(1)) not in wanted:
            continue
        length = int(size.group(1)) if size else None
        partial = length > len(raw) if length is not None else len(raw) >= FETCH_BYTES
        found[int(uid.group(1))] = Fetched(int(uid.group(1)), raw, partial,
                                           _internal_date(meta))
    return [found[uid] for uid in sorted(found)]


class Session:
    """A logged-in, read-only connection to one account. Every method blocks (run it in
    a thread) and raises ImapError, its message redacted of the password."""

    def __init__(self, cfg: ImapConfig, password: str) -> None:
        self.cfg = cfg
        self._redact = Redactor([password])
        self._imap: imaplib.IMAP4 | None = None
        self._imap = self._guarded("connecting", self._connect)
        try:
            if not password.isascii():
                raise ImapError("login: the password is not ASCII, which LOGIN cannot send")
            self._guarded("login", self._imap.login, self.cfg.user, password)
        except ImapError:
            self.close()
            raise

    def _connect(self) -> imaplib.IMAP4:
        cfg = self.cfg
        if cfg.tls is True:
            return _Tls(cfg.host, cfg.port, ssl_context=ssl.create_default_context(),
                        timeout=TIMEOUT)
        if cfg.tls is False and cfg.host not in LOOPBACK_HOSTS:
            raise ImapError("tls: false is only for a server on this machine")
        imap = _Plain(cfg.host, cfg.port, timeout=TIMEOUT)
        if cfg.tls == "starttls":
            # imaplib refuses when the server does not offer STARTTLS: never plain instead.
            imap.starttls(ssl.create_default_context())
        return imap

    def _guarded(self, doing: str, call: Callable[..., T], *args: Any) -> T:
        """`call(*args)`, with any failure turned into one redacted ImapError line."""
        try:
            return call(*args)
        except ImapError as exc:
            raise ImapError(self._redact.cut(f"{doing}: {exc}", DETAIL_CHARS)) from None
        except (imaplib.IMAP4.error, OSError, EOFError, ValueError, UnicodeError) as exc:
            detail = _text(exc.args[0] if len(exc.args) == 1 else exc.args) or type(exc).__name__
            if isinstance(exc, ssl.SSLError | TimeoutError | ConnectionError):
                detail = f"{type(exc).__name__}: {detail}"
            raise ImapError(self._redact.cut(f"{doing}: {detail}", DETAIL_CHARS)) from None

    def _ok(self, doing: str, answer: tuple[str, Any]) -> Any:
        typ, data = answer
        if typ != "OK":
            raise ImapError(self._redact.cut(f"{doing}: {typ} {_text(data)}", DETAIL_CHARS))
        return data

    def examine(self, folder: str) -> int:
        """Open `folder` read-only (EXAMINE); its UIDVALIDITY."""
        assert self._imap is not None
        doing = f"examining {folder}"
        self._ok(doing, self._guarded(doing, self._imap.select, quoted(folder), True))
        _, values = self._imap.response("UIDVALIDITY")
        try:
            return int(_text(values[-1]).split()[0])
        except (IndexError, ValueError, TypeError):
            raise ImapError(f"{doing}: the server sent no UIDVALIDITY") from None

    def uids_after(self, last_uid: int) -> list[int]:
        """The UIDs above `last_uid` in the examined folder, ascending."""
        assert self._imap is not None
        doing = "searching for new mail"
        data = self._ok(doing, self._guarded(doing, self._imap.uid, "SEARCH",
                                             f"UID {last_uid + 1}:*"))
        words = _text(data[0] if data else b"").split()
        if not all(word.isdigit() for word in words):
            raise ImapError(self._redact.cut(f"{doing}: not a list of UIDs: {' '.join(words)}",
                                             DETAIL_CHARS))
        # `N:*` always matches the highest UID, even when it is below N.
        return sorted(uid for uid in map(int, words) if uid > last_uid)

    def fetch(self, uids: list[int]) -> list[Fetched]:
        """The first FETCH_BYTES of each message (BODY.PEEK: nothing is marked read)."""
        assert self._imap is not None
        doing = "fetching mail"
        data = self._ok(doing, self._guarded(
            doing, self._imap.uid, "FETCH", ",".join(map(str, uids)),
            f"(UID RFC822.SIZE INTERNALDATE BODY.PEEK[]<0.{FETCH_BYTES}>)"))
        return parse_fetch(data, set(uids))

    def close(self) -> None:
        """LOGOUT, then the socket closed; a connection already gone is fine."""
        if self._imap is None:
            return
        try:
            self._imap.logout()
        except (imaplib.IMAP4.error, OSError, EOFError, ValueError, ImapError):
            pass
        finally:
            self._imap = None
