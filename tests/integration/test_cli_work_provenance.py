"""Provenance and server timings from `jobtracker work`: a run against a server that
reports llama.cpp's timings, what events.jsonl and the closing line say, which model
`matches --json` names, and `work --reask-stale-prompts`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jobtracker.cli import main
from jobtracker.tasks import REGISTRY
from jobtracker.workspace import Workspace
from tests.db import raw_connect
from tests.servers.model import ModelServer

NOW = "2026-09-01T00:00:00Z"


PROFILE = ("prose: Senior backend engineer, Python and Kafka, remote in Europe.\n"
           "levels: [senior]\n")


def workspace(tmp_path: Path, url: str) -> Workspace:
    ws = Workspace(tmp_path / "home")
    ws.init()
    (ws.home / "profile.yaml").write_text(PROFILE)
    (ws.home / "plugins.yaml").write_text("tasks: {level: false, judge: true, inbox: false, "
                                          "tailor: false, answer: false, coverletter: false}\n")
    (ws.home / "config.yaml").write_text(
        f"llm:\n  url: {url}\n  model: test-model\n  retries: 1\n  timeout: 5\n"
        "concurrency: 1\n")
    assert main(["--home", str(ws.home), "check"]) == 0
    with raw_connect(ws.db) as conn:
        conn.execute("INSERT INTO boards (id, source, token, company) "
                     "VALUES (1, 'greenhouse', 'acme', 'Acme')")
        conn.executemany(
            "INSERT INTO postings (id, board_id, external_id, company, title, location, "
            "description, title_level, first_seen, last_seen) "
            "VALUES (?, 1, ?, 'Acme', ?, 'Remote', ?, 'senior', ?, ?)",
            [(i, f"e{i}", f"Senior Engineer {i}", f"Posting {i}: Python services.", NOW, NOW)
             for i in (1, 2, 3)])
    return ws


@pytest.fixture
def server() -> ModelServer:
    with ModelServer(extra_fields=True) as srv:
        yield srv


def test_a_run_records_timings_and_says_what_the_cache_served(
        tmp_path: Path, server: ModelServer, capsys: pytest.CaptureFixture[str]) -> None:
    ws = workspace(tmp_path, server.url)
    assert main(["--home", str(ws.home), "work"]) == 0
    tokens_line, last = capsys.readouterr().out.splitlines()[-2:]
    (run_dir,) = list(ws.runs.iterdir())
    events = [json.loads(line) for line in (run_dir / "events.jsonl").read_text().splitlines()]
    calls = [e["data"] for e in events if e["type"] == "call_finished"]
    assert len(calls) == 3
    assert all({"model", "input_tokens", "output_tokens", "cached_tokens", "evaluated_tokens",
                "tokens_per_second"} <= set(c) for c in calls)
    # One slot, the same profile first in every prompt: units after the first reuse it.
    assert calls[0]["cached_tokens"] == 0
    assert all(c["cached_tokens"] > 0 for c in calls[1:])
    prompt = sum(c["input_tokens"] for c in calls)
    cached = sum(c["cached_tokens"] for c in calls)
    generated = sum(c["output_tokens"] for c in calls)
    assert "3 finished, 0 failed, 0 skipped in 0:00:" in last
    assert tokens_line.endswith(f"calls  run     tokens: {prompt:,} prompt ({cached / prompt:.0%}"
                                f" cached), {generated:,} generated, 40.0 tok/s")

    # Which model answered: matches --json, and every ranking row.
    capsys.readouterr()
    assert main(["--home", str(ws.home), "matches", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert len(found) == 3
    version = REGISTRY["judge"].prompt_version
    assert {(m["model"], m["prompt_version"]) for m in found} == {("test-model", version)}


def test_reask_stale_prompts_is_counted_in_the_dry_run_and_asks_again(
        tmp_path: Path, server: ModelServer, capsys: pytest.CaptureFixture[str]) -> None:
    ws = workspace(tmp_path, server.url)
    assert main(["--home", str(ws.home), "work"]) == 0
    with raw_connect(ws.db) as conn:    # two answers from an older prompt, one unknown
        conn.execute("UPDATE rankings SET prompt_version = 'aaaaaaaaaaaa' WHERE posting_id = 1")
        conn.execute("UPDATE rankings SET prompt_version = NULL WHERE posting_id = 2")
    capsys.readouterr()
    assert main(["--home", str(ws.home), "work", "--dry-run"]) == 0
    assert "Would work: nothing" in capsys.readouterr().out
    asked = server.chat_count
    assert main(["--home", str(ws.home), "work"]) == 0
    assert server.chat_count == asked                 # a new version re-asks nothing by itself
    capsys.readouterr()
    assert main(["--home", str(ws.home), "work", "--dry-run", "--reask-stale-prompts"]) == 0
    out = capsys.readouterr().out
    assert "   20  judge      2 pending" in out and "Would work: judge (2 unit(s))" in out
    assert main(["--home", str(ws.home), "work", "--reask-stale-prompts"]) == 0
    assert server.chat_count == asked + 2
    with raw_connect(ws.db) as conn:
        versions = {row[0] for row in conn.execute("SELECT prompt_version FROM rankings")}
    assert versions == {REGISTRY["judge"].prompt_version}
