"""With llm.gguf (`--local`), the app starts the embedded model server once, keeps it
up across runs and stops it on quit — instead of loading the model on every `r`.

The llama.cpp start is replaced by a real loopback model server standing in for it
(tests/realmodel covers llama.cpp itself); what is checked is how often the app
starts one, which URL its runs use, and that quitting stops it.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from jobtracker.llm.local import EmbeddedServer, model_alias
from jobtracker.runner import load_setup
from tests.servers.model import ModelServer
from tests.tui.fixtures import make_workspace, seed_postings, wait_until
from tui.app import JobtrackerApp


def readings(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT COUNT(*) FROM level_readings").fetchone()[0]


async def test_r_twice_starts_the_model_once_and_q_stops_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gguf = tmp_path / "tiny.Q4_1.gguf"
    gguf.write_bytes(b"GGUF" + bytes(60))
    started: list[tuple[Path, int]] = []
    with ModelServer(models=(model_alias(gguf),),
                     answer=lambda body: {"level": "senior", "reason": "stated"}) as server:
        async def fake_start(path: Path, *, n_parallel: int = 2, **_: object) -> EmbeddedServer:
            started.append((path, n_parallel))
            return EmbeddedServer(object(), server.url.removesuffix("/v1"), model_alias(path))

        monkeypatch.setattr("tui.app.start_server", fake_start)
        ws = make_workspace(tmp_path, concurrency=3)
        (ws.home / "config.yaml").write_text(f"llm:\n  url: null\n  gguf: {gguf}\n"
                                             "concurrency: 3\n")
        seed_postings(ws.db, 4)
        app = JobtrackerApp(load_setup(ws))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("r")
            await wait_until(pilot, lambda: app.last_result is not None and not app.running)
            assert readings(ws.db) == 4
            seed_postings(ws.db, 3, start=5)
            await pilot.press("r")
            await wait_until(pilot, lambda: app.last_result is not None and not app.running)
            assert readings(ws.db) == 7
            # One start for both runs, one slot per unit in flight; the label is unchanged.
            assert started == [(gguf, 3)]
            embedded = app.embedded
            assert embedded is not None and embedded.running
            assert app.model_label() == "tiny.Q4_1 embedded"
            await pilot.press("q")
        assert not embedded.running and app.embedded is None
    # Both runs asked the one server.
    assert len(server.chat_requests) == 7


async def test_a_model_that_cannot_start_is_the_runs_reason(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path)
    missing = tmp_path / "nowhere.gguf"
    (ws.home / "config.yaml").write_text(f"llm:\n  url: null\n  gguf: {missing}\n")
    seed_postings(ws.db, 2)
    app = JobtrackerApp(load_setup(ws))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await wait_until(pilot, lambda: app.last_result is not None and not app.running)
        assert app.embedded is None
        assert "not found" in app.notice and "Nothing was changed" in app.notice
