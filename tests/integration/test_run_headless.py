"""`jobtracker-tui --run`: the continuous loop, headless, for timers."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jobtracker.cli.base import duration
from tests.db import raw_connect
from tests.run_world import answer_level, make_workspace, readings
from tests.servers.model import Fault, ModelServer
from tui.cli import main

NO_TEXTUAL = """
import sys
from tui.cli import main
code = main(sys.argv[1:])
loaded = sorted(m for m in sys.modules if m == "textual" or m.startswith("textual."))
print("TEXTUAL:", loaded, flush=True)
sys.exit(code)
"""


def test_run_never_imports_textual(tmp_path: Path) -> None:
    with ModelServer(answer=answer_level("senior")) as srv:
        ws = make_workspace(tmp_path, srv.url, postings=3)
        result = subprocess.run(
            [sys.executable, "-c", NO_TEXTUAL, "--run", "--home", str(ws.home)],
            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert "TEXTUAL: []" in result.stdout
    assert len(readings(ws)) == 3


def test_run_lines_are_timestamped_ascii_and_end_with_a_summary(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with ModelServer(answer=answer_level("staff")) as srv:
        ws = make_workspace(tmp_path, srv.url, postings=2)
        with raw_connect(ws.db) as conn:
            conn.execute("UPDATE postings SET company = 'Zürich AG ☃'")
        capsys.readouterr()
        assert main(["--run", "--home", str(ws.home)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert all(line.isascii() for line in lines)
    assert all(re.match(r"^\d\d:\d\d:\d\d ", line) for line in lines)
    assert sum(" done " in line for line in lines) == 2
    assert re.search(r"2 finished, 0 failed, 0 skipped in \d:\d\d:\d\d$", lines[-1])


def test_run_budget_and_bad_task(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with ModelServer(answer=answer_level("staff")) as srv:
        ws = make_workspace(tmp_path, srv.url, postings=5)
        assert main(["--run", "--home", str(ws.home), "--budget", "2"]) == 0
        assert len(readings(ws)) == 2
        assert main(["--run", "--home", str(ws.home), "--task", "nosuch"]) == 2
    assert "task 'nosuch' is unknown or switched off" in capsys.readouterr().err


@pytest.mark.parametrize(("text", "seconds"), [("30m", 1800), ("2h", 7200), ("1h30m", 5400),
                                                ("90s", 90), ("45", 45)])
def test_deadline_durations(text: str, seconds: float) -> None:
    assert duration(text) == seconds


def test_deadline_stops_admitting_units(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    with ModelServer(answer=answer_level("staff"), latency=0.2) as srv:
        ws = make_workspace(tmp_path, srv.url, postings=40)
        assert main(["--run", "--home", str(ws.home), "--deadline", "1s",
                     "--concurrency", "2"]) == 0
    done = len(readings(ws))
    assert 2 <= done < 40
    assert f"{done} finished" in capsys.readouterr().out.splitlines()[-1]


def test_the_deadline_ends_retry_waits_and_records_those_units_failed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Every answer is a 429 asking for 30 s, with the most retries config allows:
    # without the deadline ending the waits, this run would take ten minutes.
    with ModelServer(answer=lambda body: Fault.status(429, retry_after=30)) as srv:
        ws = make_workspace(tmp_path, srv.url, postings=4)
        (ws.home / "config.yaml").write_text(
            f"llm:\n  url: {srv.url}\n  model: test-model\n  retries: 10\n"
            "concurrency: 4\n")
        started = time.monotonic()
        assert main(["--run", "--home", str(ws.home), "--deadline", "1s"]) == 1
        assert time.monotonic() - started < 10
    out = capsys.readouterr().out
    assert "4 failed" in out.splitlines()[-1]
    with raw_connect(ws.db) as conn:
        errors = [row[0] for row in conn.execute("SELECT last_error FROM task_attempts")]
    assert len(errors) == 4 and all("deadline" in error for error in errors)


def test_an_embedded_model_says_it_is_loading_before_anything_else(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = make_workspace(tmp_path, None, postings=1)
    model = tmp_path / "broken.gguf"
    model.write_bytes(b"not a model")   # loading fails, but only after it was announced
    (ws.home / "config.yaml").write_text(f"llm:\n  gguf: {model}\n")
    capsys.readouterr()
    assert main(["--run", "--home", str(ws.home)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert re.match(r"^\d\d:\d\d:\d\d model  starting the embedded model broken.gguf", lines[0])


def test_a_missing_model_file_is_said_missing_without_announcing_a_start(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = make_workspace(tmp_path, None, postings=1)
    (ws.home / "config.yaml").write_text(f"llm:\n  gguf: {tmp_path / 'absent.gguf'}\n")
    capsys.readouterr()
    assert main(["--run", "--home", str(ws.home)]) == 0
    out = capsys.readouterr().out
    assert "starting the embedded model" not in out
    assert any("absent.gguf" in line and "unavailable" in line for line in out.splitlines())
