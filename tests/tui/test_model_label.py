"""The header says plainly which model answers: a real server, the demo, or an embedded one."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobtracker.demo import DEMO_MODEL
from jobtracker.runner import load_setup
from tests.tui.fixtures import make_workspace
from tui.app import JobtrackerApp


@pytest.mark.parametrize(("llm", "expected"), [
    ("  url: http://gpu:8000\n  model: qwen3:8b\n", "qwen3:8b @ gpu:8000"),
    # A server of your own that happens to call its model jobtracker-demo is that server.
    (f"  url: http://127.0.0.1:4000\n  model: {DEMO_MODEL}\n",
     f"{DEMO_MODEL} @ 127.0.0.1:4000"),
    ("  url: null\n  gguf: /models/SmolLM2-135M-Instruct.Q4_1.gguf\n",
     "SmolLM2-135M-Instruct (135M, demonstration only) embedded"),
    ("  url: null\n  gguf: /models/qwen3-4b.gguf\n", "qwen3-4b embedded"),
    ("  url: null\n", "no model server configured"),
])
def test_header_names_the_model(tmp_path: Path, llm: str, expected: str) -> None:
    ws = make_workspace(tmp_path)
    (ws.home / "config.yaml").write_text(f"llm:\n{llm}")
    assert JobtrackerApp(load_setup(ws)).model_label() == expected


def test_the_demo_model_is_named_only_when_it_answers(tmp_path: Path) -> None:
    """The demo session knows whether its bundled model answers and tells the app."""
    ws = make_workspace(tmp_path)
    (ws.home / "config.yaml").write_text(f"llm:\n  url: http://127.0.0.1:4000\n"
                                         f"  model: {DEMO_MODEL}\n")
    setup = load_setup(ws)
    assert JobtrackerApp(setup, demo_model=True).model_label() == "DEMO MODEL (canned answers)"
    assert "DEMO" not in JobtrackerApp(setup).model_label()
