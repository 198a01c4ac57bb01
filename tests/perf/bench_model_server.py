"""How fast the test model server answers: N keep-alive clients, a fixed latency.

The loop-saturation benchmark runs 8 clients against a 20 ms answer time and
wants >= 95% of the ideal 8 / 0.020 = 400 answers/s, so the server must add as
little as possible per call. Two clients, in the same process as the server
(as in the benchmarks):

- `raw`: a minimal keep-alive client on asyncio streams — the server's own
  ceiling, with next to no client cost;
- `httpx`: a bare `httpx.AsyncClient`;
- `llm`: `jobtracker.llm.client.LLMClient.ask`, which adds answer parsing, validation
  and events to httpx — what a runner pays per call.

For reference it also times the bare timer (8 tasks sleeping `latency` in a
loop): no server, no sockets — the best any setup can do on this machine.

    .venv/bin/python tests/perf/bench_model_server.py [--calls 2000] [--clients 8]
                                                      [--latency 0.020]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from jobtracker.config import LLMConfig
from jobtracker.llm.client import LLMClient
from tests.servers.model import ModelServer

SCHEMA = {"type": "object", "additionalProperties": False, "required": ["level"],
          "properties": {"level": {"type": "string", "enum": ["senior", "staff", "unclear"]}}}
BODY = {"model": "test-model", "temperature": 0, "max_tokens": 64,
        "messages": [{"role": "user", "content": "What level is this posting? " * 20}],
        "response_format": {"type": "json_schema",
                            "json_schema": {"name": "level", "schema": SCHEMA, "strict": True}}}


async def httpx_client(http: httpx.AsyncClient, url: str, remaining: list[int]) -> None:
    while remaining:
        remaining.pop()
        response = await http.post(f"{url}/chat/completions", json=BODY)
        response.raise_for_status()
        response.json()


async def llm_client(client: LLMClient, remaining: list[int]) -> None:
    while remaining:
        key = remaining.pop()
        await client.ask("level", BODY["messages"], SCHEMA, unit_key=str(key))


async def raw_client(port: int, remaining: list[int]) -> None:
    body = json.dumps(BODY).encode()
    request = (b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
               b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
               % (len(body), body))
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    while remaining:
        remaining.pop()
        writer.write(request)
        head = await reader.readuntil(b"\r\n\r\n")
        length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
        json.loads(await reader.readexactly(length))
    writer.close()


async def sleeper(latency: float, remaining: list[int]) -> None:
    while remaining:
        remaining.pop()
        await asyncio.sleep(latency)


async def measure(server: ModelServer, kind: str, calls: int, clients: int) -> float:
    remaining = list(range(calls))
    start = time.perf_counter()
    if kind == "raw":
        await asyncio.gather(*(raw_client(server.port, remaining) for _ in range(clients)))
    elif kind == "timer":
        await asyncio.gather(*(sleeper(server.latency, remaining) for _ in range(clients)))
    elif kind == "llm":
        config = LLMConfig(url=server.url, model="test-model")
        async with LLMClient(config, max_in_flight=clients) as client:
            await client.probe()
            start = time.perf_counter()
            await asyncio.gather(*(llm_client(client, remaining) for _ in range(clients)))
    else:
        limits = httpx.Limits(max_keepalive_connections=clients)
        async with httpx.AsyncClient(limits=limits) as http:
            await http.get(f"{server.url}/models")
            start = time.perf_counter()
            await asyncio.gather(*(httpx_client(http, server.url, remaining)
                                   for _ in range(clients)))
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--latency", type=float, default=0.020)
    args = parser.parse_args()
    ideal = args.clients / args.latency if args.latency else float("inf")
    print(f"{args.calls} calls, {args.clients} clients, latency {args.latency * 1000:.0f} ms, "
          f"ideal {ideal:.0f}/s")
    for kind in ("timer", "raw", "httpx", "llm"):
        with ModelServer(latency=args.latency, record=False) as server:
            cpu = time.process_time()
            elapsed = asyncio.run(measure(server, kind, args.calls, args.clients))
            cpu = time.process_time() - cpu
            assert kind == "timer" or server.chat_count == args.calls
        rate = args.calls / elapsed
        print(f"  {kind:<6} {rate:7.0f} answers/s  ratio {rate / ideal:.3f}"
              f"  (process CPU {cpu * 1000 / args.calls:.2f} ms per call)")


if __name__ == "__main__":
    main()
