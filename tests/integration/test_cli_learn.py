"""`jobtracker learn`, end to end: repeated dismissals become a proposal to exclude a
word; accepting edits profile.yaml and undo restores it byte for byte; stats --json
carries the calibration."""

from __future__ import annotations

import json

import pytest

from jobtracker.config import load_profile
from jobtracker.workspace import Workspace
from tests import learning_seed
from tests.learning_seed import PROFILE, dismiss_principals, run

# The shared fixtures, bound here by name so that pytest finds them in this file.
seeded = learning_seed.seeded


def test_learn_proposes_an_exclude_from_repeated_dismissals_and_accept_undo_is_exact(
        seeded: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    dismiss_principals(seeded, capsys, 4)
    code, out, _ = run(seeded, capsys, "learn")
    assert code == 0 and "0 new proposal(s)" in out         # four decisions: nothing
    dismiss_principals(seeded, capsys, 7)
    code, out, _ = run(seeded, capsys, "learn", "--json")
    made = json.loads(out)["made"]
    summaries = [m["summary"] for m in made]
    assert "profile.yaml: add 'principal' to exclude — 7 of 7 dismissals for `role` had " \
           "'principal' in the title" in summaries
    pid = next(m["id"] for m in made if "'principal'" in m["summary"])
    code, out, _ = run(seeded, capsys, "proposals", "show", str(pid), "--json")
    shown = json.loads(out)
    assert shown["kind"] == "profile" and len(shown["payload"]["decisions"]) == 7
    code, out, _ = run(seeded, capsys, "proposals", "show", str(pid))
    model_line = next(line for line in out.splitlines() if line.strip().startswith("model"))
    assert "made by rules from your decisions" in model_line and "not a model" in model_line
    assert "unknown" not in model_line
    profile = seeded.home / "profile.yaml"
    before = profile.read_bytes()
    assert run(seeded, capsys, "proposals", "accept", str(pid))[0] == 0
    assert profile.read_text() == PROFILE.replace("exclude: [crypto]  # never",
                                                  "exclude: [crypto, principal]  # never")
    assert load_profile(profile).exclude == ("crypto", "principal")
    assert run(seeded, capsys, "proposals", "undo")[0] == 0
    assert profile.read_bytes() == before


def test_stats_json_has_a_calibration_entry_per_verdict(
        seeded: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    for posting, status in ((9, "applied"), (10, "interviewing")):
        assert run(seeded, capsys, "status", str(posting), status)[0] == 0
    dismiss_principals(seeded, capsys, 1)
    _, out, _ = run(seeded, capsys, "stats", "--json")
    calibration = {e["verdict"]: e for e in json.loads(out)["calibration"]}
    assert list(calibration) == ["strong", "good", "partial", "poor"]
    assert calibration["poor"]["applications"] == 1
    assert calibration["poor"]["interviews"] == 1
    assert calibration["poor"]["interview_rate"] is None          # under five applications
    assert calibration["poor"]["contradicted"] == [
        {"application": calibration["poor"]["contradicted"][0]["application"], "posting": 10,
         "outcome": "interview"}]
    assert calibration["good"]["contradicted"] == [{"posting": 1, "outcome": "dismissed: role"}]
    _code, out, _ = run(seeded, capsys, "stats")
    assert "calibration: each verdict and what it became" in out
    assert "contradicted: posting 10 was poor, then interview" in out
