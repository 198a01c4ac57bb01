"""The base intake step does nothing: a step that overrides neither method brings in
nothing, waits for nothing and records no failure."""

from __future__ import annotations

from pathlib import Path

from jobtracker.config import Config, Profile
from jobtracker.intake.base import Step
from jobtracker.tasks import Context


class Idle(Step):
    name = "idle"


async def test_the_base_step_is_a_no_op(tmp_path: Path) -> None:
    ctx = Context(home=tmp_path, config=Config(), profile=Profile(), now="2026-01-01T00:00:00Z")
    await Idle().bring_in(None, ctx)             # no connection: the base touches none
    assert await Idle().waiting(None, ctx) == 0
    assert ctx.run.intake_failures == {}
