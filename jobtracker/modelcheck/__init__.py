"""`jobtracker model check`: whether the configured model and server can do the work.

    server.py    what the server says: context window, tokenizer
    fit.py       the largest prompt each enabled task would send now, against it
    evalset.py   the labelled items, from the file each task's `Evaluation` names
    evaluate.py  the set (and the user's decided proposals) asked through the tasks
    report.py    the result as JSON and as an 80-column table
    adapter.py   the only module that knows the task and runner APIs
    check.py     the four parts in order

The check names no task: a task is checked by declaring its `Evaluation`
(jobtracker/tasks/base.py), and nothing here changes.
"""

from jobtracker.modelcheck.check import DEFAULT_MIN_ACCURACY, run_check
from jobtracker.modelcheck.report import CheckReport, format_text

__all__ = ["DEFAULT_MIN_ACCURACY", "CheckReport", "format_text", "run_check"]
