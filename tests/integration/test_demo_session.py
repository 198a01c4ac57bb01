"""jobtracker-tui --demo: the headless run with the demo model, another server, a broken config."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from jobtracker.cli import main as cli_main
from jobtracker.run.setup import config_of
from jobtracker.workspace import Workspace
from tests.servers.model import ModelServer

ROOT = Path(__file__).resolve().parents[2]


def run_tui(*args: str, latency: str = "0.02") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "JOBTRACKER_DEMO_LATENCY": latency, "PYTHONPATH": str(ROOT)}
    env.pop("JOBTRACKER_HOME", None)
    return subprocess.run([sys.executable, "-m", "tui", *args], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=120)


def proposals_json(home: Path, capsys: pytest.CaptureFixture[str]) -> list[dict]:
    capsys.readouterr()
    assert cli_main(["--home", str(home), "proposals", "list", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_demo_run_headless_drains_the_queue_with_the_demo_model(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "demo"
    result = run_tui("--demo", "--run", "--home", str(home))
    assert result.returncode == 0, result.stderr
    assert "DEMO MODEL" in result.stderr and f"workspace stays at {home}" in result.stderr
    assert f"reopen it with jobtracker-tui --demo --home {home}" in result.stderr
    summary = result.stdout.strip().splitlines()[-1]
    assert " 0 failed" in summary and " 0 finished" not in summary, summary

    proposals = proposals_json(home, capsys)
    status = {p["summary"].split(":")[0]: p for p in proposals if p["kind"] == "status"}
    # The interview invitation, the rejection, the take-home and the acknowledgement
    # each propose a status; the newsletter proposes nothing.
    assert set(status) == {"Northwind Robotics", "Kestrel Analytics", "Lumen Grid",
                           "Brightline Health"}
    assert "→ interviewing" in status["Northwind Robotics"]["summary"]
    assert "→ rejected" in status["Kestrel Analytics"]["summary"]
    assert all(p["state"] == "pending" and p["task"] == "inbox" for p in status.values())
    assert status["Northwind Robotics"]["posting"] is not None

    # Nothing is left to do: a second run finds an empty queue.
    again = run_tui("--demo", "--run", "--home", str(home))
    assert again.returncode == 0 and "nothing to do" in again.stdout


def test_demo_with_llm_url_uses_that_server_and_its_first_model(
        tmp_path: Path) -> None:
    home = tmp_path / "demo"
    with ModelServer(models=("served-model",)) as server:
        result = run_tui("--demo", "--run", "--home", str(home), "--budget", "3",
                         "--llm-url", server.url)
        asked = server.chat_requests
    assert result.returncode in (0, 1), result.stderr
    assert "DEMO MODEL" not in result.stderr
    # Whatever answers, the demo says where its folder stays and how to reopen it.
    assert f"reopen it with jobtracker-tui --demo --home {home}" in result.stderr
    assert len(asked) == 3 and {r.json["model"] for r in asked} == {"served-model"}
    assert config_of(Workspace(home)).llm.model == "served-model"


def test_demo_with_a_broken_config_exits_2_naming_the_file(tmp_path: Path) -> None:
    home = tmp_path / "demo"
    home.mkdir()
    (home / "config.yaml").write_text("llm:\n  timout: 3\n")
    result = run_tui("--demo", "--run", "--home", str(home))
    assert result.returncode == 2
    assert "config.yaml:2" in result.stderr and "timout" in result.stderr
