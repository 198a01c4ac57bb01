"""why: every part of a score, adding up to it."""

from __future__ import annotations

import json

import pytest

from jobtracker.workspace import Workspace
from tests import learning_seed
from tests.learning_seed import run

# The shared fixtures, bound here by name so that pytest finds them in this file.
seeded = learning_seed.seeded


def test_why_holds_every_part_and_adds_up_to_the_score(
        seeded: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    _code, out, _ = run(seeded, capsys, "matches", "--json")
    for match in json.loads(out):
        assert set(match["why"]) == {"verdict", "remote", "location", "recency", "salary",
                                     "prerank", "learned"}
        assert sum(match["why"].values()) == pytest.approx(match["score"], abs=1e-3)
