"""Typed events: each carries its unit's key and fields, and says how it prints."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from workers_fakes import Collect, Recorder, Step

from jobtracker.workers.events import (
    CallFinished,
    CallRetrying,
    Event,
    EventType,
    JobFailed,
    JobFinished,
    JobProgress,
    JobSkipped,
    JobStarted,
    StageFinished,
    make_event,
)
from jobtracker.workers.loop import JobLoop

AT = datetime(2026, 3, 1, 10, 41, 2, tzinfo=UTC)


def test_each_type_has_its_own_class_word_and_detail() -> None:
    unit = {"job": "Acme - SRE", "kind": "level", "key": "p1:h", "time": AT}
    cases: list[tuple[Event, str, str]] = [
        (JobStarted(**unit), "start", ""),
        (JobFinished(**unit, result="staff", elapsed=3.4), "done", "staff  0:00:03"),
        (JobFailed(**unit, error="answer off schema", phase="run"), "fail", "answer off schema"),
        (JobSkipped(**unit, elapsed=0.1), "skip", ""),
        (JobProgress(**unit, phase="asking"), "step", "asking"),
        (CallRetrying(**unit, attempt=1, attempts=3, reason="429", delay=2), "retry",
         "429  attempt 1/3  in 2.0s"),
        (CallFinished(**unit, model="m", input_tokens=8, output_tokens=2, seconds=1.2), "call",
         "m  8 in / 2 out  0:00:01"),
        (StageFinished(stage="level", finished=2, failed=1, skipped=0, elapsed=61, waiting=4),
         "end", "2 finished, 1 failed, 0 skipped in 0:01:01  4 not started"),
    ]
    for event, word, detail in cases:
        assert (event.word, event.detail()) == (word, detail), type(event).__name__
    assert {type(e).type for e, _, _ in cases} == set(EventType)


def test_the_detail_cleans_each_part_with_the_sinks_own_rule() -> None:
    event = JobFailed(error="bad\x1b[31m", kind="level")
    assert event.detail(lambda text: text.replace("\x1b", "")) == "bad[31m"


def test_the_untyped_form_builds_the_typed_event_and_keeps_unknown_keys() -> None:
    event = Event(EventType.CALL_RETRYING, "Acme", "level", {"attempt": 2, "note": "x"}, AT)
    assert isinstance(event, CallRetrying) and event.type is EventType.CALL_RETRYING
    assert event.attempt == 2 and event.extra == {"note": "x"}
    assert event.data == {"attempt": 2, "note": "x"}, "unknown fields are left out, extras kept"
    assert make_event(EventType.JOB_STARTED, key="p1:h").key == "p1:h"


def test_json_carries_the_key_inside_data_and_leaves_unknown_fields_out() -> None:
    event = JobFinished(job="Acme", kind="level", key="p1:h", result=None, elapsed=0.5, time=AT)
    assert event.to_json() == {"type": "job_finished", "job": "Acme", "kind": "level",
                               "data": {"elapsed": 0.5, "key": "p1:h"},
                               "time": "2026-03-01T10:41:02Z"}
    json.dumps(StageFinished(stage="level").to_json())


async def test_every_event_about_a_job_carries_its_key_even_from_inside_it() -> None:
    events = Collect()
    loop = JobLoop({"level": Recorder()}, concurrency=4, reporters=[events])
    loop.submit(Step("level", "k1", label="same title"))
    loop.submit(Step("level", "k2", label="same title", fail_in="run"))
    loop.submit(Step("level", "k3", label="same title", already_done=True))
    await loop.run()

    keys = {(type(e).__name__, e.key) for e in events.events if not isinstance(e, StageFinished)}
    assert keys == {("JobStarted", "k1"), ("JobProgress", "k1"), ("JobFinished", "k1"),
                    ("JobStarted", "k2"), ("JobProgress", "k2"), ("JobFailed", "k2"),
                    ("JobSkipped", "k3")}


@pytest.mark.parametrize(("step", "phase"), [("done", "done"), ("run", "run"),
                                            ("follow_ups", "follow_ups")])
async def test_a_failure_names_the_step_that_raised_as_a_field(step: str, phase: str) -> None:
    events = Collect()
    loop = JobLoop({"level": Recorder()}, concurrency=1, reporters=[events])
    loop.submit(Step("level", "k", fail_in=step))
    await loop.run()

    [failed] = events.of(EventType.JOB_FAILED)
    assert failed.phase == phase
    started = bool(events.of(EventType.JOB_STARTED))
    assert started == (phase != "done"), "a failure in done() comes before any start"
