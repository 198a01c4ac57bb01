"""The word-level diff marks exactly the words that changed in a line."""

from __future__ import annotations

import random

from jobtracker.worddiff import Run, changed_words, line_pairs, plain_marks, word_diff_lines

BULLET = ("- Built and ran the billing service in Python, handling 40k requests per second "
          "across three regions with on-call ownership")


def marked(runs: list[Run]) -> list[str]:
    return [run.text for run in runs if run.changed]


def test_two_words_added_at_the_end_of_a_long_line_are_the_only_marked_run() -> None:
    old_runs, new_runs = changed_words(BULLET, BULLET + " and Kafka")
    assert marked(old_runs) == []
    assert marked(new_runs) == [" and Kafka"]


def test_a_replaced_word_is_marked_on_both_sides_and_punctuation_stays_unmarked() -> None:
    old_runs, new_runs = changed_words("Python, Go and SQL.", "Python, Rust and SQL.")
    assert marked(old_runs) == ["Go"] and marked(new_runs) == ["Rust"]


def test_space_between_two_changed_words_joins_them_into_one_run() -> None:
    _, new_runs = changed_words("ran the service", "ran the payments billing service")
    assert marked(new_runs) == ["payments billing "]


def test_runs_join_back_into_the_lines_exactly() -> None:
    rng = random.Random(7)
    words = ["Python", "Go", ",", "led", "a", "team", "of", "5", " ", "—", "ünïcode", "x"]
    for _ in range(300):
        old = " ".join(rng.choice(words) for _ in range(rng.randint(0, 12)))
        new = " ".join(rng.choice(words) for _ in range(rng.randint(0, 12)))
        old_runs, new_runs = changed_words(old, new)
        assert "".join(r.text for r in old_runs) == old
        assert "".join(r.text for r in new_runs) == new
        if old == new:
            assert not any(r.changed for r in old_runs + new_runs)


def test_plain_marks_use_the_word_diff_plain_form() -> None:
    old_runs, new_runs = changed_words("uses Go daily", "uses Rust daily")
    assert plain_marks(old_runs, "-") == "uses [-Go-] daily"
    assert plain_marks(new_runs, "+") == "uses {+Rust+} daily"


def test_a_rewritten_line_pairs_with_nothing_and_is_shown_whole() -> None:
    assert line_pairs(["Managed a team of five engineers"],
                      ["Wrote compilers for fun on weekends"]) == []
    lines = word_diff_lines("Managed a team of five engineers",
                            "Wrote compilers for fun on weekends")
    assert lines == ["- Managed a team of five engineers",
                     "+ Wrote compilers for fun on weekends"]


def test_word_diff_lines_keeps_unchanged_lines_and_marks_inside_the_changed_one() -> None:
    original = "Summary line\n" + BULLET
    replacement = "Summary line\n" + BULLET + " and Kafka"
    assert word_diff_lines(original, replacement) == [
        "  Summary line",
        "- " + BULLET,
        "+ " + BULLET + "{+ and Kafka+}",
    ]
