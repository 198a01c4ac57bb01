"""Raw mail bytes → a `Mail`: its sender, subject, date and both text parts.

Parsed with the lenient compat32 policy, headers bounded (jobtracker.mail.policy):
about seven times faster than policy.default, which rebuilds header objects on
every access, and a thousand alerts must read in under two seconds. The sender is
the From header's one mailbox, its structure parsed before any encoded word is
decoded (`mailbox`: the simple shape directly, every other through the standard
library's structured parser). Encoded words in the subject are decoded, each part's
transfer encoding and declared charset undone (an unknown charset reads as UTF-8
with replacements), and a `format=flowed` text part (RFC 3676, Google's alerts)
joined back into its lines. Never raises on bad mail.
"""

from __future__ import annotations

import binascii
import email
import email.errors
import hashlib
import re
from datetime import UTC
from email.header import decode_header, make_header
from email.message import Message
from email.parser import BytesHeaderParser
from email.utils import parsedate_to_datetime

from jobtracker.alerts.base import Mail, tidy
from jobtracker.mail.policy import COMPAT32, mailbox

# Only this much of a mail is read: an alert's parts come first and are a few
# hundred KB at most; a 50 MB mail costs no more than a 1 MB one.
MAX_MAIL_BYTES = 1 << 20
MAX_PART_CHARS = 1_000_000      # a text part longer than this is cut
MAX_PARTS = 50                  # MIME parts looked at
MAX_HEADER_BYTES = 64 * 1024    # where `sender_address` looks for the From header
HEADERS = ("x-linkedin-template", "x-linkedin-class")


def _decoded(value: str | None) -> str:
    if not value:
        return ""
    try:
        return str(make_header(decode_header(str(value))))
    except (LookupError, ValueError, UnicodeError, email.errors.HeaderParseError):
        return str(value)


def _date(value: str) -> str | None:
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError, AttributeError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    try:
        return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    except (ValueError, OverflowError):
        return None


def unflow(text: str, delsp: bool) -> str:
    """A format=flowed text joined back into its lines: a line ending in a space goes
    on with the next (RFC 3676 4.2); with delsp=yes that space is not the text's.
    Space-stuffing (a leading space added by the sender) is removed."""
    out: list[str] = []
    held = ""
    for raw in text.split("\n"):
        line = raw.rstrip("\r")
        if line.startswith(" "):
            line = line[1:]
        if line.endswith(" ") and line != "-- ":
            held += line[:-1] if delsp else line
            continue
        out.append(held + line)
        held = ""
    if held:
        out.append(held)
    return "\n".join(out)


def _text_of(part: Message) -> str:
    try:
        payload = part.get_payload(decode=True)
    except Exception:  # a broken transfer encoding reads as nothing
        return ""
    if not isinstance(payload, bytes):
        return ""
    charset = part.get_content_charset() or "utf-8"
    try:
        text = payload.decode(charset, errors="replace")
    except LookupError:
        text = payload.decode("utf-8", errors="replace")
    text = text[:MAX_PART_CHARS]
    if part.get_content_type() == "text/plain":
        params = {k.lower(): (v or "").lower() for k, v in part.get_params() or [] if k}
        if params.get("format") == "flowed":
            text = unflow(text, params.get("delsp") == "yes")
    return text


def _parts(msg: Message) -> tuple[str | None, str | None]:
    html = text = None
    for count, part in enumerate(msg.walk()):
        if count >= MAX_PARTS:
            break
        if part.is_multipart() or part.get_content_disposition() == "attachment":
            continue
        kind = part.get_content_type()
        if kind == "text/html" and html is None:
            html = _text_of(part)
        elif kind == "text/plain" and text is None:
            text = _text_of(part)
    return html, text


def _message_id(value: str) -> str:
    text = "".join(tidy(value, 600).split())
    if text.startswith("<") and ">" in text:
        text = text[1:text.index(">")]
    return text.strip("<>")[:500]


def sender_address(raw: bytes) -> str:
    """The From address of raw mail, read from its headers alone (cheap: a mailbox's
    other mail is set aside without parsing its body). '' when there is none."""
    end = raw.find(b"\n\n", 0, MAX_HEADER_BYTES)
    if end < 0:
        end = raw.find(b"\r\n\r\n", 0, MAX_HEADER_BYTES)
    head = raw[:end if end >= 0 else MAX_HEADER_BYTES]
    try:
        msg = BytesHeaderParser(policy=COMPAT32).parsebytes(head)
        return tidy(mailbox(msg.get_all("from"))[1], 200)
    except Exception:  # an odd header: no sender, so no alert
        return ""


# --- a quick walk over the MIME tree ------------------------------------------------
#
# The stdlib's feed parser reads a message line by line in Python: about 2 ms for a
# 20 KB alert, the whole budget. Alerts are simple trees (multipart/alternative, maybe
# inside multipart/mixed or related), so the parts are found by splitting on their
# boundary and decoded with binascii, all in C. A tree this walk cannot read (no
# boundary, a part without headers) goes to the feed parser instead.

_PARAM = re.compile(rb';\s*([\w.-]+)\s*=\s*(?:"([^"]*)"|([^;\s]+))')
_HEADER = re.compile(rb"(?im)^(content-type|content-transfer-encoding|content-disposition)"
                     rb"[ \t]*:[ \t]*((?:[^\r\n]|\r?\n[ \t])*)")
# Nesting no alert has: a tree this deep is not walked at all (the feed parser's walk
# recurses), and the mail is counted and named as not understood.
MAX_NESTING = 20


class _Unreadable(Exception):
    """A MIME tree the quick walk leaves to the feed parser."""


class _TooDeep(Exception):
    """A MIME tree nested past MAX_NESTING: no walker reads it."""


def _split(data: bytes) -> tuple[bytes, bytes]:
    """(headers, body) of a message or part."""
    crlf = data.find(b"\r\n\r\n")
    # A bare blank line before it (mixed line ends) ends the headers first; looked for
    # only up to it, not through a whole CRLF message.
    lf = data.find(b"\n\n", 0, crlf + 2 if crlf >= 0 else len(data))
    if crlf >= 0 and (lf < 0 or crlf < lf):
        return data[:crlf], data[crlf + 4:]
    if lf >= 0:
        return data[:lf], data[lf + 2:]
    return data, b""


def _fields(head: bytes) -> tuple[str, dict[str, str], str, str]:
    """(content type, its parameters, transfer encoding, disposition) of a header block."""
    found = {name.lower(): re.sub(rb"\r?\n[ \t]", b" ", value)
             for name, value in _HEADER.findall(head)}
    ctype = found.get(b"content-type", b"text/plain")
    kind = ctype.split(b";", 1)[0].strip().lower().decode("ascii", "replace")
    params = {m.group(1).lower().decode("ascii", "replace"):
              (m.group(2) if m.group(2) is not None else m.group(3)).decode("latin-1")
              for m in _PARAM.finditer(ctype)}
    encoding = found.get(b"content-transfer-encoding", b"").strip().lower().decode(
        "ascii", "replace")
    disposition = found.get(b"content-disposition", b"").split(b";", 1)[0].strip().lower()
    return kind, params, encoding, disposition.decode("ascii", "replace")


def _part(piece: bytes) -> tuple[bytes, bytes]:
    """A part's (headers, body), from what follows its boundary: the rest of the
    boundary's line, then the headers (none: a blank line at once), then the body."""
    line_end = piece.find(b"\n")
    if line_end < 0:
        raise _Unreadable
    piece = piece[line_end + 1:]
    if piece[:1] == b"\n":
        return b"", piece[1:]
    if piece[:2] == b"\r\n":
        return b"", piece[2:]
    return _split(piece)


def _payload(body: bytes, encoding: str) -> bytes:
    if encoding == "base64":
        return binascii.a2b_base64(body)
    if encoding == "quoted-printable":
        return binascii.a2b_qp(body)
    return body


def _decode(payload: bytes, kind: str, params: dict[str, str]) -> str:
    try:
        text = payload.decode(params.get("charset") or "utf-8", errors="replace")
    except LookupError:
        text = payload.decode("utf-8", errors="replace")
    text = text[:MAX_PART_CHARS]
    if kind == "text/plain" and params.get("format", "").lower() == "flowed":
        text = unflow(text, params.get("delsp", "").lower() == "yes")
    return text


def _walk(head: bytes, body: bytes, depth: int, found: dict[str, str], count: list[int]) -> None:
    kind, params, encoding, disposition = _fields(head)
    count[0] += 1
    if count[0] > MAX_PARTS:
        return
    if kind.startswith("multipart/"):
        boundary = params.get("boundary", "").encode("latin-1")
        if depth >= MAX_NESTING:
            raise _TooDeep
        if not boundary:
            raise _Unreadable
        pieces = body.split(b"--" + boundary)
        for piece in pieces[1:]:
            if piece.startswith(b"--"):
                break
            _walk(*_part(piece), depth + 1, found, count)
        return
    if disposition == "attachment" or kind not in ("text/html", "text/plain"):
        return
    name = "html" if kind == "text/html" else "text"
    if name not in found:
        try:
            found[name] = _decode(_payload(body, encoding), kind, params)
        except (binascii.Error, ValueError) as exc:
            raise _Unreadable from exc


def _quick_parts(data: bytes) -> tuple[str | None, str | None]:
    head, body = _split(data)
    found: dict[str, str] = {}
    _walk(head, body, 0, found, [0])
    return found.get("html"), found.get("text")


def read_mail(raw: bytes) -> Mail:
    """The mail in `raw` (at most MAX_MAIL_BYTES of it read). Never raises."""
    head = raw if len(raw) <= MAX_MAIL_BYTES else raw[:raw.rfind(b"\n", 0, MAX_MAIL_BYTES) + 1]
    quick: tuple[str | None, str | None] | None
    unwalkable = False
    try:
        quick = _quick_parts(head)
    except (_TooDeep, RecursionError):
        quick, unwalkable = (None, None), True
    except _Unreadable:
        quick = None
    try:
        if quick is None:
            msg = email.message_from_bytes(head, policy=COMPAT32)
        else:
            msg = BytesHeaderParser(policy=COMPAT32).parsebytes(_split(head)[0] + b"\r\n\r\n")
    except Exception:  # the parser is lenient; anything it still trips on reads as empty
        msg = Message()
    try:
        name, address = mailbox(msg.get_all("from"))
        subject = _decoded(msg.get("subject"))
        message_id = _message_id(str(msg.get("message-id") or ""))
        date = _date(str(msg.get("date") or ""))
        headers = {h: tidy(str(msg.get(h) or ""), 200) for h in HEADERS if msg.get(h)}
    except Exception:  # an odd header value: the mail is still read, unnamed
        name = address = subject = message_id = ""
        date, headers = None, {}
    if quick is not None:
        html, text = quick
    else:
        try:
            html, text = _parts(msg)
        except Exception:  # a structure nothing can walk has no parts
            html = text = None
            unwalkable = True
    key = message_id or "hash:" + hashlib.sha256(raw).hexdigest()[:16]
    return Mail(key=key, message_id=message_id, address=tidy(address, 200).lower(),
                display=tidy(name, 200), subject=tidy(subject, 300), date=date,
                html=html, text=text, headers=headers, unwalkable=unwalkable)


__all__ = ["MAX_MAIL_BYTES", "mailbox", "read_mail", "sender_address", "unflow"]
