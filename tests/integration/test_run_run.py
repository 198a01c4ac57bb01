"""The runner end to end: `jobtracker work` against a real model server on loopback."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from jobtracker import runner
from jobtracker.cli import main
from jobtracker.tasks import Unit
from jobtracker.telemetry import Telemetry
from jobtracker.workspace import Workspace
from tests import run_world
from tests.db import raw_connect
from tests.run_world import answer_level, dump, ledger, make_workspace, readings, work
from tests.servers.model import Fault, ModelServer

# The shared fixtures, bound here by name so that pytest finds them in this file.
server = run_world.server
short_backoff = run_world.short_backoff


def test_dry_run_prints_the_queue_and_changes_nothing(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    ws = make_workspace(tmp_path, None, postings=3)
    before = dump(ws)
    capsys.readouterr()
    assert work(ws, "--dry-run") == 0
    out = capsys.readouterr().out
    assert out.splitlines()[:4] == [
        "Task queue, in the order the scheduler considers it:",
        "",
        "   10  level      3 pending",
        "                  read descriptions to settle UNCERTAIN postings",
    ]
    assert out.rstrip().endswith("Would work: level (3 unit(s))")
    assert readings(ws) == {}
    assert dump(ws) == before


def test_no_model_prints_the_queue_and_exits_zero(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    ws = make_workspace(tmp_path, "http://127.0.0.1:9", postings=2)
    assert work(ws) == 0
    out = capsys.readouterr().out
    assert "unavailable — model server at http://127.0.0.1:9/v1" in out
    assert "Nothing was changed" in out
    assert readings(ws) == {}


def test_work_drains_level_and_writes_events(tmp_path: Path, server: ModelServer,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    ws = make_workspace(tmp_path, server.url, postings=12)
    assert work(ws) == 0
    assert readings(ws) == dict.fromkeys(range(1, 13), "senior")
    out = capsys.readouterr().out
    assert "12 finished, 0 failed, 0 skipped in 0:00:" in out.splitlines()[-1]
    (run_dir,) = list(ws.runs.iterdir())
    events = [json.loads(line) for line in (run_dir / "events.jsonl").read_text().splitlines()]
    types = [e["type"] for e in events]
    assert types.count("job_finished") == 12
    calls = [e for e in events if e["type"] == "call_finished"]
    assert len(calls) == 12
    assert calls[0]["kind"] == "level" and calls[0]["data"]["output_tokens"] > 0
    assert all(set(e) == {"time", "type", "job", "kind", "data"} for e in events)
    (stage,) = [e for e in events if e["type"] == "stage_finished"]
    assert stage["data"]["stage"] == "level"
    assert (stage["data"]["finished"], stage["data"]["failed"]) == (12, 0)
    # A second run finds nothing to do and asks nothing.
    asked = server.chat_count
    assert work(ws) == 0
    assert server.chat_count == asked


def test_budget_caps_the_units(tmp_path: Path, server: ModelServer) -> None:
    ws = make_workspace(tmp_path, server.url, postings=10)
    assert work(ws, "--budget", "3") == 0
    assert len(readings(ws)) == 3
    assert server.chat_count == 3


@pytest.mark.usefixtures("short_backoff")
def test_every_unit_failing_exits_1(tmp_path: Path, server: ModelServer,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    ws = make_workspace(tmp_path, server.url, postings=2)
    server.rule(lambda body: True, Fault.raw("<html>oops</html>", status=200))
    assert work(ws) == 1
    lines = capsys.readouterr().out.splitlines()
    assert sum(" fail " in line for line in lines) == 2
    assert "0 finished, 2 failed" in lines[-1]
    assert readings(ws) == {}


def test_a_second_run_is_told_who_holds_the_workspace(tmp_path: Path, server: ModelServer,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from jobtracker.lease import Lease

    ws = make_workspace(tmp_path, server.url, postings=1)
    with Lease(ws.lock):
        assert work(ws) == 0
    out = capsys.readouterr().out
    assert f"another run holds the workspace: process {os.getpid()}" in out
    assert readings(ws) == {}


def test_units_round_trip_through_json_and_the_copy_runs(tmp_path: Path,
                                                         server: ModelServer) -> None:
    import asyncio

    from jobtracker import store
    from jobtracker.tasks import REGISTRY

    ws = make_workspace(tmp_path, server.url, postings=3)
    setup = runner.load_setup(ws)

    async def round_trip() -> list[Unit]:
        async with store.connect(ws.db) as conn:
            units = await REGISTRY["level"].pending(conn, setup.context(runner.now_iso()))
        return [Unit.from_json(json.loads(json.dumps(u.to_json()))) for u in units]

    copies = asyncio.run(round_trip())
    assert [c.unit_key for c in copies] == [f"p{i}:{_hash(ws, i)}" for i in (3, 2, 1)]
    assert runner.work  # the copies carry everything the prompt needs:
    request = REGISTRY["level"].request(copies[0], setup.context("t"))
    assert "Posting 3:" in request.messages[1]["content"]
    assert asyncio.run(runner.work(setup, runner.RunOptions())).counts["finished"] == 3


def test_telemetry_spans_nest_units_under_the_task_run(tmp_path: Path,
                                                      server: ModelServer) -> None:
    import asyncio

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    ws = make_workspace(tmp_path, server.url, postings=2)
    setup = runner.load_setup(ws)
    asyncio.run(runner.work(setup, runner.RunOptions(), telemetry=Telemetry(provider)))
    spans = exporter.get_finished_spans()
    (run_span,) = [s for s in spans if s.name == "task.run"]
    units = [s for s in spans if s.name == "task.unit"]
    assert len(units) == 2
    assert all(s.parent is not None and s.parent.span_id == run_span.context.span_id
               for s in units)
    assert {s.attributes["task.outcome"] for s in units} == {"finished"}
    assert run_span.attributes["task.name"] == "level"
    for span in spans:  # bounded attributes only: no company or title
        assert set(span.attributes) <= {"task.name", "task.outcome"}


def test_kill_9_mid_run_then_rerun_finishes_without_duplicates(tmp_path: Path) -> None:
    with ModelServer(answer=answer_level("staff"), latency=0.05) as srv:
        ws = make_workspace(tmp_path, srv.url, postings=60)
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        proc = subprocess.Popen([sys.executable, "-m", "jobtracker", "--home", str(ws.home),
                                 "work", "--concurrency", "2"], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while len(_safe_readings(ws)) < 10 and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        partial = len(_safe_readings(ws))
        assert 10 <= partial < 60
        assert main(["--home", str(ws.home), "work"]) == 0
    with raw_connect(ws.db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT COUNT(*), COUNT(DISTINCT posting_id) FROM level_readings"
                            ).fetchone() == (60, 60)


def _safe_readings(ws: Workspace) -> dict[int, str]:
    try:
        return readings(ws)
    except sqlite3.OperationalError:
        return {}


def _hash(ws: Workspace, posting_id: int) -> str:
    from jobtracker.store import description_hash

    with raw_connect(ws.db) as conn:
        (text,) = conn.execute("SELECT description FROM postings WHERE id = ?",
                               (posting_id,)).fetchone()
    return description_hash(text)


def test_proposals_know_every_kind_without_the_tasks_imported() -> None:
    code = ("import jobtracker.proposals as p; "
            "print(sorted(p.REGISTRY), 'jobtracker.tasks' in __import__('sys').modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == ("['answer', 'interview', 'letter', 'profile', "
                                     "'resume_edit', 'source', 'status'] False")


def test_sigterm_stops_a_run_cleanly_keeping_what_was_committed(tmp_path: Path) -> None:
    """systemd stops a unit that outlives TimeoutStartSec with SIGTERM."""
    with ModelServer(answer=answer_level("staff"), latency=0.1) as srv:
        ws = make_workspace(tmp_path, srv.url, postings=80)
        proc = subprocess.Popen([sys.executable, "-m", "jobtracker", "--home", str(ws.home),
                                 "work", "--concurrency", "2"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        for line in proc.stdout:
            if " done " in line:
                break
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert "stopped by SIGTERM; every unit committed so far is kept" in err
    with raw_connect(ws.db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        kept = conn.execute("SELECT COUNT(*) FROM level_readings").fetchone()[0]
    assert 1 <= kept < 80
    assert not ws.lock.read_text(), "the lease was released on the way out"


@pytest.mark.usefixtures("short_backoff")
def test_model_server_dying_mid_run_ends_in_recorded_failures_not_a_hang(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import threading

    srv = ModelServer(answer=answer_level("staff"), latency=0.05).start()
    ws = make_workspace(tmp_path, srv.url, postings=30)
    (ws.home / "config.yaml").write_text(
        f"llm:\n  url: {srv.url}\n  model: test-model\n  retries: 2\n  timeout: 2\n"
        "concurrency: 2\n")
    def stop_after_some_answers() -> None:
        deadline = time.monotonic() + 30
        while srv.chat_count < 6 and time.monotonic() < deadline:
            time.sleep(0.01)
        srv.stop()

    killer = threading.Thread(target=stop_after_some_answers)
    killer.start()
    started = time.monotonic()
    try:
        code = work(ws)
    finally:
        killer.join()
        srv.stop()
    assert time.monotonic() - started < 60
    assert code == 0, "some units finished before the server went away"
    answered, failed = len(readings(ws)), len(ledger(ws))
    assert answered >= 1 and failed >= 1
    assert answered + failed == 30, "every unit is either answered or a recorded failure"
    last = capsys.readouterr().out.splitlines()[-1]
    assert f"{answered} finished, {failed} failed" in last


def test_dry_run_counts_new_mail_without_reading_it_in(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.unit.mail_samples import build_maildir, fingerprint, plain

    ws = make_workspace(tmp_path, None)
    maildir = build_maildir(tmp_path / "Mail", [plain("Your application", "Thanks!"),
                                                plain("Interview", "Can we talk Tuesday?")])
    (ws.home / "config.yaml").write_text(f"llm:\n  url: null\nmaildir: {maildir}\n")
    (ws.home / "plugins.yaml").write_text("tasks: {level: true, judge: false, inbox: true, "
                                          "tailor: false, answer: false, coverletter: false}\n")
    before_mail, before_db = fingerprint(maildir), dump(ws)
    capsys.readouterr()
    assert work(ws, "--dry-run") == 0
    out = capsys.readouterr().out
    assert "   40  inbox      2 pending" in out
    assert out.rstrip().endswith("Would work: inbox (2 unit(s))")
    assert fingerprint(maildir) == before_mail
    assert dump(ws) == before_db, "a dry run reads no mail into the database"


def test_a_slow_answer_holds_no_slot_of_the_answers_behind_it(
        tmp_path: Path, short_backoff: None) -> None:
    """Answers are written in listing order, so the ones behind a slow answer wait for
    it; they wait without their model slot. With concurrency 2 and the first unit's
    call hanging until the client's 1 s timeout, the next three units are asked in the
    meantime (two held answers, and one that keeps its slot once two are held; before,
    one), never more than two calls at once, and every reading is written."""
    srv = ModelServer(answer=answer_level("staff")).start()
    try:
        ws = make_workspace(tmp_path, srv.url, postings=6)
        (ws.home / "config.yaml").write_text(
            f"llm:\n  url: {srv.url}\n  model: test-model\n  retries: 2\n  timeout: 1\n"
            "concurrency: 2\n")
        srv.queue(Fault.hang())          # the first call, the first unit listed
        assert work(ws) == 0
        asked = [int(json.dumps(r.json).split("Posting ")[1].split(":")[0])
                 for r in srv.chat_requests]
        retry = asked.index(asked[0], 1)
        assert retry == 4 and len(set(asked[:retry])) == 4
        assert srv.peak_in_flight == 2
        assert readings(ws) == dict.fromkeys(range(1, 7), "staff")
    finally:
        srv.stop()
