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
    ("concurrency: 0\n", 1, "concurrency: must be a whole number from 1 to 64"),
    ("llm:\n  url: http://x\n  retries: many\n", 3, "llm.retries"),
    ("llm:\n  models: {judgee: x}\n", 2, "llm.models.judgee: unknown key"),
    ("llm: [1, 2]\n", 1, "llm: must be a mapping"),
    # Every number finite and in range, every URL usable, when the file is read.
    ("llm:\n  timeout: .nan\n", 2, "llm.timeout: must be a number from 1 to 3600"),
    ("llm:\n  timeout: .inf\n", 2, "llm.timeout: must be a number"),
    ("llm:\n  timeout: -.inf\n", 2, "llm.timeout: must be a number"),
    ("llm:\n  retries: 1000000000\n", 2, "llm.retries: must be a whole number from 1 to 10"),
    ("llm:\n  max_tokens: {default: 10000000}\n", 2, "llm.max_tokens.default"),
    ("concurrency: 100000\n", 1, "concurrency: must be a whole number from 1 to 64"),
    ("tailor:\n  threshold: .nan\n", 2, "tailor.threshold"),
    ("fetch:\n  deadline: 0\n", 2, "fetch.deadline: must be a number from 1 to 3600"),
    ('llm:\n  url: "http://[::1"\n', 2, "llm.url: not a usable URL"),
    ('llm:\n  url: "http://host:99999/v1"\n', 2, "llm.url: not a usable URL"),
    ('llm:\n  url: "ftp://host/v1"\n', 2, "llm.url: must be an http:// or https:// URL"),
    ("alerts:\n  close_after_days: 0\n", 2, "alerts.close_after_days: must be a whole number"),
    ("alerts:\n  probe_companies: -1\n", 2, "alerts.probe_companies: must be a whole number"),
    ("alerts:\n  enabled: sometimes\n", 2, "alerts.enabled: must be true or false"),
    ("alerts:\n  close_after: 3\n", 2, "alerts.close_after: unknown key"),
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


@pytest.mark.parametrize("value", [".nan", ".inf", "-.inf", "1e300"])
def test_a_profile_weight_must_be_finite_and_in_range(tmp_path: Path, value: str) -> None:
    path = tmp_path / "profile.yaml"
    path.write_text(f"prose: x\nweights:\n  fit: {value}\n")
    with pytest.raises(ConfigError) as caught:
        cfg.load_profile(path)
    assert caught.value.line == 3 and "weights.fit: must be a number from -100 to 100" in str(
        caught.value)


@pytest.mark.parametrize("url", ["http://[::1", "http://h:70000/x.json", "file:///etc/passwd",
                                 "not a url"])
def test_board_and_feed_urls_must_parse(tmp_path: Path, url: str) -> None:
    path = tmp_path / "sources.yaml"
    for text in (f"boards:\n  - {{ats: greenhouse, token: t, url: '{url}'}}\n",
                 f"feeds:\n  - {{name: f, url: '{url}'}}\n"):
        path.write_text(text)
        with pytest.raises(ConfigError) as caught:
            cfg.load_sources(path, ["greenhouse"])
        assert caught.value.line == 2 and ".url: " in str(caught.value)


def test_the_fetch_deadline_is_read_with_a_two_minute_default(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("concurrency: 2\n")
    assert cfg.load_config(path, TASKS).fetch_deadline == 120
    path.write_text("fetch:\n  deadline: 30\n")
    assert cfg.load_config(path, TASKS).fetch_deadline == 30


def test_job_alerts_are_read_by_default_and_can_be_switched_off(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("concurrency: 2\n")
    assert cfg.load_config(path, TASKS).alerts == cfg.AlertsConfig(True, 14, 5)
    path.write_text("alerts: {enabled: false, close_after_days: 30, probe_companies: 0}\n")
    assert cfg.load_config(path, TASKS).alerts == cfg.AlertsConfig(False, 30, 0)


def test_check_warns_when_the_api_key_variable_is_unset(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JT_TEST_KEY", raising=False)
    assert main(["--home", str(tmp_path), "init"]) == 0
    (tmp_path / "config.yaml").write_text("llm:\n  api_key_env: JT_TEST_KEY\n")
    capsys.readouterr()
    assert main(["--home", str(tmp_path), "check"]) == 0
    assert "llm.api_key_env names JT_TEST_KEY, which is not set here" in capsys.readouterr().err
    monkeypatch.setenv("JT_TEST_KEY", "sk-test")
    assert main(["--home", str(tmp_path), "check"]) == 0
    assert "warning" not in capsys.readouterr().err
