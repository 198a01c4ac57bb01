"""The review's diff marks the words that changed inside a line, without colour."""

from __future__ import annotations

import io

from rich.console import Console
from rich.table import Table
from rich.text import Text

from jobtracker.proposals.lines import diff
from tui.proposal_view import rendered


def unified_diff(original: str, replacement: str) -> Table:
    """The diff a resume edit shows, as the review lays it out (one grid)."""
    (grid,) = rendered(diff(original, replacement))
    assert isinstance(grid, Table)
    return grid

BULLET = ("- Built and ran the billing service in Python, handling 40k requests per second "
          "across three regions with on-call ownership")


def marked_words(grid: Table) -> dict[str, list[str]]:
    """Per -/+ mark, the text of the spans drawn in reverse video."""
    marks, texts = grid.columns[0].cells, grid.columns[1].cells
    found: dict[str, list[str]] = {"-": [], "+": []}
    for mark, text in zip(marks, texts, strict=True):
        assert isinstance(mark, Text) and isinstance(text, Text)
        if mark.plain in found:
            found[mark.plain] += [text.plain[span.start:span.end] for span in text.spans
                                  if "reverse" in str(span.style)]
    return found


def test_two_words_added_to_a_long_bullet_are_the_only_marked_text() -> None:
    grid = unified_diff(BULLET, BULLET + " and Kafka")
    assert isinstance(grid, Table)
    assert marked_words(grid) == {"-": [], "+": [" and Kafka"]}


def test_a_replaced_word_is_marked_on_both_lines_and_other_lines_are_not() -> None:
    grid = unified_diff("Summary\nUses Go daily\nWrote docs",
                        "Summary\nUses Rust daily\nWrote docs")
    assert marked_words(grid) == {"-": ["Go"], "+": ["Rust"]}


def test_the_marks_survive_no_color() -> None:
    out = io.StringIO()
    Console(file=out, width=200, no_color=True, force_terminal=True).print(
        unified_diff("Uses Go daily", "Uses Rust daily"))
    output = out.getvalue()
    assert "\x1b[7mRust\x1b[0m" in output and "\x1b[7mGo\x1b[0m" in output   # reverse video


def _rendered(model: str | None) -> str:
    from jobtracker.proposals import Proposal
    from tui.data import ReviewItem
    from tui.proposal_view import detail

    proposal = Proposal(
        id=3, kind="letter", task="coverletter", unit_key="p1:x", item=0, posting_id=1,
        application_id=None, payload={"text": "Dear Acme"}, input_hash="", summary="a letter",
        stored_state="pending", created_at="2026-09-01T00:00:00Z", decided_at=None,
        decision=None, model=model, prompt_version="0123456789ab" if model else None)
    item = ReviewItem(proposal, "posting:1", "Acme — Engineer", None, "letter")
    console = Console(file=io.StringIO(), width=80, color_system=None)
    console.print(detail(item))
    return console.file.getvalue()   # type: ignore[attr-defined]


def test_the_detail_says_which_model_answered() -> None:
    assert "#3 letter from coverletter · qwen3:8b" in _rendered("qwen3:8b")
    # Before models were recorded: nothing is claimed.
    assert "·" not in _rendered(None).splitlines()[0]


def test_a_model_name_is_shown_as_text_never_as_control() -> None:
    shown = _rendered("evil\x1b[2J\x1b]0;pwn\x07[bold]model[/bold]")
    assert "\x1b" not in shown and "\x07" not in shown
    assert "[bold]model[/bold]" in shown
