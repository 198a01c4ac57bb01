"""A run's call totals: the prompt-cache share, what was generated and how fast."""

from __future__ import annotations

from typing import Any

from jobtracker.workers.calltotals import CallTotals
from jobtracker.workers.events import CallFinished, JobFinished


def call(**data: Any) -> CallFinished:
    return CallFinished(kind="judge", **data)


def test_totals_say_prompt_cache_share_generated_and_speed() -> None:
    totals = CallTotals()
    assert totals.describe() == ""
    totals.emit(JobFinished(kind="judge"))
    totals.emit(call(input_tokens=1000, output_tokens=100, seconds=3.0, cached_tokens=0,
                     tokens_per_second=50.0))
    totals.emit(call(input_tokens=1000, output_tokens=60, seconds=2.0, cached_tokens=900,
                     tokens_per_second=30.0))
    assert totals.calls == 2
    # 160 generated over 2 s + 2 s of the server's own generation time
    assert totals.describe() == "tokens: 2,000 prompt (45% cached), 160 generated, 40.0 tok/s"


def test_totals_without_server_timings_use_round_trips() -> None:
    totals = CallTotals()
    totals.emit(call(input_tokens=300, output_tokens=30, seconds=1.5))
    totals.emit(call(input_tokens=300, output_tokens=30, seconds=1.5))
    assert totals.describe() == "tokens: 600 prompt, 60 generated, 20.0 tok/s"
