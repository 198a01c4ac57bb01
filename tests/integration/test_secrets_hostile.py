"""A model server that echoes the credentials it was sent, in long error bodies.

Whatever form the secret takes (the bearer token, user:password, its base64, cut
anywhere by a length limit), it must reach no output channel: stdout, stderr,
events.jsonl, or any text column of the database.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from urllib.parse import quote

import pytest

from jobtracker.cli import main
from jobtracker.demo.httpserver import HTTPRequest, http_response
from jobtracker.workspace import Workspace
from tests.db import raw_connect
from tests.run_world import make_workspace
from tests.servers.model import ModelServer
from tui.cli import main as tui_main

TOKEN = "sk-live-9f8e7d6c5b4a39281706f5e4d3c2b1a0Zz"
USER, PASSWORD = "ada", "correct-horse-battery-staple"


class EchoServer(ModelServer):
    """Lists the model, then answers every chat call with an error that echoes the
    Authorization header and the URL, padded so each call's length cut lands elsewhere."""

    calls = 0

    async def respond(self, request: HTTPRequest) -> bytes | None:
        if request.path != "/v1/chat/completions":
            return await super().respond(request)
        self.received(request, None)
        EchoServer.calls += 1
        pad = "." * (EchoServer.calls * 7 % 130)
        auth = request.headers.get("authorization", "(none)")
        echo = (f"{pad} unauthorized: you sent Authorization: {auth} to {request.target}"
                f" (header {auth!r}, user {USER} password {PASSWORD}?)")
        shape = EchoServer.calls % 3
        if shape == 0:
            return http_response(401, json.dumps({"error": {"message": echo}}))
        if shape == 1:
            return http_response(403, json.dumps({"error": echo}))
        return http_response(400, echo, content_type="text/plain")


def forms() -> list[str]:
    pair = f"{USER}:{PASSWORD}"
    return [TOKEN, TOKEN[:16], TOKEN[-16:], quote(TOKEN, safe=""),
            base64.b64encode(TOKEN.encode()).decode(), PASSWORD, pair,
            base64.b64encode(pair.encode()).decode()]


def database_text(ws: Workspace) -> str:
    """Every text value of every table."""
    values: list[str] = []
    with raw_connect(ws.db) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for table in tables:
            for row in conn.execute(f'SELECT * FROM "{table}"'):
                values += [v for v in row if isinstance(v, str)]
    return "\n".join(values)


def channels(ws: Workspace, captured: pytest.CaptureFixture[str]) -> dict[str, str]:
    out = captured.readouterr()
    events = "\n".join(p.read_text() for p in (ws.home / "runs").glob("*/events.jsonl"))
    return {"stdout": out.out, "stderr": out.err, "events.jsonl": events,
            "database": database_text(ws)}


def assert_clean(found: dict[str, str]) -> None:
    for name, text in found.items():
        leaked = [form for form in forms() if form in text]
        assert not leaked, f"{name} holds {leaked}: {text[-2000:]}"


def test_an_echoed_bearer_token_reaches_no_channel(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("JT_HOSTILE_KEY", TOKEN)
    with EchoServer() as server:
        ws = make_workspace(tmp_path, server.url, postings=12)
        config = ws.home / "config.yaml"
        config.write_text(config.read_text().replace(
            "  model:", "  api_key_env: JT_HOSTILE_KEY\n  model:"))
        assert main(["--home", str(ws.home), "work", "--task", "level"]) == 1
        assert tui_main(["--run", "--home", str(ws.home), "--task", "level"]) in (0, 1)
        sent = {r.headers.get("authorization") for r in server.chat_requests}
    assert sent == {f"Bearer {TOKEN}"}          # the token was really sent, and echoed
    found = channels(ws, capsys)
    assert "HTTP 401" in found["database"] and "HTTP 403" in found["database"]
    assert "***" in found["events.jsonl"]
    assert_clean(found)


def test_user_info_in_a_run_url_is_never_sent(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with EchoServer() as server:
        ws = make_workspace(tmp_path, server.url, postings=6)
        url = server.url.replace("http://", f"http://{USER}:{quote(PASSWORD, safe='')}@")
        assert main(["--home", str(ws.home), "work", "--task", "level", "--llm-url", url]) == 1
        assert all("authorization" not in r.headers for r in server.requests)
    assert_clean(channels(ws, capsys))


def test_user_info_in_config_is_a_config_error_naming_the_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = make_workspace(tmp_path, None)
    (ws.home / "config.yaml").write_text(
        f"llm:\n  model: m\n  url: http://{USER}:{PASSWORD}@127.0.0.1:9/v1\n")
    assert main(["--home", str(ws.home), "check"]) == 2
    err = capsys.readouterr().err
    assert f"{ws.home / 'config.yaml'}:3: llm.url: a user name or password" in err
    assert PASSWORD not in err
