"""learn's memory: a rejected suggestion is not made again for the same evidence."""

from __future__ import annotations

import json

import pytest

from jobtracker.workspace import Workspace
from tests import learning_seed
from tests.learning_seed import dismiss_principals, run

# The shared fixtures, bound here by name so that pytest finds them in this file.
seeded = learning_seed.seeded


def test_a_rejected_suggestion_is_not_made_again_for_the_same_evidence(
        seeded: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    dismiss_principals(seeded, capsys, 7)
    made = json.loads(run(seeded, capsys, "learn", "--json")[1])["made"]
    assert made
    assert run(seeded, capsys, "proposals", "reject", *[str(m["id"]) for m in made])[0] == 0
    again = json.loads(run(seeded, capsys, "learn", "--json")[1])
    assert again["made"] == [] and again["declined"] == len(made)
