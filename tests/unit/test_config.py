"""Configuration loading: typed values, defaults, and errors that name file, line, field."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobtracker import config as cfg
from jobtracker.cli import main
from jobtracker.tasks import ordered
from jobtracker.workspace import Workspace
from jobtracker.yamlfile import ConfigError

TASKS = ordered()   # the registry, in pipeline order, as Workspace hands it to config


def test_missing_files_mean_defaults(tmp_path: Path) -> None:
    config = cfg.load_config(tmp_path / "config.yaml", TASKS)
    assert config.concurrency == 4
    assert config.llm.max_tokens_for("tailor") == 1500
    assert config.llm.max_tokens_for("level") == 512
    assert cfg.load_plugins(tmp_path / "plugins.yaml", TASKS)["coverletter"] is False
    assert cfg.load_profile(tmp_path / "profile.yaml").exists is False


@pytest.mark.parametrize(("given", "expected"), [
    ("gpu:8000", "http://gpu:8000/v1"),
    ("http://gpu:8000", "http://gpu:8000/v1"),
    ("http://gpu:8000/", "http://gpu:8000/v1"),
    ("http://localhost:11434/v1", "http://localhost:11434/v1"),
    ("https://proxy.example/api/v1/", "https://proxy.example/api/v1"),
])
def test_llm_url_bare_host_gets_v1(given: str, expected: str) -> None:
    assert cfg.normalize_llm_url(given) == expected


def test_paths_expand_tilde_and_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("MAILROOT", "/srv/mail")
    path = tmp_path / "config.yaml"
    path.write_text("maildir: $MAILROOT/jobs\nllm:\n  gguf: ~/m.gguf\n")
    config = cfg.load_config(path, TASKS)
    assert config.maildir == Path("/srv/mail/jobs")
    assert config.llm.gguf == tmp_path / "m.gguf"


@pytest.mark.parametrize(("text", "line", "fragment"), [
    ("llm:\n  timout: 3\n", 2, "llm.timout: unknown key"),
    ("concurrency: 0\n", 1, "concurrency: must be a whole number >= 1"),
    ("llm:\n  url: http://x\n  retries: many\n", 3, "llm.retries"),
    ("llm:\n  models: {judgee: x}\n", 2, "llm.models.judgee: unknown key"),
    ("llm: [1, 2]\n", 1, "llm: must be a mapping"),
])
def test_config_errors_name_line_and_field(tmp_path: Path, text: str, line: int,
                                           fragment: str) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as caught:
        cfg.load_config(path, TASKS)
    assert caught.value.line == line
    assert str(caught.value).startswith(f"{path}:{line}: ")
    assert fragment in str(caught.value)


def test_profile_rejects_unknown_level_with_its_position(tmp_path: Path) -> None:
    path = tmp_path / "profile.yaml"
    path.write_text("prose: x\nlevels:\n  - senior\n  - ninja\n")
    with pytest.raises(ConfigError) as caught:
        cfg.load_profile(path)
    assert caught.value.line == 4
    assert "levels[1]" in str(caught.value)
    assert "ninja" in str(caught.value)


def test_sources_rejects_unknown_ats(tmp_path: Path) -> None:
    path = tmp_path / "sources.yaml"
    path.write_text("boards:\n  - {ats: greenhouse, token: a}\n  - {ats: workday, token: b}\n")
    with pytest.raises(ConfigError) as caught:
        cfg.load_sources(path, ["greenhouse", "lever"])
    assert caught.value.line == 3
    assert "boards[1].ats" in str(caught.value)


def test_plugins_unknown_task_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "plugins.yaml"
    path.write_text("tasks: {level: true, prefill: true}\n")
    with pytest.raises(ConfigError, match=r"plugins.yaml:1: tasks.prefill: unknown key"):
        cfg.load_plugins(path, TASKS)


def test_profile_weights_do_not_change_prose_hash(tmp_path: Path) -> None:
    path = tmp_path / "profile.yaml"
    path.write_text("prose: Backend work\nweights: {fit: 1.0}\n")
    first = cfg.load_profile(path)
    path.write_text("prose: Backend work\nweights: {fit: 2.0, remote: 1}\n")
    second = cfg.load_profile(path)
    assert first.prose_hash == second.prose_hash
    assert second.weights["remote"] == 1.0


@pytest.mark.parametrize("name", ["config.yaml", "profile.yaml", "sources.yaml", "plugins.yaml"])
def test_bad_yaml_in_each_file_exits_2_naming_file_and_line(
        ws: Workspace, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    (ws.home / name).write_text("key: value\nother: [unclosed\n")
    assert main(["--home", str(ws.home), "check"]) == 2
    err = capsys.readouterr().err
    assert f"{ws.home / name}:3: invalid YAML" in err or f"{ws.home / name}:2: invalid YAML" in err
    assert "Traceback" not in err


def test_non_utf8_file_is_a_clear_error(ws: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    (ws.home / "profile.yaml").write_bytes(b"prose: caf\xe9\n")
    assert main(["--home", str(ws.home), "check"]) == 2
    assert "profile.yaml: not UTF-8" in capsys.readouterr().err
