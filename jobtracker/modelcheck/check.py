"""`jobtracker model check`: can the configured model do this work?

Four parts, in order, each reported even when an earlier one failed: the server
(reachable, model listed, context window), prompt fit per enabled task, the
labelled evaluation set, and the replay of the user's decisions. The check is
not ok when the model cannot be asked, a prompt does not fit, or an accuracy is
below `min_accuracy`.
"""

from __future__ import annotations

import os

import httpx

from jobtracker import store
from jobtracker.config import DEFAULT_MIN_ACCURACY
from jobtracker.llm.client import LLMClient, display_url
from jobtracker.llm.local import run_client
from jobtracker.modelcheck import adapter, evalset, evaluate, fit
from jobtracker.modelcheck.evaluate import Progress
from jobtracker.modelcheck.report import CheckReport, ServerPart
from jobtracker.modelcheck.server import ContextWindow, Tokenizer, context_window
from jobtracker.runner import Setup
from jobtracker.tasks import ordered
from jobtracker.text import one_line

TOKENIZER_NAMES = {"llama.cpp": "llama.cpp POST /tokenize", "vllm": "vLLM POST /tokenize"}


def _headers(client: LLMClient) -> dict[str, str]:
    """The bearer token for the server's own endpoints, as the client sends it."""
    env = client.config.api_key_env
    token = os.environ.get(env) if env else None
    return {"Authorization": f"Bearer {token}"} if token else {}


def _server_part(client: LLMClient, window: ContextWindow) -> ServerPart:
    probe = client.last_probe
    reason = probe.reason if probe is not None else "not probed"
    part = ServerPart(url=display_url(client.base) if client.base else "-",
                      model=one_line(client.config.model, 100) or None,
                      reachable=probe is not None and (probe.ok or "not listed" in (reason or "")),
                      listed=probe is not None and probe.ok, reason=one_line(reason, 300) or None,
                      context=window.tokens, context_source=one_line(window.source, 60),
                      context_note=one_line(window.note, 200))
    return part


async def run_check(setup: Setup, *, min_accuracy: float = DEFAULT_MIN_ACCURACY,
                    per_task: int | None = None, progress: Progress) -> CheckReport:
    tasks = setup.tasks
    async with store.connect(setup.ws.db) as conn, \
            run_client(setup.config.llm, max_in_flight=1) as client, \
            httpx.AsyncClient() as http:
        ctx = adapter.context(setup)
        progress(f"model check: asking the server at {display_url(client.base or '-')}")
        probe = await client.probe()
        model = client.config.model or ""
        headers = _headers(client)
        window = (await context_window(http, client.base, model, headers) if client.base
                  else ContextWindow(None, "unknown", "no server"))
        report = CheckReport(_server_part(client, window), min_accuracy=min_accuracy)
        if not probe.ok:
            report.problems.append(f"the model cannot be asked: {report.server.reason}")

        tokenizers: dict[str, Tokenizer] = {}
        for task in tasks:
            task_model = client.config.model_for(task.name) or model
            if task_model not in tokenizers:
                tokenizers[task_model] = Tokenizer(http, client.base, task_model, window.kind,
                                                   headers)
            row = await fit.task_fit(conn, ctx, task, tokenizers[task_model], window.tokens)
            report.tasks.append(row)
            if not row.fits:
                report.problems.append(
                    f"{row.task}: a prompt of {row.largest_prompt_tokens:,} tokens plus "
                    f"{row.max_tokens:,} for the answer exceeds the context of "
                    f"{window.tokens:,} ({row.unit})")
        tokenizer = tokenizers.get(model)
        report.server.tokenizer = _tokenizer_line(window.kind, tokenizer)

        askable = [t for t in evalset.checkable(tasks) if client.available_for(t.name) is None]
        if probe.ok and askable:
            data = evalset.load(askable)
            items = data.for_tasks([t.name for t in askable], per_task)
            progress(f"model check: {len(items)} evaluation item(s), one at a time")
            contexts = {t.name: adapter.eval_context(ctx, data.profiles.get(t.name))
                        for t in askable}
            report.eval = await evaluate.run_eval(client, {t.name: t for t in askable},
                                                  contexts, items, progress)
            for part in report.eval:
                if part.accuracy is not None and part.accuracy < min_accuracy:
                    report.problems.append(f"{part.task}: accuracy {part.accuracy:.0%} is "
                                           f"below {min_accuracy:.0%}")
        # Decisions are replayed for every task that replays them, switched on or not:
        # what you decided stays a fair question for the model.
        replaying = [t for t in ordered() if t.evaluation is not None
                     and t.evaluation.replays and client.available_for(t.name) is None]
        if probe.ok and replaying:
            report.replay = await evaluate.replay(conn, client, ctx, replaying, progress)
        else:
            report.replay.note = "skipped: the model cannot be asked"
        return report


def _tokenizer_line(kind: str, tokenizer: Tokenizer | None) -> str:
    if tokenizer is not None and tokenizer.problem:
        return one_line(f"{tokenizer.problem}; prompts estimated instead", 200)
    if kind in TOKENIZER_NAMES:
        return TOKENIZER_NAMES[kind]
    return "none: prompt sizes are estimated (about 3.5 characters a token)"
