"""What each task could do now: a state's description and the choice of task."""

from __future__ import annotations

from jobtracker.run.headless import format_queue
from jobtracker.runner import TaskState, choose


def test_set_aside_is_added_to_the_state() -> None:
    assert TaskState("judge", 20, "", pending=0, set_aside=2).describe() == \
        "nothing to do, 2 set aside"
    assert TaskState("judge", 20, "", pending=5, set_aside=1).describe() == \
        "5 pending, 1 set aside"


def test_choose_prefers_pipeline_order_and_honours_a_pin() -> None:
    states = [TaskState("level", 10, "", pending=0), TaskState("judge", 20, "", pending=3),
              TaskState("inbox", 40, "", pending=9)]
    assert choose(states).name == "judge"
    assert choose(states, "inbox").name == "inbox"
    assert choose(states, "level") is None
    assert format_queue(states[:1], None).endswith("Would work: nothing")
