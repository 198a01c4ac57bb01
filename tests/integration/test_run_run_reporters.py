"""A reporter that stops mid-run (events.jsonl on a full disk) is said once, never silently."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import jobtracker.run.run
from tests.run_world import answer_level, make_workspace, readings, work
from tests.servers.model import ModelServer

FULL_DISK = Path("/dev/full")   # every write to it fails with ENOSPC, as a full disk does


def test_a_full_disk_under_events_jsonl_is_said_once_and_the_run_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    ws = make_workspace(tmp_path, None, postings=6)
    with ModelServer(answer=answer_level("senior")) as server:
        (ws.home / "config.yaml").write_text(
            f"llm:\n  url: {server.url}\n  model: test-model\n  retries: 3\n  timeout: 5\n"
            "concurrency: 4\n")
        # This run's events.jsonl is a file on a full disk.
        monkeypatch.setattr(jobtracker.run.run, "run_id", lambda now=None: "full")
        (ws.runs / "full").mkdir(parents=True)
        (ws.runs / "full" / "events.jsonl").symlink_to(FULL_DISK)
        capsys.readouterr()

        assert work(ws) == 0

    assert readings(ws) == dict.fromkeys(range(1, 7), "senior"), "the run went on"
    captured = capsys.readouterr()
    said = [line for line in captured.err.splitlines() if "events.jsonl" in line]
    assert said == [f"jobtracker: events to {ws.runs / 'full' / 'events.jsonl'} stopped "
                    "(OSError: [Errno 28] No space left on device); the run goes on"]
    summary = captured.out.splitlines()[-1]
    assert "6 finished, 0 failed, 0 skipped in 0:00:" in summary
    assert summary.endswith("events.jsonl stopped (OSError: [Errno 28] No space left on device)")
    # The terminal's own lines were never affected: every unit is there.
    assert sum(" done " in line for line in captured.out.splitlines()) == 6


def test_a_healthy_run_says_nothing_about_reporters(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with ModelServer(answer=answer_level("senior")) as server:
        ws = make_workspace(tmp_path, server.url, postings=2)
        capsys.readouterr()
        assert work(ws) == 0
    captured = capsys.readouterr()
    assert "stopped" not in captured.err and "stopped" not in captured.out
    (run_dir,) = list(ws.runs.iterdir())
    events = [json.loads(x) for x in (run_dir / "events.jsonl").read_text().splitlines()]
    # Every event about a unit names it by key (inside data), next to its label.
    about_units = [e for e in events if e["type"] != "stage_finished"]
    assert about_units and all(e["data"]["key"].startswith("p") for e in about_units)
    assert all(set(e) == {"time", "type", "job", "kind", "data"} for e in events)
