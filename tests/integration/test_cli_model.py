"""`jobtracker model check` as a command: a configuration error is exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobtracker.cli import main
from tests.run_world import make_workspace


def test_a_configuration_error_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    ws = make_workspace(tmp_path, "http://127.0.0.1:9/v1")
    (ws.home / "config.yaml").write_text("llm: [not, a, mapping]\n")
    assert main(["--home", str(ws.home), "model", "check"]) == 2
    assert "config.yaml" in capsys.readouterr().err
