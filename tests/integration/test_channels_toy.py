"""Adding a notify channel is one module and one registry entry: a toy channel, written
to a folder on sys.path, imported and put in `jobtracker.channels.REGISTRY` (what an
entry in its tuple does), is accepted everywhere a channel is with no other edit —
`notify.to` and its own section in config.yaml (with file-and-line errors),
`digest --send` (its credential resolved, its reason redacted of its URL) and
`check --send-test`."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from jobtracker import channels
from jobtracker.cli import main
from tests.notify_seed import add_matches, workspace

TOY_MODULE = '''
from dataclasses import dataclass

from jobtracker.channels.base import Channel, ChannelError, Secret
from jobtracker.yamlfile import checks

SENT = []


@dataclass(frozen=True)
class Pigeon:
    loft: str
    url: str
    key_env: str | None = None


def settings(doc, value):
    raw = checks.mapping(doc, value, "notify", "pigeon", allowed=("loft", "url", "key_env"))
    if raw.get("loft") is None:
        raise doc.error("is required (where the pigeon flies)", "notify", "pigeon", "loft")
    return Pigeon(checks.string(doc, raw["loft"], "notify", "pigeon", "loft"),
                  checks.url(doc, raw.get("url"), "notify", "pigeon", "url"),
                  checks.optional_string(doc, raw, "key_env", "notify", "pigeon"))


async def send(settings, message, secret, timeout):
    if settings.loft == "storm":
        raise ChannelError(f"lost in a storm over {settings.url} carrying {secret}")
    SENT.append((settings.loft, message.subject, message.push, secret))
    return f"the {settings.loft} loft"


def key(settings):
    if settings.key_env is None:
        return None
    return Secret(settings.key_env, None, "key_env", "key_command")


CHANNEL = Channel("pigeon", settings, send, key, lambda s: (s.url,))
'''


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "toy_channel.py").write_text(TOY_MODULE)
    monkeypatch.syspath_prepend(str(folder))
    module = importlib.import_module("toy_channel")
    with channels.REGISTRY.extended(module.CHANNEL):   # the one registry entry
        yield module
    sys.modules.pop("toy_channel", None)


def pigeon(loft: str, url: str = "https://loft.example/fly?token=k3y-in-url") -> str:
    return (f"notify:\n  to: [file, pigeon]\n"
            f"  pigeon: {{loft: {loft}, url: '{url}', key_env: JT_PIGEON}}\n")


def test_a_toy_channel_takes_the_digest_with_its_secret(
        toy: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JT_PIGEON", "seed-4711")
    ws = workspace(tmp_path, pigeon("home"))
    add_matches(ws, 2)
    capsys.readouterr()
    assert main(["--home", str(ws.home), "digest", "--send"]) == 0
    out = capsys.readouterr().out
    assert "pigeon: sent to the home loft" in out
    [(loft, subject, push, secret)] = toy.SENT
    assert (loft, subject, secret) == ("home", "jobtracker: 2 new matches", "seed-4711")
    assert "Senior Engineer 1" in push
    archived = next((ws.home / "digests").glob("*.md")).read_text()
    assert "delivered to pigeon" in archived


def test_a_toy_channel_that_fails_is_named_and_its_secrets_never_shown(
        toy: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JT_PIGEON", "seed-4711")
    ws = workspace(tmp_path, pigeon("storm"))
    add_matches(ws, 1)
    capsys.readouterr()
    assert main(["--home", str(ws.home), "digest", "--send"]) == 1
    said = capsys.readouterr()
    assert "pigeon: FAILED: lost in a storm over" in said.out
    assert "k3y-in-url" not in said.out + said.err, "its URL's credential is redacted"
    assert "seed-4711" not in said.out + said.err, "its secret is redacted"


def test_check_send_test_reaches_the_toy_channel(
        toy: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JT_PIGEON", "seed-4711")
    ws = workspace(tmp_path, pigeon("home"))
    capsys.readouterr()
    assert main(["--home", str(ws.home), "check", "--send-test"]) == 0
    assert "notify: pigeon: test message sent to the home loft" in capsys.readouterr().out
    assert toy.SENT[0][1] == "jobtracker: test message"


def test_config_reads_the_toy_channel_section_with_file_and_line_errors(
        toy: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = workspace(tmp_path)
    (ws.home / "config.yaml").write_text(
        "llm: {url: null}\nnotify:\n  to: [pigeon]\n  pigeon: {url: 'https://x.example'}\n")
    assert main(["--home", str(ws.home), "check"]) == 2
    err = capsys.readouterr().err
    assert "config.yaml:4: notify.pigeon.loft: is required (where the pigeon flies)" in err
    (ws.home / "config.yaml").write_text("llm: {url: null}\nnotify:\n  to: [pigeon]\n")
    assert main(["--home", str(ws.home), "check"]) == 2
    assert "notify.to: names pigeon, which needs a notify.pigeon section" in capsys.readouterr().err


def test_without_its_entry_the_name_is_unknown(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    ws = workspace(tmp_path)
    (ws.home / "config.yaml").write_text("llm: {url: null}\nnotify:\n  to: [pigeon]\n")
    assert main(["--home", str(ws.home), "check"]) == 2
    assert ("unknown value 'pigeon' (expected one of: file, email, ntfy, webhook)"
            in capsys.readouterr().err)
