"""call_finished carries what the server said about its own work, when it said
something believable."""

from __future__ import annotations

import asyncio
from typing import Any

from jobtracker.config import LLMConfig
from jobtracker.llm.client import LLMClient
from jobtracker.workers.events import CallFinished, Event, set_current_job
from tests.servers.model import ModelServer

SCHEMA = {"type": "object", "properties": {"level": {"type": "string", "enum": ["senior"]}},
          "required": ["level"], "additionalProperties": False}


SYSTEM = {"role": "system", "content": "You read one posting. " * 40}


async def _ask_twice(server: ModelServer) -> list[Event]:
    events: list[Event] = []

    async def job(user: str) -> None:
        set_current_job(events.append, "Acme — Engineer", "level", key="p1")
        await client.ask("level", [SYSTEM, {"role": "user", "content": user}], SCHEMA,
                         unit_key=user)

    async with LLMClient(LLMConfig(url=server.url, model="test-model")) as client:
        await asyncio.create_task(job("<posting>first</posting>"))
        await asyncio.create_task(job("<posting>second one</posting>"))
    return events


async def test_call_finished_carries_what_the_server_said() -> None:
    with ModelServer(extra_fields=True) as server:
        events = await _ask_twice(server)
    first, second = (e for e in events if isinstance(e, CallFinished))
    assert first.cached_tokens == 0
    # The second prompt shares the system prompt with the first: the simulated slot
    # serves it from its cache.
    shared = len(SYSTEM["content"]) // 4
    assert second.cached_tokens is not None and second.cached_tokens >= shared
    assert second.evaluated_tokens == second.input_tokens - second.cached_tokens
    assert second.tokens_per_second == 40.0
    data = second.data
    assert {"model", "input_tokens", "output_tokens", "seconds", "cached_tokens",
            "evaluated_tokens", "tokens_per_second"} <= set(data)
    assert "cached)" in second.detail()


async def test_call_finished_without_timings_leaves_them_out() -> None:
    with ModelServer() as server:
        events = await _ask_twice(server)
    call = next(e for e in events if isinstance(e, CallFinished))
    assert call.cached_tokens is None
    assert set(call.data) == {"model", "input_tokens", "output_tokens", "seconds"}


async def test_a_lying_server_is_recorded_as_saying_nothing() -> None:
    with ModelServer(extra_fields=True) as server:
        server.timings = {"cache_n": -5, "prompt_n": "many", "predicted_per_second": -1}
        events = await _ask_twice(server)
    for call in (e for e in events if isinstance(e, CallFinished)):
        # cache_n is a lie: the figure from prompt_tokens_details stands in for it.
        assert call.cached_tokens == call.data["cached_tokens"]
        assert call.evaluated_tokens is None and call.tokens_per_second is None


def call(**data: Any) -> CallFinished:
    return CallFinished(kind="judge", **data)
