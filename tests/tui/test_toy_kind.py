"""A fourth kind renders as itself: the toy `note` kind (tests/toy_kind.py), added to
the registry alone, shows in the review by its own word, brief and detail, and the
review says what its accept says. The TUI names no kind of its own."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from jobtracker import proposals
from jobtracker.runner import load_setup
from tests.toy_kind import toy_kind
from tests.tui.fixtures import make_workspace, screen_text, wait_until
from tui.app import JobtrackerApp
from tui.screens.review import ReviewScreen

TUI = Path(__file__).resolve().parents[2] / "tui"


async def test_the_toy_kind_opens_in_the_review_as_itself(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = make_workspace(tmp_path, None)
    with sqlite3.connect(ws.db) as conn:
        conn.execute(
            "INSERT INTO proposals (id, kind, task, unit_key, payload, summary, created_at) "
            "VALUES (1, 'note', 'toy', 'u1', ?, 'a note', '2026-11-29T00:00:00Z')",
            (json.dumps({"text": "hello [b]there[/b]", "where": "a talk",
                         "company": "Acme"}),))
    with toy_kind(tmp_path, monkeypatch) as toy:
        app = JobtrackerApp(load_setup(ws))
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(pilot, lambda: "1 proposal waiting" in screen_text(app))
            await pilot.press("p")
            await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen)
                             and app.screen.current is not None)
            text = screen_text(app)
            assert "1 waiting: 1 note" in text
            assert "● note   keep: hello [b]there[/b]" in text      # its word and brief
            assert "#1 note from toy" in text
            assert "A sentence to keep" in text                     # its detail
            assert re.search(r"Note +hello \[b\]there\[/b\]", text)   # shown, never applied
            assert re.search(r"Where +heard in a talk", text)
            assert "-forgotten" in text and "+kept for good" in text
            await pilot.press("a")
            await wait_until(pilot, lambda: "noted 1 as note #1" in screen_text(app))
            assert toy.NOTES == ["hello [b]there[/b]"]
            assert "✓ note   keep: hello" in screen_text(app)


def test_the_tui_names_no_proposal_kind() -> None:
    """What a kind shows is the kind's: the review, its views and the data behind them
    name no kind, and nowhere in the TUI is a proposal's kind compared with a name
    (the kinds named like ordinary words, `status` or `letter`, are words elsewhere)."""
    quoted = re.compile("|".join(rf"[\"']{name}[\"']" for name in proposals.KINDS))
    views = [TUI / "proposal_view.py", TUI / "screens" / "review.py", TUI / "data.py"]
    assert [f"{path.name}:{text}" for path in views
            for text in path.read_text().splitlines() if quoted.search(text)] == []
    compared = re.compile(r"resume_edit|(proposal|\bp|item)\.kind\s*(==|!=|in\b)")
    assert [f"{path.relative_to(TUI)}:{text}" for path in sorted(TUI.rglob("*.py"))
            if path.name != "cli.py" for text in path.read_text().splitlines()
            if compared.search(text)] == []
