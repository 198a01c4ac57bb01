"""config.yaml's `timezone:`: the user's IANA zone (interviews, the digest's times)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jobtracker.yamlfile import Document, checks
from jobtracker.yamlfile import load as load_file


def load_timezone(path: Path) -> str | None:
    """config.yaml's `timezone:` alone (an accepted interview asks for it; reading the
    whole file would need the task registry)."""
    doc = load_file(path)
    data = doc.data if isinstance(doc.data, dict) else {}
    return load(doc, data.get("timezone"))


def load(doc: Document, value: Any) -> str | None:
    if value is None:
        return None
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError  # tzdata: a few ms, only when set

    name = checks.string(doc, value, "timezone").strip()
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise doc.error(f"{name!r} is not a time zone name (IANA, such as Europe/Berlin or "
                        "America/New_York)", "timezone") from None
    return name
