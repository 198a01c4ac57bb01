"""A run's id: its folder under runs/, named by its start time and process."""

from __future__ import annotations

import os
from datetime import UTC, datetime

from jobtracker.run.ids import run_id


def test_a_run_id_is_the_start_time_in_utc_and_the_process_id() -> None:
    moment = datetime(2026, 11, 30, 20, 41, 59, tzinfo=UTC)
    assert run_id(moment) == f"20261130T204159Z-{os.getpid()}"
    # Sorted by name, run folders are in the order the runs started.
    assert run_id(moment) < run_id(datetime(2026, 12, 1, 0, 0, 0, tzinfo=UTC))
