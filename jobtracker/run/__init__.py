"""A run, in parts that each own their state.

- `setup`: a workspace's settings, loaded once per command (`Setup`, `RunOptions`).
- `queue`: what each task could do now (`TaskState`, `survey`, `choose`).
- `ledger`: the failure ledger, `task_attempts` (record, clear, set aside).
- `gate`: applying answers in the order units were listed (`InOrder`).
- `feeder`: one task's units through a run: batches, the budget, ask, parse, apply.
- `run`: the thin `Run` that wires them to the job loop, and `work()`.

The public names below are lazy (PEP 562): `jobtracker.run.load_setup` imports
`setup` alone (some 235 modules), `jobtracker.run.work` the whole run (some 470: the
model client, httpx, the task registry). A package's `__init__` runs on every import
of any of its children, so importing them here would make each light import
(`jobtracker --help`, `work --dry-run`'s setup) pay for the heavy ones.
`jobtracker.runner` is this module under its older name.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jobtracker.run.ids import now_iso, run_id
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

# Public name → the part that defines it.
_PARTS = {
    "now_iso": "ids", "run_id": "ids",
    "MAX_FAILURES": "ledger", "live_set_aside": "ledger",
    "TaskState": "queue", "choose": "queue", "survey": "queue",
    "Run": "run", "RunResult": "run", "dry_run": "run", "filtered_counts": "run",
    "queue_between_runs": "run", "rescore": "run", "work": "run",
    "RunOptions": "setup", "Setup": "setup", "load_setup": "setup",
}


def __getattr__(name: str) -> Any:
    part = _PARTS.get(name)
    if part is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{part}"), name)


def __dir__() -> list[str]:
    return sorted([*globals(), *_PARTS])


__all__ = [
    "MAX_FAILURES", "Run", "RunOptions", "RunResult", "Setup", "TaskState", "choose",
    "dry_run", "filtered_counts", "live_set_aside", "load_setup", "now_iso", "queue_between_runs",
    "rescore", "run_id", "survey", "work",
]
