"""The shipped systemd unit files (docs/systemd/) parse and say what deployment.md says."""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from jobtracker.cli.base import duration

UNITS = Path(__file__).resolve().parents[2] / "docs" / "systemd"
_SPAN = re.compile(r"(\d+)\s*(d|h|min|m|s)")
_SECONDS = {"d": 86400, "h": 3600, "min": 60, "m": 60, "s": 1}


def unit(name: str) -> configparser.ConfigParser:
    # systemd keys are case-sensitive and may repeat; '%' is its own specifier syntax.
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string((UNITS / name).read_text(), source=name)
    return parser


def timespan(text: str) -> int:
    """A systemd time span such as `2h15min` in seconds (the subset the files use)."""
    parts = _SPAN.findall(text)
    assert parts and "".join(f"{n}{u}" for n, u in parts) == text.replace(" ", ""), text
    return sum(int(n) * _SECONDS[u] for n, u in parts)


def test_the_service_is_a_oneshot_run_with_a_timeout_longer_than_its_deadline() -> None:
    service = unit("jobtracker.service")["Service"]
    assert service["Type"] == "oneshot"
    command = service["ExecStart"].split()
    assert command[0].endswith("/jobtracker-tui") and "--run" in command
    deadline = duration(command[command.index("--deadline") + 1])
    # The deadline stops admitting units; the timeout must leave room to finish them.
    assert timespan(service["TimeoutStartSec"]) > deadline > 0


def test_the_service_fetches_first_and_a_failed_fetch_does_not_stop_the_run() -> None:
    # configparser keeps the last of repeated keys; read ExecStartPre lines directly.
    lines = (UNITS / "jobtracker.service").read_text().splitlines()
    pre = [line.split("=", 1)[1] for line in lines if line.startswith("ExecStartPre=")]
    assert len(pre) == 1
    # '-' before the path: systemd ignores the fetch's exit status and runs ExecStart.
    assert pre[0].startswith("-")
    command = pre[0].lstrip("-").split()
    assert command[0].endswith("/jobtracker") and command[1:] == ["fetch"]
    start = next(i for i, line in enumerate(lines) if line.startswith("ExecStart="))
    assert lines.index(next(line for line in lines if line.startswith("ExecStartPre="))) < start


def test_deployment_doc_shows_the_service_as_shipped() -> None:
    doc = (UNITS.parent / "deployment.md").read_text()
    service = unit("jobtracker.service")["Service"]
    for key in ("TimeoutStartSec", "ExecStart"):
        assert f"{key}={service[key]}" in doc
    assert "ExecStartPre=-%h/.local/bin/jobtracker fetch" in doc


def test_the_timer_is_persistent_randomized_and_starts_the_service() -> None:
    timer = unit("jobtracker.timer")
    assert timer["Timer"]["OnCalendar"]
    assert timer["Timer"]["Persistent"] == "true"
    assert timespan(timer["Timer"]["RandomizedDelaySec"]) > 0
    assert timer["Timer"]["Unit"] == "jobtracker.service"
    assert timer["Install"]["WantedBy"] == "timers.target"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed; the structural checks above ran")
def test_systemd_analyze_verify_accepts_both_units(tmp_path: Path) -> None:
    # verify insists that ExecStart's program exists: point it at this checkout's.
    program = Path(sys.executable).with_name("jobtracker-tui")
    for name in ("jobtracker.service", "jobtracker.timer"):
        text = (UNITS / name).read_text().replace("%h/.local/bin/jobtracker-tui", str(program))
        (tmp_path / name).write_text(text)
    result = subprocess.run(
        ["systemd-analyze", "verify", str(tmp_path / "jobtracker.timer"),
         str(tmp_path / "jobtracker.service")], capture_output=True, text=True, timeout=60)
    # Unknown keys and bad values are warnings ("..., ignoring") with exit status 0.
    complaints = [line for line in result.stderr.splitlines() if str(tmp_path) in line
                  or line.startswith("jobtracker.")]
    assert result.returncode == 0 and not complaints, result.stderr
