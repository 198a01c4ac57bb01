"""A model server that drips, streams for ever, nests its JSON or lies with numbers: the
probe, every call and `model check`'s reads end by a total deadline and a byte budget,
never with a traceback; `--deadline` bounds a run from its first exchange."""

from __future__ import annotations

import asyncio
import contextlib
import socketserver
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from jobtracker.config import LLMConfig
from jobtracker.llm import client as llm_client
from jobtracker.llm.client import LLMClient, LLMError
from jobtracker.modelcheck import server as inspect
from jobtracker.workspace import Workspace
from tests.conftest import run_cli
from tests.imap.conftest import message
from tests.servers.imap_faults import FaultImap


class _Handler(socketserver.StreamRequestHandler):
    server: _Server

    def handle(self) -> None:
        owner = self.server.owner
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.rfile.readline(65536)
            if not chunk:
                return
            head += chunk
        lines = head.decode("latin-1").split("\r\n")
        path = lines[0].split()[1]
        length = next((int(line.split(":", 1)[1]) for line in lines
                       if line.lower().startswith("content-length:")), 0)
        if length:
            self.rfile.read(length)
        owner.asked.append(path)
        with contextlib.suppress(OSError):
            owner.answer(self, path)


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    owner: Hostile


class Hostile:
    """Answers every path in one hostile way: `drip` (a JSON body one byte every
    `pause` s), `flood` (a chunked body of spaces for ever), `deep` (a JSON body nested
    `depth` deep), or `body` (the given bytes as a 200 JSON answer)."""

    def __init__(self, mode: str, *, pause: float = 0.2, depth: int = 200_000,
                 body: bytes = b"") -> None:
        self.mode, self.pause, self.depth, self.body = mode, pause, depth, body
        self.asked: list[str] = []
        self.sent = 0
        self.stopping = threading.Event()
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.owner = self
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def answer(self, handler: _Handler, path: str) -> None:
        out = handler.wfile
        if self.mode == "flood":
            out.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                      b"Transfer-Encoding: chunked\r\n\r\n")
            chunk = b" " * 65536
            while not self.stopping.is_set():
                out.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                self.sent += len(chunk)
            return
        body = {"drip": b'{"object": "list", "data": [{"id": "test-model"}]}' + b" " * 200,
                "deep": b"[" * self.depth + b"]" * self.depth,
                "body": self.body}[self.mode]
        out.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                  b"Content-Length: %d\r\n\r\n" % len(body))
        if self.mode != "drip":
            out.write(body)
            return
        for index in range(len(body)):
            out.write(body[index:index + 1])
            out.flush()
            if self.stopping.wait(self.pause):
                return

    def __enter__(self) -> Hostile:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stopping.set()
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture
def short(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(llm_client, "PROBE_TIMEOUT", 1.0)
    monkeypatch.setattr(inspect, "INSPECT_TIMEOUT", 1.0)


def config(url: str, **extra: Any) -> LLMConfig:
    return LLMConfig(url=url, model="test-model", timeout=2, retries=1, **extra)


async def probe(url: str) -> Any:
    async with LLMClient(config(url)) as client:
        return await client.probe()


async def ask(url: str) -> Any:
    async with LLMClient(config(url)) as client:
        return await client.ask("level", [{"role": "user", "content": "x"}],
                                {"type": "object"}, unit_key="u")


def test_a_dripped_model_listing_ends_at_the_probes_total_deadline(short: None) -> None:
    with Hostile("drip", pause=0.05) as server:     # ~13 s to the end of the body
        started = time.monotonic()
        result = asyncio.run(probe(server.url))
        took = time.monotonic() - started
    assert not result.ok and "within 1 s" in (result.reason or "")
    assert took < 3


def test_a_model_listing_streamed_for_ever_stops_at_its_byte_budget() -> None:
    with Hostile("flood") as server:
        result = asyncio.run(probe(server.url))
        sent = server.sent
    assert not result.ok and "larger than 4 MB" in (result.reason or "")
    assert sent < llm_client.MAX_LISTING_BYTES + 16 * 1024 * 1024


def test_a_chat_answer_streamed_for_ever_fails_the_call_at_its_byte_budget() -> None:
    with Hostile("flood") as server:
        started = time.monotonic()
        with pytest.raises(LLMError, match="larger than 8 MB"):
            asyncio.run(ask(server.url))
    assert time.monotonic() - started < 2


@pytest.mark.parametrize("depth", [5_000, 200_000])
def test_deeply_nested_json_is_not_understood_never_a_crash(depth: int) -> None:
    with Hostile("deep", depth=depth) as server:
        result = asyncio.run(probe(server.url))
        assert not result.ok and "not understood" in (result.reason or "")
        with pytest.raises(LLMError):
            asyncio.run(ask(server.url))


@pytest.mark.parametrize("content", ["[" * 100_000 + "]" * 100_000,
                                     '{"level": ' + "[" * 50_000 + "]" * 50_000 + "}"])
def test_a_deeply_nested_answer_content_is_a_failed_call(content: str) -> None:
    import json

    completion = {"choices": [{"message": {"content": content}, "finish_reason": "stop"}]}
    with Hostile("body", body=json.dumps(completion).encode()) as server, \
            pytest.raises(LLMError, match="not JSON"):
        asyncio.run(ask(server.url))


async def window(url: str) -> inspect.ContextWindow:
    async with httpx.AsyncClient() as http:
        return await inspect.context_window(http, url, "test-model", {})


def test_model_check_reads_have_a_total_deadline(short: None) -> None:
    with Hostile("drip", pause=0.05) as server:
        started = time.monotonic()
        found = asyncio.run(window(server.url))
    assert found.tokens is None
    assert time.monotonic() - started < 4 * 1.0 + 2    # four reads, 1 s each at most


@pytest.mark.parametrize("mode", ["deep", "flood"])
def test_model_check_reads_survive_nesting_and_floods(mode: str) -> None:
    with Hostile(mode, depth=100_000) as server:
        found = asyncio.run(window(server.url))
    assert found.tokens is None


@pytest.mark.parametrize("digits", [13, 5000, 40_000])
def test_a_num_ctx_of_thousands_of_digits_is_not_believed(digits: int) -> None:
    found = inspect._ollama({"parameters": f"num_ctx {'9' * digits}\n"}, None, "m")
    assert found.tokens is None and "not a plausible context" in found.note


def test_a_context_of_thousands_of_digits_in_json_is_not_believed() -> None:
    body = b'{"default_generation_settings": {"n_ctx": ' + b"9" * 5000 + b"}}"
    with Hostile("body", body=body) as server:
        assert asyncio.run(window(server.url)).tokens is None


# --- the run's deadline, from the first exchange on -------------------------------------

@pytest.fixture
def drip_imap() -> Iterator[FaultImap]:
    with FaultImap({1: message(1)}, fault="drip", drip_at="greeting",
                   drip_seconds=1.0) as server:
        yield server


def test_the_runs_deadline_bounds_the_mail_brought_in_before_the_probe(
        ws: Workspace, drip_imap: FaultImap) -> None:
    (ws.home / "config.yaml").write_text(
        f"llm: {{url: 'http://127.0.0.1:9/v1', model: m, retries: 1, timeout: 2}}\n"
        f"imap: {{host: 127.0.0.1, port: {drip_imap.port}, user: ada, "
        "password_env: JT_IMAP_PW, tls: false}\n")
    started = time.monotonic()
    done = run_cli("--home", str(ws.home), "--run", "--deadline", "2s",
                   env={"JT_IMAP_PW": "pw"}, module="tui", timeout=40)
    took = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    assert "deadline" in done.stdout and "Traceback" not in done.stderr
    assert took < 12, f"{took:.1f} s: the deadline did not bound the first exchange"


def test_a_run_without_a_model_that_read_mail_does_not_say_nothing_changed(
        ws: Workspace) -> None:
    maildir = ws.home / "mail"
    for part in ("new", "cur", "tmp"):
        (maildir / part).mkdir(parents=True)
    (maildir / "new" / "1.eml").write_bytes(message(1))
    (ws.home / "config.yaml").write_text(
        f"llm: {{url: 'http://127.0.0.1:9/v1', model: m, retries: 1, timeout: 2}}\n"
        f"maildir: {maildir}\n")
    first = run_cli("--home", str(ws.home), "work")
    assert first.returncode == 0, first.stderr
    assert "Nothing was changed" not in first.stdout
    assert "read in before the model check" in first.stdout
    again = run_cli("--home", str(ws.home), "work")      # nothing new this time
    assert "Nothing was changed" in again.stdout
