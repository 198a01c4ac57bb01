"""Parts 3 and 4 of the check: the evaluation set, and the replay of your decisions.

Each item is asked exactly as a real unit is: the task's `request()`, the project's
`LLMClient.ask` (schema, bounds, retries, the flat fallback), the task's `parse()`.
Items are asked one at a time, so a latency is one answer's and not a queue's; a
progress line per item tells a person watching that a slow model is still working.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from jobtracker.llm.client import LLMClient, LLMError
from jobtracker.modelcheck import adapter
from jobtracker.modelcheck.evalset import EvalItem
from jobtracker.modelcheck.report import ReplayPart, TaskEval
from jobtracker.tasks import Context, NoAnswer, Task, Unit
from jobtracker.text import one_line

if TYPE_CHECKING:
    import aiosqlite

Progress = Callable[[str], None]
REPLAY_LIMIT = 20      # most recent decisions re-asked


class _Outcome:
    """One item's answer: its label ('' when none), whether JSON came back, what it cost."""

    def __init__(self) -> None:
        self.label = ""
        self.valid = False
        self.first_try = False
        self.seconds = 0.0
        self.input_tokens = 0
        self.output_tokens = 0
        self.why = ""


async def ask(client: LLMClient, task: Task, unit: Unit, ctx: Context) -> _Outcome:
    """One unit through the task's own code, timed from request to parsed answer."""
    outcome = _Outcome()
    request = adapter.request(task, unit, ctx)
    started = time.perf_counter()
    try:
        answer = await client.ask(task.name, request.messages, request.schema,
                                  unit_key=f"modelcheck:{unit.unit_key}")
    except LLMError as exc:
        outcome.why = one_line(str(exc), 100)
    else:
        outcome.valid, outcome.first_try = True, answer.attempts == 1
        outcome.input_tokens, outcome.output_tokens = answer.input_tokens, answer.output_tokens
        try:
            outcome.label = adapter.answer_label(task, adapter.parse(task, unit, answer.data,
                                                                     ctx))
        except NoAnswer as exc:
            outcome.why = one_line(f"answer not grounded: {exc}", 100)
    outcome.seconds = time.perf_counter() - started
    return outcome


def _percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile: an actual observed value, never an interpolation."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered), math.ceil(share * len(ordered))) - 1)]


async def run_eval(client: LLMClient, tasks: dict[str, Task], contexts: dict[str, Context],
                   items: list[EvalItem], progress: Progress) -> list[TaskEval]:
    """Ask every item of `items` through its task (`tasks` by name), in the context
    `contexts` holds for that task (the profile its items were labelled for)."""
    results: dict[str, TaskEval] = {}
    seconds: dict[str, list[float]] = {}
    first_tries: dict[str, int] = {}
    valid: dict[str, int] = {}
    width = len(str(len(items)))
    for number, item in enumerate(items, 1):
        task, ctx = tasks[item.task], contexts[item.task]
        unit = adapter.eval_unit(task, number, item.fields, ctx)
        outcome = await ask(client, task, unit, ctx)
        part = results.setdefault(item.task, TaskEval(item.task, 0))
        part.items += 1
        right = item.right(outcome.label)
        part.correct += right
        valid[item.task] = valid.get(item.task, 0) + outcome.valid
        first_tries[item.task] = first_tries.get(item.task, 0) + outcome.first_try
        seconds.setdefault(item.task, []).append(outcome.seconds)
        part.input_tokens += outcome.input_tokens
        part.output_tokens += outcome.output_tokens
        got = outcome.label or f"no answer ({outcome.why})"
        if not right:
            part.wrong.append({"item": item.id, "expected": "/".join(item.accepted),
                               "got": got})
        verdict = "right" if right else f"WRONG: {got}"
        progress(f"model check: item {number:>{width}}/{len(items)} {item.task:<6} "
                 f"{item.id:<20} {outcome.seconds:5.1f} s  {verdict}")
    for name, part in results.items():
        part.accuracy = round(part.correct / part.items, 4)
        part.valid_json_rate = round(valid[name] / part.items, 4)
        part.valid_json_first_try_rate = round(first_tries[name] / part.items, 4)
        part.median_latency_ms = round(statistics.median(seconds[name]) * 1000)
        part.p95_latency_ms = round(_percentile(seconds[name], 0.95) * 1000)
        part.flat_fallback = client.flat_response_format
    return list(results.values())


async def replay(conn: aiosqlite.Connection, client: LLMClient, ctx: Context,
                 tasks: list[Task], progress: Progress) -> ReplayPart:
    """Ask again the units whose proposals you decided, for every task that replays its
    decisions. An answer agrees with an acceptance when it proposes the same thing (the
    same status, say), with a rejection when it does not."""
    kinds = " and ".join(dict.fromkeys(str(t.evaluation.replays) for t in tasks
                                       if t.evaluation is not None))
    decided = [(task, item) for task in tasks
               for item in await adapter.decided(conn, task, REPLAY_LIMIT)]
    part = ReplayPart(decisions=len(decided))
    if not decided:
        part.note = f"no decided {kinds} proposals yet; skipped"
        return part
    for number, (task, item) in enumerate(decided, 1):
        outcome = await ask(client, task, item.unit, ctx)
        proposes = adapter.proposes(task, outcome.label) == item.proposed
        agrees = outcome.valid and outcome.label != "" and proposes == item.accepted
        decision = "accepted" if item.accepted else "rejected"
        part.asked += 1
        part.agreed += agrees
        progress(f"model check: replay {number}/{len(decided)} {decision:<8} "
                 f"{outcome.seconds:5.1f} s  {'agrees' if agrees else 'differs'}")
    part.agreement = round(part.agreed / part.asked, 4)
    part.note = f"the {part.asked} most recent decision(s) on {kinds} proposals"
    return part
