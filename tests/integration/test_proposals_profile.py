"""The profile kind: a profile edited since the suggestion makes it stale and
unappliable."""

from __future__ import annotations

import json

import pytest

from jobtracker.workspace import Workspace
from tests import learning_seed
from tests.learning_seed import dismiss_principals, run

# The shared fixtures, bound here by name so that pytest finds them in this file.
seeded = learning_seed.seeded


def test_a_profile_edited_since_the_suggestion_makes_it_stale_and_unappliable(
        seeded: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    dismiss_principals(seeded, capsys, 7)
    made = json.loads(run(seeded, capsys, "learn", "--json")[1])["made"]
    profile = seeded.home / "profile.yaml"
    edited = profile.read_text() + "# my own edit\n"
    profile.write_text(edited)
    code, out, _ = run(seeded, capsys, "proposals", "show", str(made[0]["id"]), "--json")
    assert json.loads(out)["state"] == "stale"
    code, out, _err = run(seeded, capsys, "proposals", "accept", str(made[0]["id"]))
    assert code != 0
    assert profile.read_text() == edited
