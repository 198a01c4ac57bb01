"""The run's clock: the only place a run reads the wall time."""

from __future__ import annotations

import os
from datetime import UTC, datetime


def now_iso() -> str:
    """ISO 8601 UTC, to the second."""
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def run_id(now: datetime | None = None) -> str:
    """A run's folder name under runs/: its start time and the process id."""
    now = now or datetime.now(UTC)
    return f"{now:%Y%m%dT%H%M%SZ}-{os.getpid()}"
