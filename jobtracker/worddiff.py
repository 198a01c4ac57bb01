"""Which words changed between two versions of a line: the word-level diff.

A resume edit is usually a few words added to a long bullet. Shown as a whole-line
`-`/`+` pair, the change has to be found by reading both lines; marking the words
that differ shows it at once. `line_pairs` finds which removed line became which
added line in a unified diff, and `changed_words` splits one such pair into runs
of text, each marked as kept or changed.

`plain_marks` writes the marks as text, `[-removed-]` and `{+added+}` (the form of
`git diff --word-diff=plain`), for places without styles such as `proposals show`.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from typing import NamedTuple

# Words, runs of space, and single punctuation marks: "Python," changing to "Python and
# Go," marks "and Go" only, not the comma.
_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")


class Run(NamedTuple):
    text: str
    changed: bool


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _runs(tokens: Sequence[str], changed: Sequence[bool]) -> list[Run]:
    """Join neighbouring tokens with the same mark. Space between two changed tokens
    counts as changed, so "added two words" is one marked run, not three."""
    marks = list(changed)
    for i in range(1, len(tokens) - 1):
        if tokens[i].isspace() and marks[i - 1] and marks[i + 1]:
            marks[i] = True
    runs: list[Run] = []
    for token, mark in zip(tokens, marks, strict=True):
        if runs and runs[-1].changed == mark:
            runs[-1] = Run(runs[-1].text + token, mark)
        else:
            runs.append(Run(token, mark))
    return runs


def changed_words(old: str, new: str) -> tuple[list[Run], list[Run]]:
    """`old` and `new` as runs of text, each marked changed or kept; joined, the runs
    give back each line exactly."""
    before, after = _tokens(old), _tokens(new)
    old_marks, new_marks = [True] * len(before), [True] * len(after)
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    for block in matcher.get_matching_blocks():
        for offset in range(block.size):
            old_marks[block.a + offset] = False
            new_marks[block.b + offset] = False
    return _runs(before, old_marks), _runs(after, new_marks)


def line_pairs(removed: Sequence[str], added: Sequence[str]) -> list[tuple[int, int]]:
    """Which removed line became which added line, as index pairs in order. Lines pair
    when they are similar enough that marking words helps (a rewritten line pairs with
    nothing and is shown whole)."""
    pairs: list[tuple[int, int]] = []
    start = 0
    for i, old in enumerate(removed):
        for j in range(start, len(added)):
            if difflib.SequenceMatcher(None, _tokens(old), _tokens(added[j]),
                                       autojunk=False).ratio() >= 0.5:
                pairs.append((i, j))
                start = j + 1
                break
    return pairs


def plain_marks(runs: Sequence[Run], sign: str) -> str:
    """Runs as text with changed ones marked: `[-…-]` for `-`, `{+…+}` for `+`."""
    opening, closing = ("[-", "-]") if sign == "-" else ("{+", "+}")
    return "".join(f"{opening}{run.text}{closing}" if run.changed else run.text
                   for run in runs)


def block_runs(removed: Sequence[str], added: Sequence[str]
               ) -> tuple[list[list[Run]], list[list[Run]]]:
    """The lines a diff removed and added in one place, each as runs: a line paired with
    its new version has its changed words marked; a line with no partner is one
    unmarked run (it is new or gone as a whole, which its -/+ mark already says)."""
    old_runs = [[Run(line, False)] for line in removed]
    new_runs = [[Run(line, False)] for line in added]
    for i, j in line_pairs(removed, added):
        old_runs[i], new_runs[j] = changed_words(removed[i], added[j])
    return old_runs, new_runs


def word_diff_lines(original: str, replacement: str) -> list[str]:
    """original → replacement as `-`/`+` lines with the changed words marked in text."""
    old_lines, new_lines = original.splitlines(), replacement.splitlines()
    out: list[str] = []
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if tag == "equal":
            out += [f"  {line}" for line in old_lines[a0:a1]]
            continue
        old_runs, new_runs = block_runs(old_lines[a0:a1], new_lines[b0:b1])
        out += ["- " + plain_marks(runs, "-") for runs in old_runs]
        out += ["+ " + plain_marks(runs, "+") for runs in new_runs]
    return out


__all__ = ["Run", "block_runs", "changed_words", "line_pairs", "plain_marks",
           "word_diff_lines"]
