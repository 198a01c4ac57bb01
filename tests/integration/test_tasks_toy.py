"""Adding a task is one module and one registry entry: a toy task, written to a folder
on sys.path, imported and put in `jobtracker.tasks.REGISTRY` (what an entry in its tuple
does), shows up everywhere a task does with no other edit — the survey, `work
--dry-run`, config validation (its answer bound and its own setting), the demo model's
answers, `model check` (its evaluation items) and the TUI's queue."""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from jobtracker import runner, tasks
from jobtracker.cli import main
from jobtracker.demo.httpserver import HTTPRequest
from jobtracker.demo.model import DemoModelServer
from jobtracker.run.setup import config_of
from jobtracker.tasks.canned import DemoAnswer, Resume
from jobtracker.workspace import Workspace
from jobtracker.yamlfile import ConfigError
from tests.tui.fixtures import make_workspace, screen_text, seed_postings
from tui.app import JobtrackerApp
from tui.widgets.queue import QueueTable

TOY_MODULE = '''
"""toy: one word about each posting. Its answers live in memory: a toy needs no table."""

from pathlib import Path
from typing import Any

from jobtracker.config import Setting
from jobtracker.tasks.base import (POSTING_COLUMNS, Evaluation, Request, Task, eval_posting,
                                   posting_unit)

ANSWERED: dict[int, str] = {}
HOOKS: list[tuple[str, int]] = []     # the runner's calls to the hooks, in order
SCHEMA = {"type": "object", "properties": {"word": {"type": "string", "maxLength": 20}},
          "required": ["word"], "additionalProperties": False}


class ToyTask(Task):
    name = "toy"
    priority = 70
    summary = "say one word about each posting"
    max_tokens = 48
    settings = {"loudness": Setting(default=1, maximum=10)}
    evaluation = Evaluation(Path(__file__).with_name("toy_items.yaml"), answer_field="word",
                            accepts={"any word": ("example", "word")})

    async def pending(self, conn, ctx, limit=None, subject=None):
        rows = await conn.execute_fetchall(
            f"SELECT {POSTING_COLUMNS} FROM postings AS p ORDER BY p.id")
        units = [posting_unit(self.name, row) for row in rows
                 if row["id"] not in ANSWERED and subject in (None, row["id"])]
        return units if limit is None else units[:limit]

    def request(self, unit, ctx):
        return Request(messages=[{"role": "user", "content": unit.data["title"]}],
                       schema=SCHEMA)

    def parse(self, unit, answer: dict[str, Any], ctx):
        return {"word": answer["word"], "loudness": self.setting(ctx, "loudness")}

    def eval_unit(self, number, fields, ctx):
        return posting_unit(self.name, eval_posting(number, fields))

    async def apply(self, conn, unit, result, ctx, model):
        ANSWERED[unit.subject] = result["word"]
        return "said"

    async def bring_in(self, conn, ctx):
        HOOKS.append(("bring_in", 0))

    async def after_applied(self, conn, ctx, applied):
        HOOKS.append(("after_applied", applied))


TASK = ToyTask()
'''

# The toy's evaluation: the demo model answers every item "example", which the first
# item's label accepts and the second's does not.
TOY_ITEMS = '''
items:
  - {id: toy-right, expect: any word, title: Backend Engineer, description: "Build APIs."}
  - {id: toy-wrong, expect: silence, title: Data Engineer, description: "Build pipelines."}
'''

# Every shipped task switched off, so the toy (on by its own default) is alone.
SHIPPED_OFF = "level: false, judge: false, inbox: false"


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "toy_task.py").write_text(TOY_MODULE)
    (folder / "toy_items.yaml").write_text(TOY_ITEMS)
    monkeypatch.syspath_prepend(str(folder))
    module = importlib.import_module("toy_task")
    with tasks.REGISTRY.extended(module.TASK):   # the one registry entry
        yield module
    sys.modules.pop("toy_task", None)


def toy_workspace(tmp_path: Path, url: str | None, postings: int) -> Workspace:
    ws = make_workspace(tmp_path, url, tasks=SHIPPED_OFF)
    seed_postings(ws.db, postings)
    return ws


async def test_the_toy_is_in_the_survey(toy: ModuleType, tmp_path: Path) -> None:
    ws = toy_workspace(tmp_path, None, 3)
    setup = runner.load_setup(ws)
    assert [t.name for t in setup.tasks] == ["toy"]
    states, chosen = await runner.dry_run(setup)
    assert states == [runner.TaskState("toy", 70, "say one word about each posting", 3)]
    assert chosen == states[0]


def test_the_toy_is_in_work_dry_run(toy: ModuleType, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    ws = toy_workspace(tmp_path, None, 3)
    capsys.readouterr()
    assert main(["--home", str(ws.home), "work", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "   70  toy        3 pending\n                  say one word about each posting" in out
    assert out.rstrip().endswith("Would work: toy (3 unit(s))")


def test_config_accepts_the_toy_by_name_and_uses_its_declared_bound(
        toy: ModuleType, tmp_path: Path) -> None:
    ws = toy_workspace(tmp_path, None, 0)
    assert config_of(ws).llm.max_tokens_for("toy") == 48          # declared by the task
    (ws.home / "config.yaml").write_text(
        "llm:\n  models: {toy: small}\n  max_tokens: {toy: 64}\n")
    llm = config_of(ws).llm
    assert (llm.max_tokens_for("toy"), llm.model_for("toy")) == (64, "small")
    (ws.home / "config.yaml").write_text("llm:\n  max_tokens: {toy: 64, nosuch: 64}\n")
    with pytest.raises(ConfigError, match=r"config.yaml:2: llm.max_tokens.nosuch: unknown key"):
        config_of(ws)
    (ws.home / "config.yaml").write_text("")
    (ws.home / "plugins.yaml").write_text("tasks: {level: false, toy: false}\n")
    assert [t.name for t in runner.load_setup(ws).tasks] == ["judge", "inbox", "tailor",
                                                             "answer"]


def test_without_the_toy_module_its_name_is_refused(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path)
    (ws.home / "config.yaml").write_text("llm:\n  max_tokens: {toy: 64}\n")
    with pytest.raises(ConfigError, match=r"llm.max_tokens.toy: unknown key"):
        config_of(ws)


def test_config_checks_the_toys_own_setting_as_it_declares_it(
        toy: ModuleType, tmp_path: Path) -> None:
    ws = toy_workspace(tmp_path, None, 0)
    ctx = runner.load_setup(ws).context("2026-12-01T00:00:00Z")
    assert toy.TASK.setting(ctx, "loudness") == 1                   # its declared default
    (ws.home / "config.yaml").write_text("toy:\n  loudness: 7\n")
    assert config_of(ws).task_settings["toy"] == {"loudness": 7}
    (ws.home / "config.yaml").write_text("toy:\n  loudness: 11\n")
    with pytest.raises(ConfigError, match=r"config.yaml:2: toy.loudness: must be a number "
                                          r"from 0 to 10"):
        config_of(ws)
    (ws.home / "config.yaml").write_text("toy:\n  shyness: 1\n")
    with pytest.raises(ConfigError, match=r"config.yaml:2: toy.shyness: unknown key "
                                          r"\(expected one of: loudness\)"):
        config_of(ws)


def test_without_the_toy_module_its_section_is_refused(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path)
    (ws.home / "config.yaml").write_text("toy:\n  loudness: 7\n")
    with pytest.raises(ConfigError, match=r"config.yaml:1: toy: unknown key"):
        config_of(ws)


def test_model_check_asks_the_toys_items_and_scores_its_declared_field(
        toy: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with DemoModelServer(models=["test-model"], latency=0) as server:
        ws = toy_workspace(tmp_path, server.url, 1)
        capsys.readouterr()
        code = main(["--home", str(ws.home), "model", "check", "--json"])
        report = json.loads(capsys.readouterr().out)
    [fit] = report["tasks"]
    assert (fit["task"], fit["sampled"], fit["max_tokens"]) == ("toy", 1, 48)
    [toy_eval] = report["eval"]
    assert (toy_eval["task"], toy_eval["items"], toy_eval["correct"]) == ("toy", 2, 1)
    assert toy_eval["wrong"] == [{"item": "toy-wrong", "expected": "silence",
                                  "got": "example"}]
    assert code == 1 and report["ok"] is False                      # 50% is below the bar
    assert report["problems"] == ["toy: accuracy 50% is below 70%"]


class RecordingDemoModel(DemoModelServer):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.asked: list[dict[str, Any]] = []

    def received(self, request: HTTPRequest, body: Any) -> None:
        if isinstance(body, dict) and "messages" in body:
            self.asked.append(body)


def test_the_demo_model_answers_the_toy_and_the_run_finishes_its_units(
        toy: ModuleType, tmp_path: Path) -> None:
    with RecordingDemoModel(models=["test-model"], latency=0) as server:
        ws = toy_workspace(tmp_path, server.url, 3)
        assert main(["--home", str(ws.home), "work"]) == 0
    answered, hooks = toy.ANSWERED, toy.HOOKS
    assert answered == dict.fromkeys((1, 2, 3), "example")   # the schema's instance
    assert hooks == [("bring_in", 0), ("after_applied", 3)]
    assert [(b["response_format"]["json_schema"]["name"], b["max_tokens"])
            for b in server.asked] == [("toy", 48)] * 3
    events = [json.loads(line) for run in (ws.home / "runs").iterdir()
              for line in (run / "events.jsonl").read_text().splitlines()]
    assert [e["kind"] for e in events if e["type"] == "job_finished"] == ["toy"] * 3


def toy_canned(text: str, resume: Resume) -> dict[str, Any]:
    """The toy's canned answer, read off its question (the posting's title)."""
    return {"word": "no." + text.rsplit(" ", 1)[-1]}


def test_a_toy_that_declares_its_canned_answer_gets_it_from_the_demo_model(
        toy: ModuleType, tmp_path: Path, extend: Callable[..., object]) -> None:
    # The toy with a canned answer: a class attribute and one registry entry, no edit
    # to jobtracker/demo/.
    canned = type("CannedToyTask", (toy.ToyTask,),
                  {"demo": DemoAnswer(toy_canned, latency=0.0, field="word")})()
    extend(tasks.REGISTRY, canned)
    with RecordingDemoModel(models=["test-model"], latency=0) as server:
        ws = toy_workspace(tmp_path, server.url, 3)
        assert main(["--home", str(ws.home), "work"]) == 0
        flat = {"messages": [{"role": "user", "content": "Engineer 7"}],
                "response_format": {"type": "json_object", "schema": toy.SCHEMA}}
        assert server.answers(flat) == {"word": "no.7"}    # told apart by its field
    assert toy.ANSWERED == {1: "no.1", 2: "no.2", 3: "no.3"}
    assert len(server.asked) == 3


async def test_the_toy_is_in_the_tui_queue(toy: ModuleType, tmp_path: Path) -> None:
    ws = toy_workspace(tmp_path, None, 2)
    app = JobtrackerApp(runner.load_setup(ws))
    async with app.run_test(size=(80, 24)) as pilot:
        queue = app.query_one(QueueTable)
        for _ in range(100):
            if queue.row_count:
                break
            await pilot.pause(0.05)
        await pilot.pause(0.2)
        assert [(s.name, s.pending) for s in queue.states] == [("toy", 2)]
        assert "toy" in screen_text(app)
