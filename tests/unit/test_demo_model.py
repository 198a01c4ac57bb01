"""The bundled demo model as a server: OpenAI-shaped, listing its names, 404 for an
unknown model, schema-valid answers."""

from __future__ import annotations

import json
from typing import Any

import httpx
import jsonschema
import pytest

from jobtracker.demo import DEMO_MODEL
from jobtracker.demo.model import DemoModelServer
from jobtracker.tasks import level


def chat(server: DemoModelServer, task: str, schema: dict[str, Any], text: str,
         model: str = DEMO_MODEL) -> httpx.Response:
    return httpx.post(f"{server.url}/chat/completions", timeout=10, json={
        "model": model, "temperature": 0, "max_tokens": 512,
        "messages": [{"role": "system", "content": "sys"}, {"role": "user", "content": text}],
        "response_format": {"type": "json_schema",
                            "json_schema": {"name": task, "schema": schema, "strict": True}}})


@pytest.fixture
def server() -> Any:
    with DemoModelServer(latency=0) as running:
        yield running


def test_it_lists_itself_and_the_names_it_was_given() -> None:
    with DemoModelServer(models=["qwen3:8b", DEMO_MODEL], latency=0) as server:
        listing = httpx.get(f"{server.url}/models", timeout=10).json()
    assert [m["id"] for m in listing["data"]] == [DEMO_MODEL, "qwen3:8b"]
    assert {m["owned_by"] for m in listing["data"]} == {"jobtracker-demo"}


def test_an_unknown_model_gets_404_like_a_real_server(server: DemoModelServer) -> None:
    response = chat(server, "level", level.SCHEMA, "Title: x", model="gpt-9")
    assert response.status_code == 404 and "gpt-9" in response.json()["error"]["message"]


def test_a_level_answer_is_schema_valid_and_reads_the_years_asked(
        server: DemoModelServer) -> None:
    response = chat(server, "level", level.SCHEMA,
                    "Title: Data Engineer\nCompany: X\n\nYou bring 8+ years of experience.")
    body = response.json()
    answer = json.loads(body["choices"][0]["message"]["content"])
    jsonschema.validate(answer, level.SCHEMA)
    assert answer["level"] == "staff"
    assert body["usage"]["completion_tokens"] > 0 and body["model"] == DEMO_MODEL


TOY_SCHEMA = {
    "type": "object",
    "properties": {
        "word": {"type": "string", "maxLength": 20},
        "count": {"type": "integer", "minimum": 1},
        "tags": {"type": "array", "minItems": 2, "maxItems": 3, "items": {"type": "string"}},
    },
    "required": ["word", "count", "tags"],
    "additionalProperties": False,
}


def test_a_task_with_no_hand_written_answer_still_gets_a_schema_valid_one(
        server: DemoModelServer) -> None:
    response = chat(server, "toy", TOY_SCHEMA, "Anything at all")
    answer = json.loads(response.json()["choices"][0]["message"]["content"])
    jsonschema.validate(answer, TOY_SCHEMA)
    assert answer["count"] >= 1 and len(answer["tags"]) == 2
