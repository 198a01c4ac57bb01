"""`jobtracker model check` against the real tiny model on the embedded llama.cpp server.

A 135M model is no judge of anything, so no accuracy is required of it: what must
hold is that every figure is there and comes from the real server — its context
from /props, prompt sizes from its tokenizer, latencies and token counts from real
answers. One item per task keeps the tier fast; the figures are printed for the record.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from jobtracker.cli import main
from tests.run_world import make_workspace

pytestmark = pytest.mark.slow

MAX_TOKENS = {"default": 96, "level": 96, "judge": 192, "inbox": 160}
PLUGINS = ("tasks: {level: true, judge: true, inbox: true, tailor: false, "
           "answer: false, coverletter: false}\n")


def test_model_check_reports_every_figure_for_the_tiny_model(
        model_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = make_workspace(tmp_path, None, postings=2)
    (ws.home / "plugins.yaml").write_text(PLUGINS)
    (ws.home / "config.yaml").write_text(
        f"llm:\n  gguf: {model_file}\n  retries: 2\n  timeout: 45\n"
        f"  max_tokens: {json.dumps(MAX_TOKENS)}\n")
    capsys.readouterr()
    started = time.monotonic()
    code = main(["--home", str(ws.home), "model", "check", "--json", "--items", "1"])
    seconds = time.monotonic() - started
    out, err = capsys.readouterr()
    report = json.loads(out)

    server = report["server"]
    assert server["listed"] is True and server["model"] == model_file.stem
    assert server["context"] == 4096 and server["context_source"] == "llama.cpp GET /props"
    assert server["tokenizer"] == "llama.cpp POST /tokenize"
    level = next(t for t in report["tasks"] if t["task"] == "level")
    assert level["estimated"] is False and level["fits"] is True and level["sampled"] == 2
    assert 60 < level["largest_prompt_tokens"] < 400
    assert [e["task"] for e in report["eval"]] == ["level", "judge", "inbox"]
    for row in report["eval"]:
        assert row["items"] == 1 and row["accuracy"] in (0.0, 1.0)
        for figure in ("valid_json_rate", "valid_json_first_try_rate", "median_latency_ms",
                       "p95_latency_ms"):
            assert row[figure] is not None, figure
        assert row["median_latency_ms"] > 0
    assert sum(e["input_tokens"] for e in report["eval"]) > 0
    assert report["replay"]["asked"] == 0
    assert err.count("model check: item ") == 3
    # Whatever the tiny model answered, the exit code follows `ok`.
    assert code == (0 if report["ok"] else 1)
    print("\nmodel check, tiny model: " + "; ".join(
        f"{e['task']} {e['correct']}/{e['items']} right, json {e['valid_json_rate']:.0%}, "
        f"median {e['median_latency_ms']} ms, {e['input_tokens']}+{e['output_tokens']} tokens"
        for e in report["eval"]) + f"; level prompt {level['largest_prompt_tokens']} tokens; "
        f"check {seconds:.1f} s")
