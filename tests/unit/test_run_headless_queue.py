"""The queue as work --dry-run prints it."""

from __future__ import annotations

from jobtracker.run.headless import format_queue
from jobtracker.runner import TaskState, choose

STATES = [
    TaskState("level", 10, "read descriptions to settle UNCERTAIN postings", pending=2314),
    TaskState("judge", 20, "judge open matches against profile.yaml"),
    TaskState("inbox", 40, "read replies from employers and propose updates",
              reason="no maildir configured"),
]


def test_queue_layout_matches_the_contract() -> None:
    assert format_queue(STATES, choose(STATES)) == "\n".join([
        "Task queue, in the order the scheduler considers it:",
        "",
        "   10  level      2,314 pending",
        "                  read descriptions to settle UNCERTAIN postings",
        "   20  judge      nothing to do",
        "                  judge open matches against profile.yaml",
        "   40  inbox      unavailable — no maildir configured",
        "                  read replies from employers and propose updates",
        "",
        "Would work: level (2314 unit(s))",
    ])


def test_queue_columns_widen_for_a_task_name_longer_than_ten_characters() -> None:
    states = [*STATES, TaskState("coverletter", 60, "draft cover letters", pending=3)]
    lines = format_queue(states, None).splitlines()
    # Every state starts in one column, and every summary in the column after the names.
    state_at = {line.index(word) for line, word in zip(
        lines[2:10:2], ["2,314", "nothing", "unavailable", "3 pending"], strict=True)}
    summary_at = {len(line) - len(line.lstrip()) for line in lines[3:11:2]}
    assert state_at == summary_at == {len("   60  coverletter ")}
