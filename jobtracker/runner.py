"""`jobtracker.runner` is `jobtracker.run` under its older name: the same module object,
so its public names are the run's, each imported when first asked for (PEP 562, in
jobtracker/run/__init__.py). The command line, the TUI and tests import either."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from jobtracker import run

if TYPE_CHECKING:     # what the type checker reads; at run time the names are run's
    from jobtracker.run import (
        MAX_FAILURES,
        Run,
        RunOptions,
        RunResult,
        Setup,
        TaskState,
        choose,
        dry_run,
        filtered_counts,
        live_set_aside,
        load_setup,
        now_iso,
        queue_between_runs,
        rescore,
        run_id,
        survey,
        work,
    )

    __all__ = [
        "MAX_FAILURES", "Run", "RunOptions", "RunResult", "Setup", "TaskState", "choose",
        "dry_run", "filtered_counts", "live_set_aside", "load_setup", "now_iso",
        "queue_between_runs", "rescore", "run_id", "survey", "work",
    ]

sys.modules[__name__] = run
