"""The shared checkers every section of the workspace's YAML files is read with.

Each takes the `Document` (so an error names the file and line), the value, and the
path of keys to it; it returns the value checked, or raises `doc.error(...)`:
`FILE:LINE: field: message`. The sections (jobtracker/config.py and the modules it
lists) are made of these, so the same mistake reads the same everywhere.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jobtracker.yamlfile import Document

# Hosts a password may be sent to in clear text (`tls: false`): this machine only.
LOOPBACK_HOSTS = ("127.0.0.1", "::1", "localhost")


def expand_path(value: str) -> Path:
    return Path(os.path.expandvars(os.path.expanduser(value)))


def mapping(doc: Document, value: Any, *at: Any, allowed: Iterable[str]) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise doc.error(f"must be a mapping, got {type(value).__name__}", *at)
    allowed = tuple(allowed)
    for key in value:
        if key not in allowed:
            raise doc.error(f"unknown key (expected one of: {', '.join(allowed)})", *at, key)
    return value


def string(doc: Document, value: Any, *at: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise doc.error("must be a non-empty string", *at)
    return value


def number(doc: Document, value: Any, *at: Any, minimum: float = 0,
           maximum: float = 1e9) -> float:
    # YAML reads .nan and .inf as floats: a NaN deadline or score breaks every run later,
    # and an infinite timeout is none. Every number is finite and in its range.
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or not math.isfinite(value) or not minimum <= value <= maximum:
        raise doc.error(f"must be a number from {minimum:g} to {maximum:g}", *at)
    return float(value)


def integer(doc: Document, value: Any, *at: Any, minimum: int = 1,
            maximum: int = 1_000_000) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        raise doc.error(f"must be a whole number from {minimum} to {maximum}", *at)
    return value


def url(doc: Document, value: Any, *at: Any) -> str:
    """An http(s) URL that parses (a bracket left open, a port out of range, no host:
    each caught here, not by the HTTP client in the middle of a run)."""
    text = string(doc, value, *at).strip()
    try:
        parts = urlsplit(text)
        parts.port   # noqa: B018  (raises ValueError for a bad port)
        host = parts.hostname
    except ValueError as exc:
        raise doc.error(f"not a usable URL ({exc})", *at) from None
    if parts.scheme not in ("http", "https") or not host:
        raise doc.error("must be an http:// or https:// URL with a host", *at)
    return text


def str_list(doc: Document, value: Any, *at: Any,
             check: Callable[[str], bool] | None = None, expected: str = "") -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise doc.error("must be a list", *at)
    out = []
    for index, item in enumerate(value):
        if not isinstance(item, str | int | float) or isinstance(item, bool):
            raise doc.error("must be a string", *at, index)
        text = str(item).strip().lower()
        if check and not check(text):
            raise doc.error(f"unknown value {text!r} (expected one of: {expected})", *at, index)
        out.append(text)
    return tuple(out)


def choice(doc: Document, value: Any, choices: tuple[str, ...], *at: Any) -> str:
    """One of `choices` (any case); the last one when the value is absent."""
    if value is None:
        return choices[-1]
    if not isinstance(value, str) or value.strip().lower() not in choices:
        raise doc.error(f"must be one of: {', '.join(choices)}", *at)
    return value.strip().lower()


def secret_source(doc: Document, raw: dict[str, Any], at: tuple[str, ...], env: str,
                  command: str, *, required: bool) -> tuple[str | None, str | None]:
    """Where a secret comes from: the variable `env` names or the command `command`
    runs, never the secret itself; at most one (exactly one when `required`)."""
    given = [key for key in (env, command) if raw.get(key) is not None]
    if len(given) > 1 or (required and not given):
        raise doc.error(f"give {'exactly' if required else 'at most'} one of {env} and "
                        f"{command}", *at)
    return (string(doc, raw[env], *at, env) if raw.get(env) is not None else None,
            string(doc, raw[command], *at, command) if raw.get(command) is not None else None)


def optional_string(doc: Document, raw: dict[str, Any], key: str, *at: Any) -> str | None:
    """`raw[key]` as a non-empty string, or None when it is absent or null."""
    return string(doc, raw[key], *at, key) if raw.get(key) is not None else None
