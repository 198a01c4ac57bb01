"""The embedded model server: llama.cpp (the `xllamacpp` wheel) on 127.0.0.1 for one run.

With `llm.gguf` in config.yaml (or `--gguf PATH`) a user needs no model server
of their own: the run starts llama.cpp's OpenAI-compatible server in this
process, on a free loopback port, waits until `GET /v1/models` answers, talks
to it through the ordinary `LLMClient`, and stops it when the run ends —
normally, on an error, or when the run is cancelled (Ctrl-C cancels the run's
task, so the `finally` below runs).

`xllamacpp` is an optional extra (`pip install 'jobtracker[local]'`). Without
it, or without a readable GGUF file, model tasks show as unavailable with the
reason; the run changes nothing, as with an unreachable server.

xllamacpp's `Server` has no stop method: its destructor stops the HTTP thread
and frees the model. So exactly one reference to it is kept (in
`EmbeddedServer`), and stopping means dropping that reference — in a worker
thread, because the destructor waits for the server's loop to exit.

A server is never stopped before its task loop has run. `Server(params)` returns
once the model is loaded, which is a moment before llama.cpp's task loop starts,
and that start sets the loop's "running" flag without looking at it: a stop that
lands in between is lost, the destructor then waits for ever and, holding the
GIL, freezes the whole process (seen about one start in eight on two busy cores).
`GET /slots` is answered by the task loop itself, so one answer to it proves
the loop is running; `_wait_ready` asks it, and `EmbeddedServer.stop` asks it
first when nothing has yet.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx

from jobtracker import files
from jobtracker.config import LLMConfig
from jobtracker.llm.client import LLMClient, ProbeResult

GGUF_MAGIC = b"GGUF"
EXTRA_HINT = "pip install 'jobtracker[local]'"
# Context per parallel slot: the longest prompt (6,000 characters of posting, about
# 1,500 tokens, plus instructions) and the longest answer (1,500 tokens) fit.
SLOT_CONTEXT = 4096
# Loading a multi-gigabyte model from a cold disk can take a while.
READY_TIMEOUT = 300.0
_POLL = 0.1
# How long a stop waits for the task loop's first answer before stopping regardless.
_LOOP_ANSWER_TIMEOUT = 60.0
# llama.cpp's OpenMP threads spin while they wait for work. On a machine doing anything
# else (this process's own event loop, a TUI, a test suite) spinning threads starve each
# other: measured 20x slower per token on 2 busy cores. Passive waiting gives cores back.
# libgomp reads this once, when it is loaded, so it is set before the first import.
_OPENMP_ENV = {"OMP_WAIT_POLICY": "PASSIVE"}
# llama.cpp's log verbosity: 1 keeps errors (a file that will not load says why) and
# drops the per-request chatter that would drown a headless run's own lines.
_LOG_ERRORS_ONLY = 1


class LocalModelUnavailable(Exception):
    """The embedded model cannot be used; `str()` is the reason, one line for people."""


def unavailable_reason(gguf: Path) -> str | None:
    """Why `gguf` cannot be served here (None when it can be tried)."""
    if gguf.is_dir():
        return f"llm.gguf {gguf} is a folder, not a model file"
    try:
        magic = files.read_head(gguf, len(GGUF_MAGIC))
    except files.FileRefused as exc:
        return f"model file {gguf} unreadable: {exc.reason}"
    if magic is None:
        return f"model file {gguf} not found (llm.gguf)"
    if magic != GGUF_MAGIC:
        return f"{gguf} is not a GGUF model file"
    try:
        load_xllamacpp()
    except ImportError:
        return f"llm.gguf needs the embedded llama.cpp server: {EXTRA_HINT}"
    return None


def load_xllamacpp() -> Any:
    """Import the optional extra (ImportError without it), with OpenMP set to wait passively
    unless the user chose otherwise."""
    for name, value in _OPENMP_ENV.items():
        os.environ.setdefault(name, value)
    import xllamacpp

    return xllamacpp


def model_alias(gguf: Path) -> str:
    """The name the embedded server lists its one model under (and answers carry)."""
    return gguf.name.removesuffix(".gguf") or "local"


class EmbeddedServer:
    """One running xllamacpp server. Holds the only reference to it."""

    def __init__(self, server: Any, address: str, alias: str) -> None:
        self._server = server
        self.root_url = address.rstrip("/")
        self.base_url = self.root_url + "/v1"
        self.alias = alias
        # True once the task loop has answered (see the module's docstring).
        self.loop_answered = False

    @property
    def running(self) -> bool:
        return self._server is not None

    def stop(self) -> None:
        """Blocking: dropping the last reference runs ~Server, which stops and frees it —
        after the task loop has answered once, so that the stop cannot be lost."""
        if self._server is None:
            return
        if not self.loop_answered:
            with contextlib.suppress(httpx.HTTPError):
                httpx.get(f"{self.root_url}/slots", timeout=_LOOP_ANSWER_TIMEOUT)
            self.loop_answered = True
        self._server = None


def _params(gguf: Path, alias: str, n_parallel: int, slot_context: int,
            threads: int | None) -> Any:
    xllamacpp = load_xllamacpp()
    params = xllamacpp.CommonParams()
    params.model.path = str(gguf)
    params.model_alias = {alias}
    params.hostnames = ["127.0.0.1"]
    params.port = 0                      # the kernel picks a free port: no race
    params.n_parallel = n_parallel
    params.n_ctx = slot_context * n_parallel   # llama.cpp splits n_ctx across slots
    params.warmup = False                # a warm-up pass costs seconds and answers nothing
    params.verbosity = _LOG_ERRORS_ONLY
    params.endpoint_slots = True         # GET /slots: the task loop's answer (see above)
    if threads:
        params.cpuparams.n_threads = threads
        params.cpuparams_batch.n_threads = threads
    return params


def _construct(params: Any, alias: str) -> EmbeddedServer:
    server = load_xllamacpp().Server(params)    # blocks until the model is loaded and listening
    return EmbeddedServer(server, server.listening_address, alias)


async def start_server(gguf: Path, *, n_parallel: int = 2, slot_context: int = SLOT_CONTEXT,
                       threads: int | None = None,
                       ready_timeout: float = READY_TIMEOUT) -> EmbeddedServer:
    """Start llama.cpp for `gguf` and wait until it answers; LocalModelUnavailable if not.

    If the caller is cancelled while the model loads, the load (which cannot be
    interrupted) is waited for and the server stopped before the cancellation
    goes on, so nothing is left listening.
    """
    reason = unavailable_reason(gguf)
    if reason is not None:
        raise LocalModelUnavailable(reason)
    alias = model_alias(gguf)
    params = _params(gguf, alias, max(1, n_parallel), slot_context, threads)
    loading = asyncio.get_running_loop().run_in_executor(None, _construct, params, alias)
    try:
        embedded = await asyncio.shield(loading)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            await _stop(await loading)
        raise
    except RuntimeError as exc:
        # xllamacpp says only "Failed to init server"; llama.cpp's own log line (kept
        # at error verbosity) names the cause on stderr.
        raise LocalModelUnavailable(
            f"llama.cpp could not load {gguf} ({exc}; see its error above)") from None
    try:
        await _wait_ready(embedded, ready_timeout)
    except BaseException:
        await _stop(embedded)
        raise
    return embedded


async def _stop(embedded: EmbeddedServer) -> None:
    # The thread finishes the stop even if this await is cancelled again.
    await asyncio.to_thread(embedded.stop)


async def _wait_ready(embedded: EmbeddedServer, timeout: float) -> None:
    """Until GET /v1/models answers 200 (the question the probe asks) and the task loop
    has answered GET /slots (the loop is running: a stop from now on is not lost)."""
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient() as http:
        while True:
            with contextlib.suppress(httpx.HTTPError):
                models = await http.get(f"{embedded.base_url}/models", timeout=5)
                if models.status_code == 200:
                    slots = await http.get(f"{embedded.root_url}/slots", timeout=timeout)
                    if slots.status_code == 200:
                        embedded.loop_answered = True
                        return
            if time.monotonic() >= deadline:
                raise LocalModelUnavailable(
                    f"embedded llama.cpp server did not answer within {timeout:g} s")
            await asyncio.sleep(_POLL)


@contextlib.asynccontextmanager
async def local_server(gguf: Path, *, n_parallel: int = 2, slot_context: int = SLOT_CONTEXT,
                       threads: int | None = None,
                       ready_timeout: float = READY_TIMEOUT) -> AsyncIterator[str]:
    """`async with local_server(path) as base_url:` — llama.cpp serving `path` meanwhile.

    `base_url` ends in `/v1`. The server is stopped on leaving, however that happens.
    """
    embedded = await start_server(gguf, n_parallel=n_parallel, slot_context=slot_context,
                                  threads=threads, ready_timeout=ready_timeout)
    try:
        yield embedded.base_url
    finally:
        await _stop(embedded)


def embedded_config(config: LLMConfig, base_url: str) -> LLMConfig:
    """`config` pointed at the embedded server: its one model for every task, no token."""
    alias = model_alias(config.gguf) if config.gguf else "local"
    return replace(config, url=base_url, model=alias, models={}, api_key_env=None)


class _UnavailableClient(LLMClient):
    """Stands in for the embedded model that could not start: the probe says why,
    so the run reports the queue and changes nothing, like any missing server."""

    def __init__(self, config: LLMConfig, reason: str) -> None:
        super().__init__(replace(config, url=None, models={}))
        self.reason = reason

    async def probe(self) -> ProbeResult:
        self.last_probe = ProbeResult(False, self.reason)
        return self.last_probe


@contextlib.asynccontextmanager
async def run_client(config: LLMConfig, *, max_in_flight: int) -> AsyncIterator[LLMClient]:
    """The run's model client: for `config.gguf`, against an embedded server started for
    the run (one slot per call in flight); otherwise against `config.url` as written."""
    async with contextlib.AsyncExitStack() as stack:
        client: LLMClient
        if config.gguf is None:
            client = LLMClient(config, max_in_flight=max_in_flight)
        else:
            try:
                url = await stack.enter_async_context(
                    local_server(config.gguf, n_parallel=max_in_flight))
            except LocalModelUnavailable as exc:
                client = _UnavailableClient(config, str(exc))
            else:
                client = LLMClient(embedded_config(config, url), max_in_flight=max_in_flight)
        async with client:
            yield client


__all__ = ["EmbeddedServer", "LocalModelUnavailable", "embedded_config", "local_server",
           "model_alias", "run_client", "start_server", "unavailable_reason"]
