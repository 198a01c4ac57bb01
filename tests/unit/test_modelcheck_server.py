"""The model check's pure parts: where a server's own endpoints live, the evaluation
set as shipped, the nearest-rank percentile, the estimate."""

from __future__ import annotations

import pytest

from jobtracker.config import LEVELS
from jobtracker.modelcheck import evalset
from jobtracker.modelcheck.evaluate import _percentile
from jobtracker.modelcheck.server import estimate_tokens, server_root
from jobtracker.tasks import ordered
from jobtracker.tasks.inbox import STATES
from jobtracker.tasks.judge import VERDICTS


@pytest.mark.parametrize(("base", "root"), [
    ("http://gpu:8080/v1", "http://gpu:8080"),
    ("http://gpu:8080/v1/", "http://gpu:8080"),
    ("https://proxy.example/llama/v1", "https://proxy.example/llama"),
    ("http://gpu:4000/openai", "http://gpu:4000"),
])
def test_props_and_tokenize_live_at_the_server_root(base: str, root: str) -> None:
    assert server_root(base) == root


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


def test_the_percentile_is_an_observed_value() -> None:
    values = [float(v) for v in range(1, 21)]
    assert _percentile(values, 0.95) == 19.0 and _percentile([3.0], 0.95) == 3.0
    assert _percentile(values, 0.5) == 10.0


def test_the_estimate_errs_towards_more_tokens() -> None:
    messages = [{"role": "system", "content": "x" * 350}, {"role": "user", "content": ""}]
    assert estimate_tokens(messages) == 100 + 16
