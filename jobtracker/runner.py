"""The runner's public names, for the command line, the TUI and tests.

The run itself lives in `jobtracker/run/`, in parts that each own their state
(see that package's docstring); this module only gathers their public names.
"""

from __future__ import annotations

from jobtracker.run.clock import now_iso, run_id
from jobtracker.run.ledger import MAX_FAILURES, live_set_aside
from jobtracker.run.queue import TaskState, choose, survey
from jobtracker.run.run import Run, RunResult, dry_run, queue_between_runs, rescore, work
from jobtracker.run.setup import RunOptions, Setup, load_setup

__all__ = [
    "MAX_FAILURES", "Run", "RunOptions", "RunResult", "Setup", "TaskState", "choose",
    "dry_run", "live_set_aside", "load_setup", "now_iso", "queue_between_runs",
    "rescore", "run_id", "survey", "work",
]
