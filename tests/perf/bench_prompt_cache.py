"""How much of each task's prompt llama.cpp serves from its prefix cache.

    .venv/bin/python tests/perf/bench_prompt_cache.py [UNITS]

Runs the embedded llama.cpp server (the [local] extra) with the tiny test model and,
for every task, sends UNITS different units' real requests (the task's own
`request()`), at 1 and 2 slots (units sent one at a time, then two at a time), with
the server's prompt cache on and off (`cache_prompt`). Per task it prints the
unchanging prefix in tokens (the part two units' rendered prompts share, counted by
the server's tokenizer), the mean `cache_n` from the second unit of each slot on,
their ratio, and the wall time per call with and without the cache. Answers are cut
at a few tokens: what is measured is reading the prompt.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from jobtracker.llm import tiny as tiny_model
from jobtracker.llm.local import local_server
from jobtracker.tasks import REGISTRY, Request, Unit
from tests.realmodel.conftest import cache_dir
from tests.unit.test_tasks_base_prompts import CTX, email, posting

TITLES = ["Senior Backend Engineer", "Staff Platform Engineer", "Data Engineer",
          "Site Reliability Engineer", "Payments Engineer", "Backend Developer"]


def units(task: str, count: int) -> list[Unit]:
    if task == "inbox":
        return [email(f"m{i}@x", f"Recruiter {i} <r{i}@corp{i}.com>", f"Application {i}",
                      f"Thank you for applying to role {i}. We received it and will reply "
                      f"within {i + 2} weeks.", f"Corp{i}") for i in range(count)]
    return [posting(task, i + 1, TITLES[i % len(TITLES)], f"Company{i}",
                    f"Role {i}: build Python services, Kafka pipelines and Postgres schemas. "
                    f"{3 + i}+ years. Remote in Europe.") for i in range(count)]


async def prefix_tokens(http: httpx.AsyncClient, root: str, a: Request, b: Request) -> int:
    """Tokens of the longest prefix two rendered prompts share (the chat template's)."""
    rendered = []
    for request in (a, b):
        answer = await http.post(f"{root}/apply-template", json={"messages": request.messages})
        rendered.append(answer.json()["prompt"])
    shared = os.path.commonprefix(rendered)  # noqa: RUF071 (characters, as intended)
    tokens = await http.post(f"{root}/tokenize", json={"content": shared})
    return len(tokens.json()["tokens"])


async def ask(http: httpx.AsyncClient, base: str, model: str, task: str, request: Request,
              cache: bool) -> tuple[dict[str, Any], float]:
    started = time.perf_counter()
    answer = await http.post(f"{base}/chat/completions", timeout=300, json={
        "model": model, "messages": request.messages, "temperature": 0, "max_tokens": 4,
        "cache_prompt": cache})
    answer.raise_for_status()
    return answer.json()["timings"], time.perf_counter() - started


async def measure(gguf: Path, count: int) -> None:
    model = gguf.stem
    print(f"model {gguf.name}; {count} units per task; max_tokens 4\n")
    print(f"{'task':<12}{'slots':>5}{'prefix':>8}{'cached':>8}{'share':>7}"
          f"{'s/call':>8}{'no cache':>10}")
    for slots in (1, 2):
        async with local_server(gguf, n_parallel=slots) as base, httpx.AsyncClient() as http:
            root = base.removesuffix("/v1")
            for name in sorted(REGISTRY, key=lambda n: REGISTRY[n].priority):
                task = REGISTRY[name]
                requests = [task.request(u, CTX) for u in units(name, count)]
                prefix = await prefix_tokens(http, root, requests[0], requests[1])
                walls: dict[bool, list[float]] = {True: [], False: []}
                cached: list[int] = []
                for cache in (False, True):
                    # a fresh slot state: a prompt unlike any task's
                    await ask(http, base, model, name,
                              Request([{"role": "user", "content": "hello"}], {}), False)
                    for start in range(0, count, slots):
                        batch = requests[start:start + slots]
                        done = await asyncio.gather(*(ask(http, base, model, name, r, cache)
                                                      for r in batch))
                        for timings, wall in done:
                            walls[cache].append(wall)   # one call's round trip
                            if cache and start >= slots:   # after each slot's first unit
                                cached.append(int(timings.get("cache_n", 0)))
                mean_cached = statistics.fmean(cached) if cached else 0.0
                print(f"{name:<12}{slots:>5}{prefix:>8}{mean_cached:>8.0f}"
                      f"{mean_cached / prefix:>7.0%}"
                      f"{statistics.fmean(walls[True][slots:]):>8.2f}"
                      f"{statistics.fmean(walls[False][slots:]):>10.2f}")


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    gguf = tiny_model.fetch(cache_dir())
    asyncio.run(measure(gguf, count))


if __name__ == "__main__":
    main()
