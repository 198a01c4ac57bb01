"""The job loop's rules, each shown with the smallest set of jobs that exhibits it."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from workers_fakes import Collect, Recorder, Step, wait_until

from jobtracker.workers.events import Event, EventType
from jobtracker.workers.job import Status
from jobtracker.workers.loop import JobLoop

KINDS = ("level", "judge", "inbox")


def make_loop(recorder: Recorder, **kwargs) -> JobLoop:
    kwargs.setdefault("concurrency", 4)
    return JobLoop(dict.fromkeys(KINDS, recorder), **kwargs)


def by_key(outcomes) -> dict[str, object]:
    return {o.job.key: o for o in outcomes}


# --- skip-on-done and follow-ups ----------------------------------------------

async def test_a_done_job_is_skipped_but_still_hands_on_its_follow_ups() -> None:
    recorder = Recorder()
    judge = Step("judge", "j1").to_json()
    loop = make_loop(recorder)
    loop.submit(Step("level", "l1", already_done=True, then=[judge]))

    outcomes = by_key(await loop.run())

    assert outcomes["l1"].status is Status.SKIPPED
    assert outcomes["j1"].status is Status.FINISHED
    assert recorder.ran == {"j1": 1}      # run() never called for the done job


async def test_follow_ups_run_in_the_same_run_down_a_chain() -> None:
    recorder = Recorder()
    third = Step("inbox", "c").to_json()
    second = Step("judge", "b", then=[third]).to_json()
    loop = make_loop(recorder)
    loop.submit(Step("level", "a", then=[second]))

    outcomes = await loop.run()

    assert [o.job.key for o in outcomes] == ["a", "b", "c"]
    assert all(o.status is Status.FINISHED for o in outcomes)


async def test_a_failed_job_hands_on_nothing() -> None:
    recorder = Recorder()
    loop = make_loop(recorder)
    loop.submit(Step("level", "a", fail_in="run", then=[Step("judge", "b").to_json()]))

    outcomes = await loop.run()

    assert [(o.job.key, o.status) for o in outcomes] == [("a", Status.FAILED)]


async def test_follow_ups_get_the_result_label_of_the_job_that_made_them() -> None:
    seen: list[str | None] = []

    class Labels(Recorder):
        async def follow_ups(self, job, result):
            seen.append(result)
            return []

    loop = JobLoop({"level": Labels()}, concurrency=1)
    loop.submit(Step("level", "a", result="staff"))
    loop.submit(Step("level", "b", already_done=True))
    await loop.run()

    assert seen == ["staff", None]


# --- caps ------------------------------------------------------------------------

async def test_per_kind_caps_hold_under_the_global_cap_and_every_slot_is_used() -> None:
    recorder = Recorder()
    loop = make_loop(recorder, concurrency=4, caps={"level": 2, "judge": 3})
    for i in range(3):      # long: two hold level's cap, then one leaves judge room for 3
        loop.submit(Step("level", f"l{i}", sleep=0.03))
    for i in range(12):
        loop.submit(Step("judge", f"j{i}", sleep=0.01))

    outcomes = await loop.run()

    assert len(outcomes) == 15
    assert recorder.peak["level"] == 2
    assert recorder.peak["judge"] == 3
    assert recorder.peak["*"] == 4


async def test_the_global_cap_alone_bounds_all_kinds_together() -> None:
    recorder = Recorder()
    loop = make_loop(recorder, concurrency=3)
    for i in range(10):
        loop.submit(Step(KINDS[i % 3], f"k{i}", sleep=0.01))

    await loop.run()

    assert recorder.peak["*"] == 3


@pytest.mark.parametrize("unlimited", [None, 0])
async def test_no_cap_means_every_job_runs_at_once(unlimited: int | None) -> None:
    recorder = Recorder()
    loop = make_loop(recorder, concurrency=unlimited, caps={"level": unlimited})
    for i in range(25):
        loop.submit(Step("level", f"l{i}", sleep=0.02))

    await loop.run()

    assert recorder.peak["level"] == 25


# --- admission order ----------------------------------------------------------------

async def test_waiting_jobs_are_admitted_by_kind_priority_then_submission_order() -> None:
    recorder = Recorder()
    loop = make_loop(recorder, concurrency=1, priorities={"level": 10, "judge": 20, "inbox": 40})
    for key in ["i1", "j1", "l1", "j2", "i2", "l2", "j3"]:
        kind = {"i": "inbox", "j": "judge", "l": "level"}[key[0]]
        loop.submit(Step(kind, key))

    await loop.run()

    assert recorder.started == ["l1", "l2", "j1", "j2", "j3", "i1", "i2"]


async def test_a_follow_up_of_a_more_urgent_kind_goes_ahead_of_waiting_jobs() -> None:
    recorder = Recorder()
    loop = make_loop(recorder, concurrency=1, priorities={"level": 10, "judge": 20})
    loop.submit(Step("judge", "j1", then=[Step("level", "l-from-j1").to_json()]))
    loop.submit(Step("judge", "j2"))

    await loop.run()

    assert recorder.started == ["j1", "l-from-j1", "j2"]


async def test_a_kind_at_its_cap_does_not_block_another_kind_behind_it() -> None:
    recorder = Recorder()
    loop = make_loop(recorder, concurrency=2, caps={"level": 1},
                     priorities={"level": 10, "judge": 20})
    first = recorder.gate("l1")
    loop.submit(Step("level", "l1"))
    loop.submit(Step("level", "l2"))     # waits for level's only slot
    loop.submit(Step("judge", "j1"))     # must take the free global slot meanwhile
    runner = asyncio.create_task(loop.run())

    await wait_until(lambda: "j1" in recorder.started)
    assert recorder.started == ["l1", "j1"]
    first.set()
    await runner
    assert recorder.started == ["l1", "j1", "l2"]


# --- failures -----------------------------------------------------------------------

@pytest.mark.parametrize(("step", "expected"), [
    ("done", "done(): OSError: cannot read the store"),
    ("run", "ValueError: answer off schema for bad"),
    ("follow_ups", "follow_ups(): KeyError: 'posting 7'"),
])
async def test_an_error_in_any_step_is_that_jobs_one_failed_outcome(step: str,
                                                                    expected: str) -> None:
    recorder = Recorder()
    events = Collect()
    loop = make_loop(recorder, concurrency=2, reporters=[events])
    loop.submit(Step("level", "bad", fail_in=step, then=[Step("judge", "x").to_json()]))
    for i in range(5):
        loop.submit(Step("level", f"ok{i}", sleep=0.005))

    outcomes = await loop.run()

    failed = [o for o in outcomes if o.status is Status.FAILED]
    assert [(o.job.key, o.error) for o in failed] == [("bad", expected)]
    assert sum(o.status is Status.FINISHED for o in outcomes) == 5
    assert len(outcomes) == 6                          # one outcome per job, nothing more
    assert [e.data["error"] for e in events.of(EventType.JOB_FAILED)] == [expected]
    assert loop.counts["failed"] == 1 and loop.counts["finished"] == 5


async def test_a_failed_job_is_never_run_again_in_the_same_loop() -> None:
    recorder = Recorder()
    loop = make_loop(recorder)
    assert loop.submit(Step("level", "bad", fail_in="run"))
    await loop.run()

    assert not loop.submit(Step("level", "bad", fail_in="run"))  # re-listed: refused
    assert await loop.run() == []
    assert recorder.ran["bad"] == 1


async def test_the_same_key_submitted_twice_runs_once() -> None:
    recorder = Recorder()
    loop = make_loop(recorder)
    assert loop.submit(Step("level", "a"))
    assert not loop.submit(Step("level", "a"))
    assert loop.submit(Step("judge", "a"))   # keys are unique within a kind only

    assert len(await loop.run()) == 2


async def test_a_failure_message_is_one_short_line() -> None:
    class Loud(Recorder):
        async def run(self, job):
            raise RuntimeError("line one\nline two\r\n" + "x" * 500)

    loop = JobLoop({"level": Loud()}, concurrency=1)
    loop.submit(Step("level", "a"))
    [outcome] = await loop.run()

    assert outcome.error.startswith("RuntimeError: line one line two x")
    assert "\n" not in outcome.error and len(outcome.error) <= 200


async def test_a_stray_cancelled_error_inside_a_job_is_a_failure_not_a_cancel() -> None:
    class Stray(Recorder):
        async def run(self, job):
            inner = asyncio.create_task(asyncio.sleep(10))
            inner.cancel()
            await inner                 # raises CancelledError nobody asked this job for

    loop = JobLoop({"level": Stray()}, concurrency=2)
    loop.submit(Step("level", "a"))
    loop.submit(Step("level", "b"))
    outcomes = await loop.run()

    assert [o.status for o in outcomes] == [Status.FAILED, Status.FAILED]
    assert outcomes[0].error == "CancelledError"


async def test_submitting_a_kind_without_a_handler_is_refused_at_once() -> None:
    loop = make_loop(Recorder())
    with pytest.raises(ValueError, match="no handler for job kind 'tailor'"):
        loop.submit(Step("tailor", "a"))


async def test_a_follow_up_of_an_unknown_kind_fails_the_job_that_made_it() -> None:
    loop = make_loop(Recorder())
    loop.submit(Step("level", "a", then=[Step("tailor", "t").to_json()]))
    [outcome] = await loop.run()

    assert outcome.status is Status.FAILED
    assert "unknown kind ['tailor']" in outcome.error


# --- jobs are plain data --------------------------------------------------------------

async def test_a_job_survives_a_json_round_trip_and_the_copy_runs_the_same() -> None:
    original = Step("level", "l1", label="Acme — Staff Engineer", sleep=0.001, result="staff",
                    then=[Step("judge", "j1", result="strong").to_json()])
    copy = Step.from_json(json.loads(json.dumps(original.to_json())))
    assert copy == original

    results = []
    for job in (original, copy):
        loop = make_loop(Recorder())
        loop.submit(job)
        results.append([(o.job, o.status, o.result) for o in await loop.run()])

    assert results[0] == results[1]
    assert [r[2] for r in results[1]] == ["staff", "strong"]


# --- pause, stop, cancel --------------------------------------------------------------

async def test_pause_starts_nothing_new_and_resume_carries_on() -> None:
    recorder = Recorder()
    loop = make_loop(recorder, concurrency=1)
    gate = recorder.gate("a")
    for key in "abc":
        loop.submit(Step("level", key))
    runner = asyncio.create_task(loop.run())
    await wait_until(lambda: recorder.started == ["a"])

    loop.pause()
    gate.set()
    await wait_until(lambda: loop.counts["finished"] == 1)
    await asyncio.sleep(0.02)
    assert recorder.started == ["a"]                      # the in-flight job finished...
    assert loop.counts["waiting"] == 2 and not runner.done()  # ...and nothing new started

    loop.resume()
    outcomes = await asyncio.wait_for(runner, 2)
    assert [o.job.key for o in outcomes] == ["a", "b", "c"]


async def test_stop_lets_in_flight_jobs_end_and_starts_nothing_more() -> None:
    recorder = Recorder()
    events = Collect()
    loop = make_loop(recorder, concurrency=2, reporters=[events])
    for key in "abcde":
        loop.submit(Step("level", key, sleep=0.02))
    runner = asyncio.create_task(loop.run())
    await wait_until(lambda: len(recorder.started) == 2)

    loop.stop()
    outcomes = await asyncio.wait_for(runner, 2)

    assert [o.job.key for o in outcomes] == ["a", "b"]
    assert all(o.status is Status.FINISHED for o in outcomes)
    assert recorder.started == ["a", "b"]
    [stage] = events.of(EventType.STAGE_FINISHED)
    assert stage.data["finished"] == 2 and stage.data["waiting"] == 3


async def test_cancelling_run_cancels_in_flight_jobs_and_counts_none_of_them() -> None:
    recorder = Recorder()
    events = Collect()
    loop = make_loop(recorder, concurrency=3, reporters=[events])
    loop.submit(Step("level", "quick", label="quick"))
    for key in ("slow1", "slow2", "slow3"):
        recorder.gate(key)                        # never opened: they hang until cancelled
        loop.submit(Step("level", key, label=key))
    runner = asyncio.create_task(loop.run())
    await wait_until(lambda: len(recorder.started) == 4 and len(loop.in_flight) == 3)

    runner.cancel()
    with pytest.raises(asyncio.CancelledError):
        await runner

    assert sorted(recorder.cancelled) == ["slow1", "slow2", "slow3"]
    assert loop.in_flight == []
    assert loop.counts == {"finished": 1, "failed": 0, "skipped": 0, "running": 0,
                           "waiting": 0}
    terminal = {EventType.JOB_FINISHED, EventType.JOB_FAILED, EventType.JOB_SKIPPED}
    assert [e.job for e in events.events if e.type in terminal] == ["quick"]
    assert events.events[-1].type is EventType.STAGE_FINISHED
    assert loop.submit(Step("level", "later"))      # queued, but a cancelled loop is stopped
    assert await asyncio.wait_for(loop.run(), 1) == []
    assert recorder.ran["later"] == 0
    assert not any(t for t in asyncio.all_tasks() if t is not asyncio.current_task()
                   and "_run_one" in repr(t))


# --- events -------------------------------------------------------------------------

async def test_report_inside_a_handler_carries_that_jobs_label_under_concurrency() -> None:
    recorder = Recorder()
    events = Collect()
    loop = make_loop(recorder, concurrency=16, reporters=[events])
    rng = random.Random(4)
    for i in range(200):
        loop.submit(Step(KINDS[i % 3], f"k{i}", label=f"posting {i}", sleep=rng.random() / 100))

    await loop.run()

    progress = events.of(EventType.JOB_PROGRESS)
    assert len(progress) == 200
    for event in progress:
        assert event.data["phase"] == f"asking k{event.job.removeprefix('posting ')}"
        assert event.kind == KINDS[int(event.job.removeprefix("posting ")) % 3]


async def test_each_job_emits_started_then_one_ending_and_the_stage_its_counts() -> None:
    recorder = Recorder()
    events = Collect()
    loop = make_loop(recorder, reporters=[events], stage="level")
    loop.submit(Step("level", "a", label="A", result="staff", sleep=0.01))
    loop.submit(Step("level", "b", label="B", already_done=True))
    loop.submit(Step("level", "c", label="C", fail_in="run"))

    await loop.run()

    kinds_of = {label: [e.type for e in events.events if e.job == label] for label in "ABC"}
    assert kinds_of["A"] == [EventType.JOB_STARTED, EventType.JOB_PROGRESS,
                             EventType.JOB_FINISHED]
    assert kinds_of["B"] == [EventType.JOB_SKIPPED]
    assert kinds_of["C"] == [EventType.JOB_STARTED, EventType.JOB_PROGRESS,
                             EventType.JOB_FAILED]
    [done] = events.of(EventType.JOB_FINISHED)
    assert done.data["result"] == "staff" and done.data["elapsed"] >= 0.01
    stage = events.events[-1]
    assert stage.type is EventType.STAGE_FINISHED and stage.job == "" and stage.kind == ""
    assert {k: stage.data[k] for k in ("stage", "finished", "failed", "skipped")} == {
        "stage": "level", "finished": 1, "failed": 1, "skipped": 1}
    assert stage.data["elapsed"] >= 0.01
    json.dumps([e.to_json() for e in events.events])   # every event is JSON-safe


async def test_a_reporter_that_raises_is_dropped_and_recorded_and_the_run_goes_on() -> None:
    class Broken:
        def emit(self, event: Event) -> None:
            raise BrokenPipeError("stdout closed")

    broken, events = Broken(), Collect()
    loop = make_loop(Recorder(), reporters=[broken, events])
    for i in range(5):
        loop.submit(Step("level", f"k{i}"))

    outcomes = await loop.run()

    assert len(outcomes) == 5
    assert len(events.of(EventType.JOB_FINISHED)) == 5   # the healthy reporter saw all
    assert [(r, type(e)) for r, e in loop.reporter_errors] == [(broken, BrokenPipeError)]


async def test_in_flight_and_counts_show_live_state() -> None:
    recorder = Recorder()
    loop = make_loop(recorder, concurrency=2)
    for key in "abc":
        recorder.gate(key)
        loop.submit(Step("level", key))
    assert loop.counts["waiting"] == 3
    runner = asyncio.create_task(loop.run())
    await wait_until(lambda: len(recorder.started) == 2)

    assert [j.key for j in loop.in_flight] == ["a", "b"]
    assert loop.counts == {"finished": 0, "failed": 0, "skipped": 0, "running": 2,
                           "waiting": 1}
    for gate in recorder.gates.values():
        gate.set()
    await runner
    assert loop.counts["finished"] == 3 and loop.in_flight == []


async def test_run_with_nothing_submitted_returns_at_once() -> None:
    events = Collect()
    loop = make_loop(Recorder(), reporters=[events])
    assert await asyncio.wait_for(loop.run(), 1) == []
    assert [e.type for e in events.events] == [EventType.STAGE_FINISHED]


async def test_a_reporter_that_raises_is_said_once_on_stderr_with_the_reason(
        capsys: pytest.CaptureFixture[str]) -> None:
    class Full:
        name = "runs/r1/events.jsonl"

        def emit(self, event: Event) -> None:
            raise OSError(28, "No space left on device")

    loop = make_loop(Recorder(), reporters=[Full(), Collect()])
    for i in range(20):
        loop.submit(Step("level", f"k{i}"))

    await loop.run()

    err = capsys.readouterr().err.splitlines()
    assert err == ["jobtracker: events to runs/r1/events.jsonl stopped "
                   "(OSError: [Errno 28] No space left on device); the run goes on"]
    assert loop.reporter_error_lines == [
        "events to runs/r1/events.jsonl stopped (OSError: [Errno 28] No space left on device)"]


async def test_each_failing_reporter_is_said_once_and_a_caller_may_say_it_elsewhere() -> None:
    class Broken:
        def emit(self, event: Event) -> None:
            raise BrokenPipeError("stdout closed")

    told: list[str] = []
    loop = make_loop(Recorder(), reporters=[Broken(), Broken()],
                     on_reporter_error=lambda reporter, exc: told.append(str(exc)))
    loop.submit(Step("level", "a"))
    loop.submit(Step("level", "b"))

    await loop.run()

    assert told == ["stdout closed", "stdout closed"]
    assert loop.reporter_error_lines == ["events to Broken stopped (BrokenPipeError: stdout "
                                         "closed)"] * 2
