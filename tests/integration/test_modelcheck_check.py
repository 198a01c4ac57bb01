"""`jobtracker model check` against the loopback model server playing each server family.

The server answers the evaluation items right or wrong on purpose, so accuracy, prompt
fit and the exit code are checked exactly; it also lies (impossible contexts, a broken
tokenizer), which must be reported and never crash the check."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from jobtracker.modelcheck import evalset
from jobtracker.tasks import ordered
from jobtracker.workspace import Workspace
from jobtracker.yamlfile import ConfigError
from tests.db import raw_connect
from tests.modelcheck_world import by_task, check, workspace
from tests.run_world import make_workspace
from tests.servers.model import Fault, ModelServer, count_tokens
from tests.servers.model_eval import EvalAnswers

LLAMA_PROPS = {"default_generation_settings": {"n_ctx": 8192}, "total_slots": 1}
ITEMS = evalset.load(ordered()).items


COUNTS = {t: sum(1 for i in ITEMS if i.task == t) for t in ("level", "judge", "inbox")}


def test_a_model_that_answers_every_item_right_passes_with_every_contract_key(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answers = EvalAnswers()
    with ModelServer(answer=answers, props=LLAMA_PROPS, tokenize=count_tokens) as server:
        ws = workspace(tmp_path, server, postings=3)
        code, report, err = check(ws, capsys)
    assert code == 0 and report["ok"] is True
    assert {"url", "model", "context", "context_source"} <= set(report["server"])
    assert report["server"]["context"] == 8192
    assert report["server"]["context_source"] == "llama.cpp GET /props"
    level = by_task(report["tasks"])["level"]
    assert {"task", "largest_prompt_tokens", "estimated", "max_tokens", "fits"} <= set(level)
    assert level["estimated"] is False and level["fits"] is True and level["max_tokens"] == 512
    assert level["largest_prompt_tokens"] > 50 and level["sampled"] == 3
    evals = by_task(report["eval"])
    assert {t: (e["items"], e["correct"], e["accuracy"], e["valid_json_rate"])
            for t, e in evals.items()} == {t: (n, n, 1.0, 1.0) for t, n in COUNTS.items()}
    for row in evals.values():
        assert {"median_latency_ms", "p95_latency_ms", "input_tokens", "output_tokens"} <= set(row)
        assert row["input_tokens"] > 0 and row["output_tokens"] > 0
    assert len(answers.asked) == sum(COUNTS.values())
    # One progress line per item on stderr.
    assert len(re.findall(r"model check: item +\d+/41 ", err)) == 41
    assert report["replay"]["asked"] == 0 and "skipped" in report["replay"]["note"]


@pytest.mark.parametrize(("wrong", "code", "accuracy"), [(4, 0, round(10 / 14, 4)),
                                                        (5, 1, round(9 / 14, 4))])
def test_accuracy_below_the_bar_fails_exactly_at_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], wrong: int, code: int,
        accuracy: float) -> None:
    wrong_ids = [i.id for i in ITEMS if i.task == "level"][:wrong]
    with ModelServer(answer=EvalAnswers(wrong_ids), props=LLAMA_PROPS,
                     tokenize=count_tokens) as server:
        ws = workspace(tmp_path, server, plugins="tasks: {level: true, judge: false, "
                       "inbox: false, tailor: false, answer: false, coverletter: false}\n")
        got, report, _ = check(ws, capsys)
    [level] = report["eval"]
    assert (level["correct"], level["accuracy"]) == (14 - wrong, accuracy)
    assert [w["item"] for w in level["wrong"]] == wrong_ids
    assert got == code and report["ok"] is (code == 0)


def test_vllm_context_comes_from_max_model_len_and_its_tokenizer_counts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with ModelServer(answer=EvalAnswers(), max_model_len=32768, tokenize=count_tokens) as server:
        ws = workspace(tmp_path, server, postings=1)
        code, report, _ = check(ws, capsys, "--items", "1")
        asked = [r.json for r in server.requests if r.path == "/tokenize"]
    assert code == 0
    assert (report["server"]["context"], report["server"]["context_source"]) == (
        32768, "vLLM max_model_len")
    assert by_task(report["tasks"])["level"]["estimated"] is False
    assert asked and "messages" in asked[0] and asked[0]["model"] == "test-model"
    assert [e["items"] for e in report["eval"]] == [1, 1, 1]


@pytest.mark.parametrize(("show", "ps", "context", "source"), [
    ({"model_info": {"qwen3.context_length": 40960}, "parameters": "num_ctx 8192\ntop_k 20"},
     None, 8192, "Ollama POST /api/show num_ctx"),
    ({"model_info": {"qwen3.context_length": 40960}, "parameters": "top_k 20"},
     {"models": [{"name": "test-model:latest", "context_length": 4096}]}, 4096,
     "Ollama GET /api/ps"),
    ({"model_info": {"qwen3.context_length": 40960}}, None, 2048, "Ollama default (assumed)"),
])
def test_ollama_context_is_what_it_runs_at_not_what_the_model_supports(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], show: dict[str, Any],
        ps: dict[str, Any] | None, context: int, source: str) -> None:
    with ModelServer(answer=EvalAnswers(), ollama_show=show, ollama_ps=ps) as server:
        ws = workspace(tmp_path, server, postings=1)
        code, report, _ = check(ws, capsys, "--items", "1")
    assert (report["server"]["context"], report["server"]["context_source"]) == (context, source)
    assert "40,960" in report["server"]["context_note"]
    # Ollama has no tokenizer endpoint: prompts are estimated, and say so.
    assert by_task(report["tasks"])["level"]["estimated"] is True
    assert code == 0


@pytest.mark.parametrize("n_ctx", [-5, 0, "4096", 10**12, True, None, 4096.5])
def test_an_impossible_context_is_reported_as_unknown_never_believed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], n_ctx: Any) -> None:
    props = {"default_generation_settings": {"n_ctx": n_ctx}}
    with ModelServer(answer=EvalAnswers(), props=props, tokenize=count_tokens) as server:
        ws = workspace(tmp_path, server, postings=1)
        code, report, _ = check(ws, capsys, "--items", "1")
    assert report["server"]["context"] is None
    assert report["server"]["context_source"] == "unknown"
    assert "not a plausible context" in report["server"]["context_note"]
    assert by_task(report["tasks"])["level"]["fits"] is True
    assert code == 0


@pytest.mark.parametrize("tokenizer", [
    Fault.status(500), Fault.raw("not json"), Fault.drop(),
    lambda body: {"tokens": []}, lambda body: {"tokens": "many"},
    lambda body: {"tokens": list(range(10**6))}, lambda body: {"count": -3},
])
def test_a_broken_tokenizer_is_reported_and_prompts_are_estimated(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], tokenizer: Any) -> None:
    with ModelServer(answer=EvalAnswers(), props=LLAMA_PROPS, tokenize=tokenizer) as server:
        ws = workspace(tmp_path, server, postings=2)
        code, report, _ = check(ws, capsys, "--items", "1")
    level = by_task(report["tasks"])["level"]
    assert level["estimated"] is True and level["largest_prompt_tokens"] > 0
    assert "estimated instead" in report["server"]["tokenizer"]
    assert code == 0


def test_an_unreachable_server_fails_but_every_part_is_reported(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = make_workspace(tmp_path, "http://127.0.0.1:9/v1", postings=1)
    code, report, _ = check(ws, capsys)
    assert code == 1 and report["ok"] is False
    assert report["server"]["reachable"] is False and report["server"]["context"] is None
    assert "unreachable" in report["server"]["reason"]
    assert [t["task"] for t in report["tasks"]] == ["level"]
    assert by_task(report["tasks"])["level"]["estimated"] is True
    assert report["eval"] == [] and "skipped" in report["replay"]["note"]


def test_the_llama_cpp_python_server_is_answered_in_the_flat_form(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with ModelServer(answer=EvalAnswers(), flat_only=True) as server:
        ws = workspace(tmp_path, server)
        code, report, _ = check(ws, capsys, "--items", "2")
    assert code == 0
    assert all(e["flat_fallback"] and e["accuracy"] == 1.0 for e in report["eval"])


DECISIONS = [  # (message body, proposed status, the user's decision, state the model says now)
    ("We would like to invite you to interview.", "interviewing", "accepted", "interview_request"),
    ("Sadly we chose another candidate.", "rejected", "accepted", "acknowledgement"),
    ("Thanks, we received your application.", "applied", "rejected", "not_application"),
]


def seed_decisions(ws: Workspace) -> None:
    with raw_connect(ws.db) as conn:
        for n, (body, to_status, decision, _state) in enumerate(DECISIONS, 1):
            conn.execute("INSERT INTO messages (key, content_hash, sender, subject, sent_at, "
                         "body, company, first_seen, state) VALUES (?, 'h', 'hr@acme.example', "
                         "?, '2026-11-01T00:00:00Z', ?, 'Acme', '2026-11-01T00:00:00Z', 'other')",
                         (f"m{n}@acme", f"About your application {n}", body))
            payload = {"to_status": to_status, "message": {"key": f"m{n}@acme"}}
            conn.execute("INSERT INTO proposals (kind, task, unit_key, payload, summary, state, "
                         "created_at, decided_at) VALUES ('status', 'inbox', ?, ?, 's', ?, "
                         "'2026-11-02T00:00:00Z', ?)",
                         (f"m:m{n}@acme", json.dumps(payload), decision,
                          f"2026-11-03T00:00:0{n}Z"))


def test_replay_asks_decided_messages_again_and_counts_agreement(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    replies = {body: state for body, _to, _d, state in DECISIONS}
    with ModelServer(answer=EvalAnswers(replies=replies), props=LLAMA_PROPS) as server:
        ws = workspace(tmp_path, server)
        seed_decisions(ws)
        code, report, err = check(ws, capsys, "--items", "1")
        replayed = [r for r in server.chat_requests
                    if any(b in str(r.json["messages"]) for b in replies)]
    # 1: accepted interviewing, now interview_request -> agrees; 2: accepted rejected, now
    # acknowledgement -> differs; 3: rejected applied, now not_application -> agrees.
    assert report["replay"] == {"decisions": 3, "asked": 3, "agreed": 2,
                                "agreement": round(2 / 3, 4),
                                "note": "the 3 most recent decision(s) on status proposals"}
    assert len(replayed) == 3 and err.count("model check: replay ") == 3
    assert code == 0


def test_a_stricter_bar_in_config_fails_what_the_default_passes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wrong_ids = [i.id for i in ITEMS if i.task == "level"][:4]   # 10 of 14
    with ModelServer(answer=EvalAnswers(wrong_ids), props=LLAMA_PROPS,
                     tokenize=count_tokens) as server:
        ws = workspace(tmp_path, server, plugins="tasks: {level: true, judge: false, "
                       "inbox: false, tailor: false, answer: false, coverletter: false}\n")
        config = ws.home / "config.yaml"
        config.write_text(config.read_text() + "model_check:\n  min_accuracy: 0.8\n")
        got, report, _ = check(ws, capsys)
    assert got == 1 and report["ok"] is False


def test_the_bar_comes_from_config(tmp_path: Path) -> None:
    from jobtracker.config import load_config

    path = tmp_path / "config.yaml"
    path.write_text("model_check:\n  min_accuracy: 0.9\n")
    assert load_config(path, ordered()).min_accuracy == 0.9
    path.write_text("model_check:\n  min_accuracy: 1.5\n")
    with pytest.raises(ConfigError, match=r"model_check\.min_accuracy"):
        load_config(path, ordered())
