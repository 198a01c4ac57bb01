"""The run's clock: the time it stores (`now_iso`, from jobtracker.clock) and its id."""

from __future__ import annotations

import os
from datetime import datetime

from jobtracker.clock import now, now_iso


def run_id(moment: datetime | None = None) -> str:
    """A run's folder name under runs/: its start time and the process id."""
    moment = moment or now()
    return f"{moment:%Y%m%dT%H%M%SZ}-{os.getpid()}"


__all__ = ["now", "now_iso", "run_id"]
