"""A real HTTP server on 127.0.0.1 that speaks ntfy's publish API, for the digest's tests.

What ntfy does with a publish (docs.ntfy.sh/publish): `POST`/`PUT /<topic>` with the
message as the body and its options as headers (`Title`/`X-Title`, `Tags`,
`Priority`, `Markdown`, RFC 2047 for non-ASCII values), or `POST /` with a JSON object
(`topic`, `message`, `title`, ...). A topic is `[-_A-Za-z0-9]{1,64}`. With `token`
set, every publish needs `Authorization: Bearer <token>`, else 401 with ntfy's error
object. A message over 4,096 bytes is refused with 413 (ntfy.sh makes it an
attachment; a server without attachments refuses it). The answer is ntfy's message
object (`id`, `time`, `event: "message"`, `topic`, `message`, `title`).

Any other path with a JSON body is kept too, in `posts`, for the webhook channel.
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass
from email.header import decode_header, make_header
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

TOPIC = re.compile(r"[-_A-Za-z0-9]{1,64}")
MESSAGE_LIMIT = 4096


@dataclass(frozen=True)
class Published:
    topic: str
    message: str
    title: str
    tags: list[str]
    markdown: bool
    headers: dict[str, str]


@dataclass(frozen=True)
class Post:
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


def _header(headers: dict[str, str], *names: str) -> str:
    for name in names:
        if name in headers:
            return str(make_header(decode_header(headers[name])))
    return ""


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, *args: Any) -> None:
        pass

    def _answer(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_PUT(self) -> None:
        self.do_POST()

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        headers = {k.lower(): v for k, v in self.headers.items()}
        owner = self.server.owner
        with owner.lock:
            owner.posts.append(Post(self.path, headers, body))
        if owner.token and headers.get("authorization") != f"Bearer {owner.token}":
            self._answer(401, {"code": 40101, "http": 401, "error": "unauthorized"})
            return
        topic = self.path.strip("/")
        if topic == "":
            data = json.loads(body or b"{}")
            topic, message, title = data.get("topic", ""), data.get("message", ""), \
                data.get("title", "")
            tags, markdown = list(data.get("tags") or []), bool(data.get("markdown"))
        elif TOPIC.fullmatch(topic):
            message = body.decode("utf-8")
            title = _header(headers, "x-title", "title", "ti", "t")
            tags = [t for t in _header(headers, "x-tags", "tags", "tag", "ta").split(",") if t]
            markdown = _header(headers, "x-markdown", "markdown", "md").lower() in (
                "yes", "true", "1") or headers.get("content-type", "").startswith(
                "text/markdown")
        else:
            self._answer(200, {"ok": True})     # a webhook's path: kept in `posts` only
            return
        if len(body) > MESSAGE_LIMIT:
            self._answer(413, {"code": 41301, "http": 413, "error": "message too large"})
            return
        item = Published(topic, message, title, tags, markdown, headers)
        with owner.lock:
            owner.published.append(item)
        self._answer(200, {"id": f"m{len(owner.published)}", "time": int(time.time()),
                           "event": "message", "topic": topic, "message": message,
                           "title": title})


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    owner: NtfyServer


class NtfyServer:
    def __init__(self, token: str | None = None) -> None:
        self.token = token
        self.published: list[Published] = []
        self.posts: list[Post] = []
        self.lock = threading.Lock()
        self._http = _Server(("127.0.0.1", 0), _Handler)
        self._http.owner = self
        self.port = int(self._http.server_address[1])
        self._thread = threading.Thread(target=self._http.serve_forever, daemon=True)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def __enter__(self) -> NtfyServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._http.shutdown()
        self._http.server_close()
        self._thread.join(5)

    def wait_for(self, count: int, timeout: float = 10.0) -> list[Published]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.published) >= count:
                    return list(self.published)
            time.sleep(0.01)
        raise AssertionError(f"ntfy got {len(self.published)} message(s), not {count}")
