"""config.yaml's `followup:` section: the days of silence before a follow-up is due
(docs/tracker.md), and the statuses an application can be at."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jobtracker.yamlfile import Document, checks

STATUSES = ("saved", "applied", "screening", "interviewing", "offer", "rejected", "withdrawn",
            "ghosted")

FOLLOWUP_DEFAULTS = {"applied": 10, "screening": 7, "interviewing": 5}
GHOSTED_AFTER = 30


@dataclass(frozen=True)
class Followup:
    """Days of silence (no employer message, no status change) before an application
    at a status is due for a follow-up; and before an open one is proposed `ghosted`."""

    days: dict[str, int] = field(default_factory=lambda: dict(FOLLOWUP_DEFAULTS))
    ghosted_after: int = GHOSTED_AFTER


def load_followup(doc: Document, raw: Any) -> Followup:
    """`followup: {applied: 10, screening: 7, interviewing: 5, ghosted_after: 30}`; a key
    given replaces that default only. Any status may have an entry."""
    given = checks.mapping(doc, raw, "followup", allowed=(*STATUSES, "ghosted_after"))
    days = dict(FOLLOWUP_DEFAULTS)
    for key, value in given.items():
        if key != "ghosted_after":
            days[key] = checks.integer(doc, value, "followup", key)
    ghosted = checks.integer(doc, given.get("ghosted_after", GHOSTED_AFTER), "followup",
                             "ghosted_after")
    return Followup(days, ghosted)
