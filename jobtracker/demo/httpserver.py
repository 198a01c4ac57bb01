"""A small HTTP/1.1 server on 127.0.0.1, in a background thread with its own asyncio loop.

The demo serves its job boards (to the real fetch path) and its model (to the real
model client) through this, and the tests' model server extends it too. It speaks
just enough HTTP/1.1 for httpx: keep-alive, `Content-Length` bodies, no chunked
requests. Running in its own thread means the caller's event loop (a test's, the
runner's, the TUI's) and the server never block each other.

Subclasses override `respond()`::

    class Hello(LoopbackServer):
        async def respond(self, request: HTTPRequest) -> bytes | None:
            return http_response(200, '{"hello": "world"}')

    with Hello() as server:
        httpx.get(server.base + "/anything")
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

HOST = "127.0.0.1"
MAX_HEAD_BYTES = 4 * 1024 * 1024     # the stream limit: a request head or a line longer fails


@dataclass(frozen=True)
class HTTPRequest:
    """One request as read off the wire. Header names are lower-case."""

    method: str
    path: str          # without the query string
    target: str        # as sent, query included
    headers: dict[str, str]
    body: bytes


def http_response(status: int, body: str | bytes, headers: tuple[tuple[str, str], ...] = (),
                  content_type: str = "application/json") -> bytes:
    """A whole HTTP/1.1 response with a Content-Length, ready to write."""
    data = body.encode() if isinstance(body, str) else body
    extra = "".join(f"{name}: {value}\r\n" for name, value in headers)
    head = (f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n"
            f"Content-Type: {content_type}\r\nContent-Length: {len(data)}\r\n{extra}\r\n")
    return head.encode("latin-1") + data


def error_body(message: str, kind: str = "invalid_request_error") -> str:
    """An error in the OpenAI shape, which the other servers' clients read too."""
    return json.dumps({"error": {"message": message, "type": kind}})


class LoopbackServer:
    """Serves `respond()` on 127.0.0.1 (port 0: the system picks) until `stop()`."""

    thread_name = "loopback-http"

    def __init__(self) -> None:
        self.port = 0
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._connections: set[asyncio.Task[None]] = set()
        self._error: BaseException | None = None

    @property
    def base(self) -> str:
        """`http://127.0.0.1:PORT`, no trailing slash."""
        return f"http://{HOST}:{self.port}"

    async def respond(self, request: HTTPRequest) -> bytes | None:
        """The whole response to write, or None to close the connection unanswered."""
        return http_response(404, error_body(f"no route for {request.method} {request.path}"))

    # --- control, from the caller's thread ---

    def start(self) -> LoopbackServer:
        self._thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)
        self._thread.start()
        self._ready.wait(10)
        if self._error is not None:
            raise RuntimeError(f"{type(self).__name__} failed to start") from self._error
        return self

    def stop(self) -> None:
        if self._loop is not None and self._stopping is not None:
            with contextlib.suppress(RuntimeError):   # the loop already ended
                self._loop.call_soon_threadsafe(self._stopping.set)
        if self._thread is not None:
            self._thread.join(10)
        self._thread = None

    def __enter__(self) -> Any:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # --- the server's own thread and loop ---

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:  # surfaced by start(); a thread has nowhere else to say it
            self._error = exc
            self._ready.set()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        server = await asyncio.start_server(self._connection, HOST, 0, limit=MAX_HEAD_BYTES)
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        async with server:
            await self._stopping.wait()
            server.close()
            for task in list(self._connections):
                task.cancel()
            await asyncio.gather(*self._connections, return_exceptions=True)

    async def _connection(self, reader: asyncio.StreamReader,
                          writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._connections.add(task)
        try:
            while await self._exchange(reader, writer):
                pass
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError,
                ValueError):   # ValueError: a request line that is not HTTP
            pass
        except asyncio.CancelledError:
            # stop() cancels open connections. Ending quietly matters: the stream
            # protocol's done-callback would otherwise log the cancellation as an error.
            pass
        finally:
            self._connections.discard(task)
            writer.close()

    async def _exchange(self, reader: asyncio.StreamReader,
                        writer: asyncio.StreamWriter) -> bool:
        """Read one request and answer it; False when the connection should close."""
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError:
            return False   # the client closed an idle keep-alive connection
        request_line, *lines = head.decode("latin-1").split("\r\n")
        method, target, _version = request_line.split(" ", 2)
        headers = {}
        for line in lines:
            name, sep, value = line.partition(":")
            if sep:
                headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length") or 0)
        raw = await reader.readexactly(length) if length else b""
        response = await self.respond(
            HTTPRequest(method, target.split("?", 1)[0], target, headers, raw))
        if response is None:            # no answer at all: drop the connection
            writer.transport.abort()
            return False
        writer.write(response)
        await writer.drain()
        return headers.get("connection", "").lower() != "close"


class StaticServer(LoopbackServer):
    """Fixed bodies by path, for GET: the demo's job boards and feed."""

    thread_name = "demo-boards"

    def __init__(self, routes: dict[str, tuple[bytes, str]]) -> None:
        super().__init__()
        self.routes = routes       # path → (body, content type)

    def url(self, path: str) -> str:
        return self.base + path

    async def respond(self, request: HTTPRequest) -> bytes | None:
        found = self.routes.get(request.path) if request.method == "GET" else None
        if found is None:
            return http_response(404, "Not Found", content_type="text/plain")
        body, content_type = found
        return http_response(200, body, content_type=content_type)


__all__ = ["HTTPRequest", "LoopbackServer", "StaticServer", "error_body", "http_response"]
