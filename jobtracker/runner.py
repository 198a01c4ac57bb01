"""The runner's public names, for the command line, the TUI and tests.

The run itself lives in `jobtracker/run/`, in parts that each own their state
(see that package's docstring); this module only gathers their public names.

Why it is a module of its own and not `jobtracker/run/__init__.py`: importing it
loads the whole run (about 470 modules: the model client, httpx, the task
registry), while `jobtracker.run.setup` alone loads about 235. A package's
`__init__` runs on every import of any of its children, so gathering the names
there would make each light import (`jobtracker --help`, `work --dry-run`'s setup)
pay for the heavy ones. Keep it here.
"""

from __future__ import annotations

from jobtracker.run.clock import now_iso, run_id
from jobtracker.run.ledger import MAX_FAILURES, live_set_aside
from jobtracker.run.queue import TaskState, choose, survey
from jobtracker.run.run import (
    Run,
    RunResult,
    dry_run,
    filtered_counts,
    queue_between_runs,
    rescore,
    work,
)
from jobtracker.run.setup import RunOptions, Setup, load_setup

__all__ = [
    "MAX_FAILURES", "Run", "RunOptions", "RunResult", "Setup", "TaskState", "choose",
    "dry_run", "filtered_counts", "live_set_aside", "load_setup", "now_iso", "queue_between_runs",
    "rescore", "run_id", "survey", "work",
]
