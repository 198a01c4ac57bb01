"""A run's id: its folder's name under runs/. Also `now_iso` (jobtracker.clock's, the
time a run stores) for `jobtracker.run.now_iso`."""

from __future__ import annotations

import os
from datetime import datetime

from jobtracker.clock import now, now_iso


def run_id(moment: datetime | None = None) -> str:
    """A run's folder name under runs/: its start time and the process id."""
    moment = moment or now()
    return f"{moment:%Y%m%dT%H%M%SZ}-{os.getpid()}"


__all__ = ["now", "now_iso", "run_id"]
