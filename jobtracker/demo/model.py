"""The bundled demo model: an OpenAI-shaped server on 127.0.0.1 with canned answers.

`jobtracker-tui --demo` starts it when no model server is configured, so the queue
drains and proposals appear without a GPU. It is plainly not a model: every answer
is built from the request (jobtracker/demo/canned_answers.py), and it lists itself as
`jobtracker-demo`, the model name the demo workspace's config.yaml asks for.

`OpenAIServer` is the part a real server shares with it — `GET /v1/models` and
`POST /v1/chat/completions` in the OpenAI shape — and is what the tests' model
server (tests/servers/model.py) extends with fault injection.

Run it alone, to point any jobtracker command at it::

    python -m jobtracker.demo.model [--home DIR]     # prints its URL, Ctrl-C stops
    jobtracker work --llm-url http://127.0.0.1:PORT/v1
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import yaml

from jobtracker.demo import DEMO_MODEL, data_text
from jobtracker.demo.canned_answers import DemoAnswers, Resume, demo_of
from jobtracker.demo.httpserver import HTTPRequest, LoopbackServer, error_body, http_response

# Seconds per answer: each task's canned answer declares its own (`DemoAnswer.latency`),
# enough that a person watching the dashboard sees units in flight and the queue drain,
# short enough that the whole demo takes seconds. A task that declares no canned answer
# takes DEFAULT_LATENCY.
DEFAULT_LATENCY = 0.3
# Multiplies the latency (0 answers at once; tests set it low).
LATENCY_ENV = "JOBTRACKER_DEMO_LATENCY"


class OpenAIServer(LoopbackServer):
    """`GET /v1/models` and `POST /v1/chat/completions`, answered by `chat()`."""

    thread_name = "model-server"
    owned_by = "jobtracker"

    def __init__(self, models: Sequence[str]) -> None:
        super().__init__()
        self.models = list(models)

    @property
    def url(self) -> str:
        """The base URL a client is configured with: `http://127.0.0.1:PORT/v1`."""
        return f"{self.base}/v1"

    async def respond(self, request: HTTPRequest) -> bytes | None:
        try:
            body = json.loads(request.body) if request.body else None
        except ValueError:
            return http_response(400, error_body("request body is not JSON"))
        self.received(request, body)
        if request.method == "GET" and request.path == "/v1/models":
            return http_response(200, json.dumps(self.models_listing()))
        if request.method == "POST" and request.path == "/v1/chat/completions":
            if not isinstance(body, dict):
                return http_response(400, error_body("expected a JSON object"))
            return await self.chat(body)
        return http_response(404, error_body(f"no route for {request.method} {request.path}"))

    def received(self, request: HTTPRequest, body: Any) -> None:
        """Called with every well-formed request before it is answered (for recording)."""

    def models_listing(self) -> dict[str, Any]:
        return {"object": "list", "data": [
            {"id": m, "object": "model", "created": 0, "owned_by": self.owned_by}
            for m in self.models]}

    async def chat(self, body: dict[str, Any]) -> bytes | None:
        model = body.get("model")
        if model not in self.models:
            return http_response(404, error_body(f"model '{model}' not found",
                                                 "not_found_error"))
        return http_response(200, json.dumps(self.completion(body, self.answer(body))))

    def answer(self, body: dict[str, Any]) -> Any:
        """The answer content: a dict is JSON-encoded, a str is sent as is."""
        return {}

    def completion_id(self) -> str:
        return "chatcmpl-0"

    def completion(self, body: dict[str, Any], content: Any,
                   finish_reason: str = "stop") -> dict[str, Any]:
        """A chat completion carrying `content`; `usage` counts len(text) // 4."""
        text = content if isinstance(content, str) else json.dumps(content)
        prompt = sum(len(str(m.get("content", ""))) for m in body.get("messages") or ()
                     if isinstance(m, dict))
        usage: dict[str, Any] = {"prompt_tokens": max(1, prompt // 4),
                                 "completion_tokens": max(1, len(text) // 4)}
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        return {
            "id": self.completion_id(), "object": "chat.completion", "created": 0,
            "model": body.get("model"),
            "choices": [{"index": 0, "finish_reason": finish_reason,
                         "message": {"role": "assistant", "content": text}}],
            "usage": usage,
        }


def keywords_from(text: str | None) -> list[str]:
    """Every string in keywords.yaml, whatever its layout (lists, or lists under keys)."""
    try:
        data = yaml.safe_load(text or "")
    except yaml.YAMLError:
        return []
    found: list[str] = []
    stack = [data]
    while stack:
        item = stack.pop(0)
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _workspace_text(home: Path | None, name: str) -> str:
    path = home / name if home is not None else None
    if path is not None and path.is_file():
        return path.read_text(encoding="utf-8")
    return data_text(name)


def demo_resume(home: Path | None = None) -> Resume:
    """The resume and keywords the demo model draws on: the workspace's, else the
    package's own demo files."""
    return Resume(_workspace_text(home, "resume.md"),
                  keywords_from(_workspace_text(home, "keywords.yaml")))


class DemoModelServer(OpenAIServer):
    """The demo model. Lists `jobtracker-demo` plus any names given (the configured
    model, so a workspace that names another model still works with it)."""

    thread_name = "demo-model"
    owned_by = "jobtracker-demo"

    def __init__(self, resume: Resume | None = None, models: Sequence[str] = (),
                 latency: float | None = None) -> None:
        super().__init__([DEMO_MODEL, *(m for m in dict.fromkeys(models) if m != DEMO_MODEL)])
        self.answers: Callable[[dict[str, Any]], Any] = DemoAnswers(resume or demo_resume())
        if latency is None:
            latency = float(os.environ.get(LATENCY_ENV) or 1.0)
        self.scale = max(0.0, latency)
        self.chat_count = 0

    def completion_id(self) -> str:
        return f"chatcmpl-demo-{self.chat_count}"

    async def chat(self, body: dict[str, Any]) -> bytes | None:
        self.chat_count += 1
        demo = demo_of(body)
        delay = (demo.latency if demo is not None else DEFAULT_LATENCY) * self.scale
        if delay:
            await asyncio.sleep(delay)
        return await super().chat(body)

    def answer(self, body: dict[str, Any]) -> Any:
        return self.answers(body)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m jobtracker.demo.model",
        description="Serve the jobtracker demo model (canned answers) on 127.0.0.1.")
    parser.add_argument("--home", metavar="DIR",
                        help="a workspace whose resume.md and keywords.yaml to draw on")
    parser.add_argument("--model", action="append", default=[], metavar="NAME",
                        help="also answer to this model name (repeatable)")
    args = parser.parse_args(argv)
    resume = demo_resume(Path(args.home).expanduser() if args.home else None)
    with DemoModelServer(resume, args.model) as server:
        print(server.url, flush=True)
        print(f"demo model ({', '.join(server.models)}); Ctrl-C stops it", file=sys.stderr)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
