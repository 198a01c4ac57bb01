"""One IMAP connection that can only read: the commands it may send are listed here.

The standard library's `imaplib`, driven from a worker thread (`asyncio.to_thread`):
no dependency to add, and every command goes through one method (`_command`), so the
read-only guarantee is a check on that method rather than a habit. `SELECT`, `STORE`,
`COPY`, `MOVE`, `EXPUNGE`, `APPEND` and every other command that is not in `ALLOWED`
raise before a byte is sent; a `UID FETCH` must ask for `BODY.PEEK[...]`, never
`BODY[...]` (which sets `\\Seen`).

Bounds, per exchange (the greeting and login together, then each command and its
whole answer): a total deadline (`EXCHANGE_SECONDS`; a server dripping one byte a
second never trips a per-read timeout) and a byte budget (`EXCHANGE_BYTES`, or for a
FETCH its messages' caps), so endless literals each under the cap or endless untagged
lines end the exchange too. A literal longer than the fetch cap is refused before it is
read, a response line is bounded by imaplib (1 MB), and no single read waits longer
than `TIMEOUT`. Reading is done here (`readline`, `read`), straight from the socket, so
that every read knows how much time and room the exchange has left; `abort()` from
another thread ends an exchange within a second.
"""

from __future__ import annotations

import contextlib
import imaplib
import re
import socket
import ssl
import time
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
EXCHANGE_SECONDS = 60.0                 # one command and its whole answer
EXCHANGE_BYTES = 16 * 1024 * 1024       # an answer that is not a FETCH
FETCH_SLACK = 64 * 1024                 # a FETCH: its messages' caps, plus this each
# How long one read waits before looking again whether the exchange was aborted.
POLL = 1.0
# UIDs and UIDVALIDITY are 32-bit unsigned numbers (RFC 3501, nz-number).
MAX_UID = 2**32 - 1
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
    """imaplib with the read-only guard, the literal bound and the exchange's deadline and
    byte budget (a mixin for both classes)."""

    sock: socket.socket

    def __init__(self, *args: Any, owner: Session, **kwargs: Any) -> None:
        self._buffer = bytearray()
        self._aborted = False
        self.exchange(EXCHANGE_SECONDS, EXCHANGE_BYTES)    # the greeting's
        owner.connecting = self        # so that its abort() reaches the greeting's reads
        super().__init__(*args, **kwargs)

    def exchange(self, seconds: float, budget: int) -> None:
        """Start an exchange: from now, `seconds` and `budget` bytes for all of it."""
        self._deadline = time.monotonic() + seconds
        self._seconds = seconds
        self._left = self._budget = budget

    @property
    def broken(self) -> bool:
        """An exchange was cut off (deadline, budget, abort): no goodbye is waited for."""
        return self._aborted

    def hang_up(self) -> None:
        """End the exchange in progress (from any thread): its next read fails. (Not
        `abort`: imaplib names its exception class so, and raises `self.abort(...)`.)"""
        self._aborted = True
        sock = getattr(self, "sock", None)
        if sock is not None:
            # The plain socket's shutdown, also under TLS: it wakes a blocked read.
            with contextlib.suppress(OSError):
                socket.socket.shutdown(sock, socket.SHUT_RDWR)

    def _fill(self) -> bool:
        """One read from the socket into the buffer; False at the end of the stream."""
        quiet_since = time.monotonic()
        while True:
            if self._aborted:
                raise imaplib.IMAP4.abort("stopped")
            now = time.monotonic()
            left = self._deadline - now
            if left <= 0:
                self._aborted = True    # mid-answer: the connection is good for nothing more
                raise imaplib.IMAP4.abort(f"no complete answer within {self._seconds:g} s")
            if now - quiet_since >= TIMEOUT:
                self._aborted = True
                raise TimeoutError("timed out")
            # Short waits, so an abort or the deadline is seen within POLL seconds.
            self.sock.settimeout(min(POLL, left))
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                continue
            finally:
                self.sock.settimeout(TIMEOUT)      # what sending and TLS handshakes use
            break
        if not chunk:
            return False
        self._left -= len(chunk)
        if self._left < 0:
            self._aborted = True
            raise imaplib.IMAP4.abort(f"the server sent more than {self._budget:,} bytes "
                                      "in one answer")
        self._buffer += chunk
        return True

    def readline(self) -> bytes:
        limit = imaplib._MAXLINE   # type: ignore[attr-defined]
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0 or len(self._buffer) > limit:
                break
            if not self._fill():
                end = len(self._buffer) - 1
                break
        line = bytes(self._buffer[:end + 1])
        del self._buffer[:end + 1]
        if len(line) > limit:
            raise imaplib.IMAP4.error(f"got more than {limit} bytes")
        return line

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
        while len(self._buffer) < size and self._fill():
            pass
        data = bytes(self._buffer[:size])
        del self._buffer[:size]
        return data


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
_UID_WORD = re.compile(r"[0-9]{1,10}")


def _uid_word(word: str) -> bool:
    """An IMAP UID as sent: ASCII digits (`²` is a digit to str.isdigit), at most 2^32-1."""
    return bool(_UID_WORD.fullmatch(word)) and 0 < int(word) <= MAX_UID
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
        if uid is None or len(uid.group(1)) > 10 or int(uid.group(1)) not in wanted:
            continue
        length = int(size.group(1)) if size else None
        partial = length > len(raw) if length is not None else len(raw) >= FETCH_BYTES
        found[int(uid.group(1))] = Fetched(int(uid.group(1)), raw, partial,
                                           _internal_date(meta))
    return [found[uid] for uid in sorted(found)]


class Session:
    """A read-only connection to one account, logged in by `Session(cfg, password)` (or
    `Session(cfg)` then `open(password)`, so that another thread may `abort()` even the
    greeting). Every method blocks (run it in a thread) and raises ImapError, its message
    redacted of the password in every form it was sent in."""

    def __init__(self, cfg: ImapConfig, password: str | None = None) -> None:
        self.cfg = cfg
        self._redact = Redactor()
        self._imap: _ReadOnly | None = None
        self.connecting: _ReadOnly | None = None
        self._aborted = False
        if password is not None:
            self.open(password)

    def open(self, password: str) -> None:
        """Connect, read the greeting and log in: two exchanges, each bounded."""
        # LOGIN sends the password as an IMAP quoted string (`"pa\\"ss"`); a server's
        # echo of that form is caught too (secrets: every form a secret travels in).
        self._redact = Redactor([password])
        self._imap = self._guarded("connecting", self._connect)
        try:
            if not password.isascii():
                raise ImapError("login: the password is not ASCII, which LOGIN cannot send")
            self._imap.exchange(EXCHANGE_SECONDS, EXCHANGE_BYTES)
            self._guarded("login", self._imap.login, self.cfg.user, password)
        except ImapError:
            self.close()
            raise

    def abort(self) -> None:
        """End whatever exchange is in progress, from any thread, within POLL seconds."""
        self._aborted = True
        for imap in (self._imap, self.connecting):
            if imap is not None:
                imap.hang_up()

    def _exchange(self, seconds: float | None = None,
                  budget: int | None = None) -> _ReadOnly:
        assert self._imap is not None
        if self._aborted:
            raise ImapError("stopped")
        self._imap.exchange(seconds or EXCHANGE_SECONDS, budget or EXCHANGE_BYTES)
        return self._imap

    def _connect(self) -> _ReadOnly:
        cfg = self.cfg
        if self._aborted:
            raise ImapError("stopped")
        if cfg.tls is True:
            return _Tls(cfg.host, cfg.port, ssl_context=ssl.create_default_context(),
                        timeout=TIMEOUT, owner=self)
        if cfg.tls is False and cfg.host not in LOOPBACK_HOSTS:
            raise ImapError("tls: false is only for a server on this machine")
        imap = _Plain(cfg.host, cfg.port, timeout=TIMEOUT, owner=self)
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
        doing = f"examining {folder}"
        imap = self._guarded(doing, self._exchange)
        self._ok(doing, self._guarded(doing, imap.select, quoted(folder), True))
        _, values = imap.response("UIDVALIDITY")
        try:
            word = _text(values[-1]).split()[0]
        except (IndexError, ValueError, TypeError):
            raise ImapError(f"{doing}: the server sent no UIDVALIDITY") from None
        if not _uid_word(word):
            raise ImapError(self._redact.cut(f"{doing}: UIDVALIDITY {word} is not a 32-bit "
                                             "number", DETAIL_CHARS))
        return int(word)

    def uids_after(self, last_uid: int) -> list[int]:
        """The UIDs above `last_uid` in the examined folder, ascending."""
        doing = "searching for new mail"
        imap = self._guarded(doing, self._exchange)
        data = self._ok(doing, self._guarded(doing, imap.uid, "SEARCH",
                                             f"UID {last_uid + 1}:*"))
        words = _text(data[0] if data else b"").split()
        if not all(_uid_word(word) for word in words):
            bad = next(word for word in words if not _uid_word(word))
            raise ImapError(self._redact.cut(f"{doing}: not a list of UIDs (32-bit numbers): "
                                             f"{bad}", DETAIL_CHARS))
        # `N:*` always matches the highest UID, even when it is below N.
        return sorted(uid for uid in map(int, words) if uid > last_uid)

    def fetch(self, uids: list[int]) -> list[Fetched]:
        """The first FETCH_BYTES of each message (BODY.PEEK: nothing is marked read)."""
        doing = "fetching mail"
        imap = self._guarded(doing, self._exchange, 2 * EXCHANGE_SECONDS,
                             len(uids) * (FETCH_BYTES + FETCH_SLACK) + FETCH_SLACK)
        data = self._ok(doing, self._guarded(
            doing, imap.uid, "FETCH", ",".join(map(str, uids)),
            f"(UID RFC822.SIZE INTERNALDATE BODY.PEEK[]<0.{FETCH_BYTES}>)"))
        return parse_fetch(data, set(uids))

    def close(self) -> None:
        """LOGOUT, then the socket closed; a connection already gone is fine."""
        if self._imap is None:
            return
        try:
            if not (self._aborted or self._imap.broken):
                self._imap.exchange(5.0, EXCHANGE_BYTES)   # a goodbye need not wait long
                self._imap.logout()
            else:
                self._imap.shutdown()
        except (imaplib.IMAP4.error, OSError, EOFError, ValueError, ImapError):
            pass
        finally:
            self._imap = None
