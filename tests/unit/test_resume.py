"""jobtracker.resume: the resume's pieces, locating an original, applying edits."""

from __future__ import annotations

import pytest
from resume_samples import RESUME

from jobtracker.resume.grounding import (
    Edit,
    Ungrounded,
    apply_edits,
    locate,
    pieces,
)


def test_pieces_are_lines_bullets_and_sentences() -> None:
    found = pieces(RESUME)
    assert "## Experience" in found and "Experience" in found          # a heading, unmarked
    assert "- Wrote PostgreSQL migrations." in found                   # the line
    assert "Wrote PostgreSQL migrations." in found                     # the bullet
    assert "Cut costs in half." in found                               # a sentence
    assert "Built a Python service that processed 2M events a day." in found
    assert "Python service" not in found                               # a fragment is not


def test_locate_finds_a_piece_that_occurs_once() -> None:
    start, end = locate(RESUME, "  Wrote PostgreSQL migrations.\n")
    assert RESUME[start:end] == "Wrote PostgreSQL migrations."


@pytest.mark.parametrize(("original", "why"), [
    ("Led the Kubernetes migration.", "not a line, bullet or sentence"),   # invented
    ("Python service", "not a line, bullet or sentence"),                   # a fragment
    ("Wrote PostgreSQL  migrations.", "not a line, bullet or sentence"),    # not verbatim
    ("", "empty"),
])
def test_locate_refuses_what_is_not_a_piece(original: str, why: str) -> None:
    with pytest.raises(Ungrounded, match=why):
        locate(RESUME, original)


def test_locate_refuses_an_ambiguous_original() -> None:
    resume = "- Python\n- Go\n- Python\n"
    with pytest.raises(Ungrounded, match="more than once"):
        locate(resume, "Python")


def edit(resume: str, original: str, replacement: str) -> Edit:
    start, end = locate(resume, original)
    return Edit(original, replacement, start, end)


def test_edits_apply_in_document_order_whatever_order_given() -> None:
    first = edit(RESUME, "Cut costs in half.", "Halved hosting costs.")
    second = edit(RESUME, "Wrote PostgreSQL migrations.", "Owned PostgreSQL migrations.")
    expected = (RESUME.replace("Cut costs in half.", "Halved hosting costs.")
                .replace("Wrote PostgreSQL migrations.", "Owned PostgreSQL migrations."))
    assert apply_edits(RESUME, [second, first]) == expected
    assert apply_edits(RESUME, [first, second]) == expected
    # A longer replacement early on does not shift where a later edit lands.
    longer = Edit(first.original, "Halved hosting costs " * 10, first.start, first.end)
    assert "Owned PostgreSQL migrations." in apply_edits(RESUME, [second, longer])
    assert apply_edits(RESUME, []) == RESUME


def test_overlapping_edits_are_refused() -> None:
    line = edit(RESUME, "Built a Python service that processed 2M events a day. Cut costs in "
                        "half.", "x")
    sentence = edit(RESUME, "Cut costs in half.", "y")
    with pytest.raises(ValueError, match="overlap"):
        apply_edits(RESUME, [line, sentence])
