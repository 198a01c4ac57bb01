"""The reporters' formats: plain lines, events.jsonl, and the bounded buffer."""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from workers_fakes import Recorder, Step

from jobtracker.workers.events import Event, EventType
from jobtracker.workers.loop import JobLoop
from jobtracker.workers.reporters import (
    _ASCII_PUNCTUATION,
    EventsFileReporter,
    PlainLineReporter,
    QueueReporter,
    _ascii_walk,
    ascii_line,
    hms,
    local_clock,
)

AT = datetime(2026, 3, 1, 10, 41, 2, tzinfo=UTC)
LOCAL = AT.astimezone().strftime("%H:%M:%S")
HOSTILE = "Zürich — Senior\x1b[2J\x1b]8;;http://x\x07 Eng\u0085ineer\n[b]x[/b] 東京"


def event(type: EventType, job: str = "Acme - Staff Engineer", kind: str = "level",
          **data) -> Event:
    return Event(type, job, kind, data, time=AT)


def lines(reporter_events: list[Event], verbose: bool = False) -> list[str]:
    stream = io.StringIO()
    reporter = PlainLineReporter(stream, verbose=verbose)
    for e in reporter_events:
        reporter.emit(e)
    return stream.getvalue().splitlines()


# --- plain lines ----------------------------------------------------------------------

def test_a_plain_line_is_time_word_kind_label_detail() -> None:
    assert lines([event(EventType.JOB_FINISHED, result="staff", elapsed=3.4)]) == [
        f"{LOCAL} done   level   Acme - Staff Engineer  staff  0:00:03"]
    assert lines([event(EventType.JOB_STARTED)]) == [
        f"{LOCAL} start  level   Acme - Staff Engineer"]
    assert lines([event(EventType.JOB_FAILED, error="answer off schema", elapsed=1)]) == [
        f"{LOCAL} fail   level   Acme - Staff Engineer  answer off schema"]
    assert lines([event(EventType.JOB_SKIPPED)]) == [
        f"{LOCAL} skip   level   Acme - Staff Engineer"]


def test_the_closing_line_has_the_counts_and_elapsed_as_h_mm_ss() -> None:
    stage = Event(EventType.STAGE_FINISHED, data={
        "stage": "level", "finished": 12, "failed": 1, "skipped": 3, "elapsed": 3725.2,
        "running": 0, "waiting": 0}, time=AT)

    assert lines([stage]) == [
        f"{LOCAL} end    level   12 finished, 1 failed, 3 skipped in 1:02:05"]


def test_the_closing_line_says_how_many_jobs_a_stop_left_unstarted() -> None:
    stage = Event(EventType.STAGE_FINISHED, data={
        "finished": 2, "failed": 0, "skipped": 0, "elapsed": 0.4, "waiting": 3}, time=AT)

    [line] = lines([stage])
    assert line.endswith("2 finished, 0 failed, 0 skipped in 0:00:00  3 not started")


def test_durations_use_timedelta_h_mm_ss() -> None:
    assert [hms(0.4), hms(59.6), hms(3600), hms(90061)] == [
        "0:00:00", "0:01:00", "1:00:00", "1 day, 1:01:01"]


def test_untrusted_text_becomes_one_ascii_line_with_no_control_characters() -> None:
    [line] = lines([event(EventType.JOB_FAILED, job=HOSTILE, error="bad\x1b[31m\nthing")])

    assert line.isascii()
    assert not re.search(r"[\x00-\x1f\x7f]", line)
    assert "Zurich - Senior[2J]8;;http://x Eng ineer [b]x[/b] ??" in line
    assert line.endswith("bad[31m thing")


def test_ascii_line_keeps_plain_ascii_as_it_is() -> None:
    text = "Acme (NYC) - Staff Engineer, $200k #1 100% [x] {y}"
    assert ascii_line(text) == text


def test_ascii_line_takes_the_punctuation_table_alone_only_where_the_walk_agrees() -> None:
    # The short way (the table, when that leaves printable ASCII) must give what the
    # whole walk gives: every mapped character, alone and next to what the walk treats.
    mapped = [chr(c) for c in _ASCII_PUNCTUATION]
    others = ["", "a", " ", "\n", "\t", "\r\n", "\x1b", "\x07", "\x85", "\u2028", "\x7f", "ü",
              "e\u0301", "東", "\u00ad", "\ufeff", "ﬁ"]
    for mark in mapped:
        for other in others:
            for text in (f"Acme {mark} Engineer{other}", f"{other}{mark}", f"{mark}{other}x"):
                assert ascii_line(text) == _ascii_walk(text), repr(text)
    assert ascii_line("Acme \u2014 \u201cStaff\u201d Engineer\u2026") == (
        'Acme - "Staff" Engineer...')


def test_the_clock_of_a_second_is_written_once_per_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    early, late = AT.replace(microsecond=1), AT.replace(microsecond=999_999)
    try:
        for zone, expected in (("UTC", "10:41:02"), ("Asia/Tokyo", "19:41:02"),
                               ("America/New_York", "05:41:02"), ("UTC", "10:41:02")):
            monkeypatch.setenv("TZ", zone)
            time.tzset()
            assert [local_clock(early), local_clock(late)] == [expected, expected]
            assert local_clock(AT.replace(second=3)) == expected[:-1] + "3"
    finally:
        monkeypatch.undo()
        time.tzset()


def test_call_retries_always_show_and_per_call_detail_only_when_verbose() -> None:
    retry = event(EventType.CALL_RETRYING, attempt=2, attempts=3, reason="429", delay=2)
    call = event(EventType.CALL_FINISHED, model="qwen3:8b", input_tokens=812,
                 output_tokens=9, seconds=1.2)
    step = event(EventType.JOB_PROGRESS, phase="asking")

    quiet = lines([retry, call, step])
    loud = lines([retry, call, step], verbose=True)

    assert quiet == [f"{LOCAL} retry  level   Acme - Staff Engineer  429  attempt 2/3  in 2.0s"]
    assert loud[1:] == [
        f"{LOCAL} call   level   Acme - Staff Engineer  qwen3:8b  812 in / 9 out  0:00:01",
        f"{LOCAL} step   level   Acme - Staff Engineer  asking"]


def test_each_line_is_flushed_as_it_happens(tmp_path: Path) -> None:
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)
    # A big buffer, so only a flush gets the line into the pipe before close.
    with open(write_end, "w", buffering=1 << 16) as stream:
        PlainLineReporter(stream).emit(event(EventType.JOB_STARTED))
        arrived = os.read(read_end, 4096).decode()
    os.close(read_end)
    assert arrived.startswith(f"{LOCAL} start")


def test_the_default_stream_is_stdout_at_construction_time(capsys) -> None:
    PlainLineReporter().emit(event(EventType.JOB_SKIPPED))
    assert capsys.readouterr().out.startswith(f"{LOCAL} skip")


# --- events.jsonl -----------------------------------------------------------------------

def test_events_file_has_one_json_object_per_line_with_the_contract_keys(tmp_path: Path) -> None:
    path = tmp_path / "runs" / "r1" / "events.jsonl"
    with EventsFileReporter(path) as reporter:
        reporter.emit(event(EventType.JOB_STARTED, job=HOSTILE))
        reporter.emit(event(EventType.CALL_FINISHED, model="m", input_tokens=5,
                            output_tokens=2))
        # Flushed per line: readable while the file is still open.
        first, second = [json.loads(x) for x in path.read_text().splitlines()]

    assert list(first) == ["time", "type", "job", "kind", "data"]
    assert first == {"time": "2026-03-01T10:41:02Z", "type": "job_started", "job": HOSTILE,
                     "kind": "level", "data": {}}
    assert datetime.fromisoformat(first["time"]).utcoffset().total_seconds() == 0
    assert second["data"] == {"model": "m", "input_tokens": 5, "output_tokens": 2}
    raw = path.read_text()
    assert raw.isascii() and "\x1b" not in raw     # escaped: cat can't replay a sequence


def test_events_file_appends_and_never_writes_what_looks_like_a_secret(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    path.write_text('{"earlier": true}\n')
    with EventsFileReporter(path) as reporter:
        reporter.emit(event(EventType.CALL_RETRYING, reason="401",
                            headers={"Authorization": "Bearer sk-123", "accept": "json"},
                            api_key="sk-456", note="Bearer sk-789", output_tokens=3))

    text = path.read_text()
    assert text.startswith('{"earlier": true}\n')
    assert "sk-" not in text
    data = json.loads(text.splitlines()[1])["data"]
    assert data["headers"] == {"Authorization": "[redacted]", "accept": "json"}
    assert data["output_tokens"] == 3          # a token *count* is not a secret


def test_events_file_redacts_flat_data_as_it_does_nested_data(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    with EventsFileReporter(path) as reporter:
        reporter.emit(event(EventType.CALL_RETRYING, reason="401", password="hunter2"))
        reporter.emit(event(EventType.CALL_RETRYING, reason="401", note=" bearer abc"))
        reporter.emit(event(EventType.CALL_RETRYING, reason="401", attempt=1))

    first, second, third = [json.loads(x)["data"] for x in path.read_text().splitlines()]
    assert first == {"reason": "401", "password": "[redacted]"}
    assert second == {"reason": "401", "note": "[redacted]"}
    assert third == {"reason": "401", "attempt": 1}


async def test_a_run_writes_every_job_event_and_the_stage_counts(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    with EventsFileReporter(path) as reporter:
        loop = JobLoop({"level": Recorder()}, concurrency=2, reporters=[reporter])
        loop.submit(Step("level", "a", label="A", result="staff"))
        loop.submit(Step("level", "b", label="B", already_done=True))
        loop.submit(Step("level", "c", label="C", fail_in="run"))
        await loop.run()

    records = [json.loads(x) for x in path.read_text().splitlines()]
    types = [(r["type"], r["job"]) for r in records if r["type"] != "job_progress"]
    assert sorted(types[:-1]) == sorted([
        ("job_started", "A"), ("job_finished", "A"), ("job_skipped", "B"),
        ("job_started", "C"), ("job_failed", "C")])
    stage = records[-1]
    assert stage["type"] == "stage_finished"
    assert (stage["data"]["finished"], stage["data"]["failed"], stage["data"]["skipped"]) == (
        1, 1, 1)


# --- the bounded buffer -----------------------------------------------------------------

def test_a_full_buffer_drops_the_oldest_and_counts_what_it_dropped() -> None:
    buffer = QueueReporter(maxlen=100)
    for i in range(10_000):
        buffer.emit(event(EventType.JOB_PROGRESS, job=f"j{i}"))

    assert buffer.dropped == 9_900
    first = buffer.drain(limit=30)
    rest = buffer.drain()
    assert [e.job for e in first + rest] == [f"j{i}" for i in range(9_900, 10_000)]
    assert len(first) == 30 and buffer.drain() == []


async def test_a_slow_consumer_never_slows_the_loop() -> None:
    buffer = QueueReporter(maxlen=50)
    loop = JobLoop({"level": Recorder()}, concurrency=8, reporters=[buffer])
    for i in range(2_000):
        loop.submit(Step("level", f"k{i}", label=f"k{i}"))

    seen: list[Event] = []
    consumer = asyncio.create_task(slow_consumer(buffer, seen))
    outcomes = await asyncio.wait_for(loop.run(), 5)
    assert len(outcomes) == 2_000       # the loop finished long before the consumer could read
    async with asyncio.timeout(5):
        while seen[-1:] == [] or seen[-1].type is not EventType.STAGE_FINISHED:
            await asyncio.sleep(0.01)
    consumer.cancel()

    assert buffer.dropped > 0
    # started, progress and finished per job, plus the stage: each seen or counted dropped.
    assert len(seen) + buffer.dropped == 2_000 * 3 + 1


async def slow_consumer(buffer: QueueReporter, seen: list[Event]) -> None:
    """Reads a small batch, then redraws for a while, like a UI would."""
    while True:
        seen.extend(await buffer.next_batch(limit=10))
        await asyncio.sleep(0.01)


def test_events_file_on_a_full_disk_raises_from_emit_and_closes_quietly(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    path.symlink_to("/dev/full")     # every write fails with ENOSPC, as a full disk does
    reporter = EventsFileReporter(path)
    assert reporter.name == str(path)
    with pytest.raises(OSError) as raised:
        reporter.emit(event(EventType.JOB_STARTED))
    assert raised.value.errno == 28
    reporter.close()   # the unwritten line was already reported: closing does not raise again
