"""The evaluation items every checkable task declares, as shipped, and how a subset
is chosen."""

from __future__ import annotations

from jobtracker.config import LEVELS
from jobtracker.modelcheck import evalset
from jobtracker.tasks import ordered
from jobtracker.tasks.inbox import STATES
from jobtracker.tasks.judge import VERDICTS


def test_the_shipped_set_labels_every_state_and_level_with_real_labels() -> None:
    data = evalset.load(ordered())
    by_task = {t: [i for i in data.items if i.task == t] for t in ("level", "judge", "inbox")}
    assert 38 <= len(data.items) <= 45 and len({i.id for i in data.items}) == len(data.items)
    assert {i.expect for i in by_task["level"]} == set(LEVELS)
    assert {i.expect for i in by_task["inbox"]} == set(STATES)
    assert {a for i in by_task["judge"] for a in i.accepted} == set(VERDICTS)
    # Marketing mail and job alerts must come out as not_application.
    assert {"inbox-job-alert", "inbox-marketing"} <= {
        i.id for i in by_task["inbox"] if i.expect == "not_application"}
    assert "Senior backend engineer" in data.profiles["judge"]


def test_a_subset_takes_one_item_of_each_label_before_a_second_of_any() -> None:
    items = evalset.load(ordered()).for_tasks(["judge", "level"], per_task=3)
    assert [i.task for i in items] == ["judge"] * 3 + ["level"] * 3
    assert [i.expect for i in items[:2]] == ["fit", "misfit"]
    assert [i.expect for i in items[3:]] == ["intern", "junior", "mid"]
