"""Keeping credentials out of every line jobtracker writes.

jobtracker holds a few credentials: the model server's bearer token (read from
the variable `llm.api_key_env` names), and whatever a user puts in a URL —
user-info (`http://user:password@host`) or a query secret (`?token=...`,
`api_key=`, `key=`), in `llm.url` or a board's or feed's `url`. A server may
echo any of them back, in any form it travels in: the `Authorization` header
(`Bearer TOKEN`, `Basic base64(user:password)`), the URL, or the decoded values.

A `Redactor` is built from the credentials it knows and also removes the generic
shapes (an Authorization value, URL user-info, a secret-named query parameter),
so a credential it was not told about is still caught in its usual forms.
Redact first, cut afterwards: a credential cut in half no longer matches.

Stdlib only, so every layer (the job loop's reporters included) may use it.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterable
from urllib.parse import parse_qsl, quote, quote_plus, unquote, urlsplit, urlunsplit

from jobtracker.text import one_line  # stdlib-only too

REDACTED = "***"

# A known value shorter than this is not searched for on its own (it would blank
# ordinary words); its forms in context (Basic, user-info, query) still are.
MIN_SECRET_LENGTH = 4

# Query parameter names that carry a credential (case-insensitive, whole name).
SECRET_PARAM = re.compile(
    r"(?:[a-z0-9_.-]*[_.-])?(?:token|key|apikey|secret|password|passwd|pwd|pass|auth"
    r"|authorization|signature|sig|credentials?|session|sessionid)", re.IGNORECASE)

_GENERIC = [
    # An Authorization value in any scheme jobtracker (or httpx for it) would send.
    (re.compile(r"\b(Bearer|Basic)(\s+|%20|\+)[A-Za-z0-9._~+/=:%-]+",
                re.IGNORECASE), rf"\1\2{REDACTED}"),
    # A header line or JSON field named like a credential: keep the name, drop the value.
    (re.compile(r"""((?:authorization|x-api-key|api[_-]?key|access[_-]?token|password)"""
                r"""["']?\s*[:=]\s*["']?)(?!\*\*\*)[^\s"'&,;}<>]+""", re.IGNORECASE),
     rf"\1{REDACTED}"),
    # URL user-info: scheme://user:password@host (also scheme://token@host).
    (re.compile(r"([a-z][a-z0-9+.-]*://)[^/\s@?#]+@", re.IGNORECASE), rf"\1{REDACTED}@"),
    # A secret-named parameter in a query string or a form body.
    (re.compile(rf"([?&;]{SECRET_PARAM.pattern}=)[^&\s\"'#<>]+", re.IGNORECASE),
     rf"\1{REDACTED}"),
]


def _forms(value: str) -> set[str]:
    """The ways `value` may be written back: as is, URL-encoded or decoded, base64, and
    escaped the ways it is sent inside quotes (IMAP's quoted string, as imaplib sends a
    LOGIN password, and a JSON string): a server echoing `pa\\"ss` echoes the secret."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    forms = {value, quote(value, safe=""), quote_plus(value, safe=""), unquote(value),
             escaped, json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1]}
    forms.add(base64.b64encode(value.encode()).decode())
    forms.add(base64.urlsafe_b64encode(value.encode()).decode())
    return {f for f in forms if len(f) >= MIN_SECRET_LENGTH}


def url_credentials(url: str) -> list[str]:
    """The credentials a URL carries: its password, `user:password`, secret query values."""
    try:
        parts = urlsplit(url)
        username, password = parts.username, parts.password
    except ValueError:
        return []
    found = []
    if password:
        found += [unquote(password), f"{unquote(username or '')}:{unquote(password)}"]
    elif username and "@" in parts.netloc:   # a bare token as user-info: scheme://TOKEN@host
        found.append(unquote(username))
    found += [value for name, value in parse_qsl(parts.query, keep_blank_values=False)
              if SECRET_PARAM.fullmatch(name)]
    return found


def has_userinfo(url: str) -> bool:
    """True when `url` names a user (and maybe a password) before its host."""
    try:
        return "@" in urlsplit(url).netloc
    except ValueError:
        return False


def strip_userinfo(url: str) -> str:
    """`url` without `user:password@`: what jobtracker actually sends (never Basic auth)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rsplit("@", 1)[1]))


def display_url(url: str) -> str:
    """`url` for messages: no user-info, and every secret-named query value blanked."""
    return redact(strip_userinfo(url))


def redact(text: str) -> str:
    """`text` with every generic credential shape blanked (no known values needed)."""
    for pattern, replacement in _GENERIC:
        text = pattern.sub(replacement, text)
    return text


class Redactor:
    """Blanks the credentials it was built from, in every form, plus the generic shapes.

    `Redactor.of(tokens=[os.environ[...]], urls=[llm.url, *board_urls])`; call it on
    any text before it is cut, printed, stored or put in an event.
    """

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        forms: set[str] = set()
        for secret in secrets:
            if secret:
                forms |= _forms(secret)
        # Longest first, so `user:password` goes before `password` and leaves no debris.
        ordered = sorted(forms, key=len, reverse=True)
        self._known = re.compile("|".join(map(re.escape, ordered))) if ordered else None

    @classmethod
    def of(cls, *, tokens: Iterable[str | None] = (),
           urls: Iterable[str | None] = ()) -> Redactor:
        secrets = [t for t in tokens if t]
        for url in urls:
            if url:
                secrets += url_credentials(url)
        return cls(secrets)

    def __call__(self, text: str) -> str:
        if self._known is not None:
            text = self._known.sub(REDACTED, text)
        return redact(text)

    def cut(self, text: str, limit: int) -> str:
        """Redacted, then on one line and at most `limit` characters (the order matters)."""
        return one_line(self(text), limit)


__all__ = ["REDACTED", "Redactor", "display_url", "has_userinfo", "redact", "strip_userinfo",
           "url_credentials"]
