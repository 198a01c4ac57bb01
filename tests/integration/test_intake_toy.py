"""Adding an intake step is one module and one registry entry: a toy step (put in
`jobtracker.intake.REGISTRY` through its one helper) and a toy task that names it in its
`intake` are driven through `jobtracker work`. The run brings the step's input in before
it surveys the queue (and before the tasks' own `bring_in`), the queue between runs
counts what the step would bring as pending, and a step that cannot read its input makes
its task unavailable for that run with the reason, kept in the run's context."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from jobtracker import intake, tasks
from jobtracker.cli import main
from jobtracker.tasks.base import Request, Task, Unit
from jobtracker.workspace import Workspace
from tests.tui.fixtures import make_workspace

CALLS: list[str] = []           # what the run called, in order
BROUGHT: list[str] = []         # what the toy step brought in (its "table")


class ToyStep(intake.Step):
    name = "toybox"

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    async def bring_in(self, conn: Any, ctx: tasks.Context) -> None:
        CALLS.append("intake")
        if not self.folder.is_dir():
            ctx.run.intake_failures[self.name] = f"toybox: {self.folder.name} is gone"
            return
        BROUGHT.extend(sorted(p.name for p in self.folder.iterdir() if p.name not in BROUGHT))

    async def waiting(self, conn: Any, ctx: tasks.Context) -> int:
        return sum(1 for p in self.folder.iterdir() if p.name not in BROUGHT)


class ReaderTask(Task):
    name = "reader"
    priority = 70
    summary = "read what the toy step brought in"
    system = "Say one word."
    schema: ClassVar[dict[str, Any]] = {"type": "object"}
    intake = ("toybox",)

    def unavailable_reason(self, ctx: tasks.Context) -> str | None:
        return ctx.run.intake_failures.get("toybox")

    async def bring_in(self, conn: Any, ctx: tasks.Context) -> None:
        CALLS.append("hook")

    async def count(self, conn: Any, ctx: tasks.Context) -> int:
        CALLS.append("survey")
        return len(BROUGHT)

    async def pending(self, conn: Any, ctx: tasks.Context, limit: int | None = None,
                      subject: int | str | None = None) -> list[Unit]:
        return [Unit(task=self.name, unit_key=n, label=n, subject=n) for n in BROUGHT]

    def request(self, unit: Unit, ctx: tasks.Context) -> Request:
        return self.build_request("", unit.label)


@pytest.fixture
def box(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "box"
    folder.mkdir()
    for name in ("a.txt", "b.txt"):
        (folder / name).write_text(name)
    CALLS.clear()
    BROUGHT.clear()
    with intake.REGISTRY.extended(ToyStep(folder)), tasks.REGISTRY.extended(ReaderTask()):
        yield folder


def workspace(tmp_path: Path) -> Workspace:
    # Every shipped task off, so the reader (on by its default) is alone; no model.
    return make_workspace(tmp_path, "http://127.0.0.1:9", tasks="level: false, judge: false, "
                                                                "inbox: false")


def queue_line(out: str) -> str:
    (line,) = [line for line in out.splitlines() if line.startswith("   70  reader")]
    return line


def test_the_step_runs_before_the_survey_and_the_hooks(
        box: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = workspace(tmp_path)
    capsys.readouterr()
    assert main(["--home", str(ws.home), "work", "--dry-run"]) == 0
    assert queue_line(capsys.readouterr().out) == "   70  reader     2 pending"
    assert BROUGHT == [], "a dry run counts what is waiting and brings nothing in"

    CALLS.clear()
    assert main(["--home", str(ws.home), "work"]) == 0
    assert CALLS[:3] == ["intake", "hook", "survey"]
    assert BROUGHT == ["a.txt", "b.txt"]
    out = capsys.readouterr().out
    assert queue_line(out) == ("   70  reader     unavailable — model server at "
                               "http://127.0.0.1:9/v1 unreachable: ConnectError")


def test_a_step_that_cannot_read_makes_its_task_unavailable_for_that_run(
        box: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = workspace(tmp_path)
    for path in box.iterdir():
        path.unlink()
    box.rmdir()
    capsys.readouterr()
    assert main(["--home", str(ws.home), "work"]) == 0
    assert queue_line(capsys.readouterr().out) == (
        "   70  reader     unavailable — toybox: box is gone")

    box.mkdir()                  # the next run has its own context: the reason is gone
    assert main(["--home", str(ws.home), "work"]) == 0
    assert "unavailable — model server" in queue_line(capsys.readouterr().out)


def test_a_task_is_only_brought_in_for_when_it_is_on(box: Path, tmp_path: Path) -> None:
    ws = workspace(tmp_path)
    (ws.home / "plugins.yaml").write_text("tasks: {level: false, judge: false, inbox: false, "
                                          "reader: false}\n")
    assert main(["--home", str(ws.home), "work"]) == 0
    assert "intake" not in CALLS and BROUGHT == []
