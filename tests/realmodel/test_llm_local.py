"""The embedded model's edges that need no model: reasons, precedence, the CLI flags."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from jobtracker import runner
from jobtracker.cli import main
from jobtracker.config import LLMConfig
from jobtracker.llm.local import (
    EXTRA_HINT,
    EmbeddedServer,
    LocalModelUnavailable,
    embedded_config,
    local_server,
    model_alias,
    unavailable_reason,
)
from tests.run_world import dump, make_workspace, readings
from tests.servers.model import ModelServer


def fake_gguf(tmp_path: Path, name: str = "tiny.Q4_1.gguf") -> Path:
    """A file that starts like a GGUF model (enough for the checks made before loading)."""
    path = tmp_path / name
    path.write_bytes(b"GGUF" + bytes(60))
    return path


def test_a_missing_file_is_the_reason(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.gguf"
    assert unavailable_reason(missing) == f"model file {missing} not found (llm.gguf)"


def test_a_folder_or_a_file_of_another_kind_is_the_reason(tmp_path: Path) -> None:
    assert "is a folder" in (unavailable_reason(tmp_path) or "")
    other = tmp_path / "model.bin"
    other.write_bytes(b"PK\x03\x04 not a model")
    assert unavailable_reason(other) == f"{other} is not a GGUF model file"


def test_without_the_extra_the_reason_says_how_to_install_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "xllamacpp", None)   # import now raises ImportError
    reason = unavailable_reason(fake_gguf(tmp_path))
    assert reason is not None and EXTRA_HINT in reason


async def test_local_server_raises_the_reason_instead_of_starting(tmp_path: Path) -> None:
    with pytest.raises(LocalModelUnavailable, match="not found"):
        async with local_server(tmp_path / "nowhere.gguf"):
            pytest.fail("the body must not run")


def test_the_embedded_server_serves_one_model_for_every_task(tmp_path: Path) -> None:
    gguf = fake_gguf(tmp_path)
    config = LLMConfig(url="http://gpu:8000/v1", model="qwen3:8b", models={"tailor": "big"},
                       api_key_env="SOME_KEY", gguf=gguf, max_tokens={"default": 99})
    local = embedded_config(config, "http://127.0.0.1:5000/v1")
    assert model_alias(gguf) == "tiny.Q4_1"
    assert (local.url, local.model, local.models, local.api_key_env) == (
        "http://127.0.0.1:5000/v1", "tiny.Q4_1", {}, None)
    assert local.max_tokens_for("tailor") == 99, "the bounds still apply"


def test_a_run_with_a_missing_model_file_changes_nothing_and_says_why(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = make_workspace(tmp_path, None, postings=2)
    missing = tmp_path / "gone.gguf"
    (ws.home / "config.yaml").write_text(f"llm:\n  gguf: {missing}\n")
    before = dump(ws)
    capsys.readouterr()
    assert main(["--home", str(ws.home), "work"]) == 0
    out = capsys.readouterr().out
    assert f"unavailable — model file {missing} not found (llm.gguf)" in out
    assert "No model:" in out and "Nothing was changed" in out
    assert readings(ws) == {} and dump(ws) == before


def test_llm_url_on_the_command_line_wins_over_gguf_in_the_file(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path, None)
    (ws.home / "config.yaml").write_text("llm:\n  gguf: ~/models/m.gguf\n")
    assert runner.load_setup(ws).config.llm.gguf == Path.home() / "models" / "m.gguf"
    setup = runner.load_setup(ws, runner.RunOptions(llm_url="gpu:8000"))
    assert setup.config.llm.gguf is None
    assert setup.config.llm.url == "http://gpu:8000/v1"


def test_gguf_on_the_command_line_wins_over_the_file(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path, "http://gpu:8000/v1")
    setup = runner.load_setup(ws, runner.RunOptions(gguf="~/other.gguf"))
    assert setup.config.llm.gguf == Path.home() / "other.gguf"


def test_gguf_flag_reaches_the_run_and_excludes_llm_url(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = make_workspace(tmp_path, "http://gpu:8000/v1", postings=1)
    missing = tmp_path / "flag.gguf"
    capsys.readouterr()
    assert main(["--home", str(ws.home), "work", "--gguf", str(missing)]) == 0
    assert f"model file {missing} not found" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exited:
        main(["--home", str(ws.home), "work", "--gguf", str(missing), "--llm-url", "x:1"])
    assert exited.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_the_headless_tui_takes_gguf_too(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    from tui.cli import main as tui_main

    ws = make_workspace(tmp_path, "http://gpu:8000/v1", postings=1)
    missing = tmp_path / "tui.gguf"
    capsys.readouterr()
    assert tui_main(["--run", "--home", str(ws.home), "--gguf", str(missing)]) == 0
    assert f"model file {missing} not found" in capsys.readouterr().out


def test_local_without_demo_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    from tui.cli import main as tui_main

    with pytest.raises(SystemExit) as exited:
        tui_main(["--local", "--run"])
    assert exited.value.code == 2
    assert "--local goes with --demo" in capsys.readouterr().err


class _Held:
    """Stands in for xllamacpp's Server: notes when its last reference goes."""

    def __init__(self, events: list[str]) -> None:
        self.events = events

    def __del__(self) -> None:
        self.events.append("released")


def test_a_stop_waits_for_the_task_loops_answer_before_releasing_the_server() -> None:
    """llama.cpp's task loop sets its running flag as it starts; a stop before that is
    lost and the destructor waits for ever. So the loop's own answer (GET /slots) comes
    first, unless it was already seen."""
    events: list[str] = []
    with ModelServer() as server:
        embedded = EmbeddedServer(_Held(events), server.url.removesuffix("/v1"), "m")
        embedded.stop()
        asked = [r.path for r in server.requests]
        answered_first = EmbeddedServer(_Held(events), server.url.removesuffix("/v1"), "m")
        answered_first.loop_answered = True
        answered_first.stop()
        asked_after = [r.path for r in server.requests]
    assert asked == ["/slots"] and events == ["released", "released"]
    assert asked_after == asked and not embedded.running
    embedded.stop()                         # a second stop is a no-op, asks nothing
    assert len(events) == 2
