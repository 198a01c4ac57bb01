"""Grounding resume edits: names absent from the resume and keywords, and what an
edit may change."""

from __future__ import annotations

import pytest
from resume_samples import POSTING, RESUME

from jobtracker.resume.grounding import (
    Edit,
    Grounding,
    Ungrounded,
    ground_edit,
    locate,
    proper_terms,
)

GROUNDING = Grounding.build([RESUME, "kafka", "event sourcing"], POSTING)


@pytest.mark.parametrize(("replacement", "invented"), [
    # rewording with ordinary words, and names the resume or keywords already hold
    ("Designed and built a Python service handling 2M events a day.", []),
    ("Built a Python-based event pipeline on PostgreSQL and Kafka.", []),
    ("built scalable python services with postgresql", []),
    ("I led the payments team's on-call rotation, e.g. incident reviews.", []),
    ("Worked at Example Corp on event sourcing.", []),
    # a sentence-initial capital says nothing: an ordinary new verb passes
    ("Spearheaded the on-call rotation.", []),
    # names the resume and keywords do not hold
    ("Built a Python service on Kubernetes.", ["Kubernetes"]),
    ("Ran services on kubernetes.", ["kubernetes"]),       # the posting's name, lower-cased
    ("Kubernetes operator for the payments team.", ["Kubernetes"]),   # the posting's, initial
    ("Wrote services in C++ and C# with Node.js.", ["C++", "C#", "Node.js"]),
    ("Shipped on AWS and GitHub Actions.", ["AWS", "GitHub", "Actions"]),
    ("Worked at Google on payments.", ["Google"]),
    ("Cut latency by 40% for 3M users.", ["40", "3M"]),
    ("Ran a k8s cluster.", ["k8s"]),
])
def test_grounding_flags_names_absent_from_resume_and_keywords(
        replacement: str, invented: list[str]) -> None:
    assert GROUNDING.invented(replacement) == invented


def test_a_posting_word_it_also_writes_in_lower_case_is_not_a_name() -> None:
    # "Team" is capitalized in a heading but "team" appears too: an ordinary word.
    assert proper_terms(POSTING) >= {"kubernetes", "aws", "go"}
    assert "team" not in proper_terms(POSTING)
    assert "about" not in proper_terms(POSTING)


def test_ground_edit_keeps_a_grounded_edit_and_strips_a_copied_marker() -> None:
    edit = ground_edit(RESUME, GROUNDING, "  - Wrote PostgreSQL migrations.",
                       "- Wrote and reviewed PostgreSQL schema migrations.")
    assert edit.original == "Wrote PostgreSQL migrations."
    assert edit.replacement == "Wrote and reviewed PostgreSQL schema migrations."
    assert RESUME[edit.start:edit.end] == edit.original


@pytest.mark.parametrize(("original", "replacement", "why"), [
    ("Led the platform team.", "Led the platform team well.", "not a line"),
    ("Wrote PostgreSQL migrations.", "Wrote PostgreSQL migrations on AWS.", "AWS"),
    ("Wrote PostgreSQL migrations.", "   ", "empty"),
    ("Wrote PostgreSQL migrations.", "Wrote PostgreSQL migrations.", "changes nothing"),
])
def test_ground_edit_drops_what_does_not_ground(original: str, replacement: str,
                                                why: str) -> None:
    with pytest.raises(Ungrounded, match=why):
        ground_edit(RESUME, GROUNDING, original, replacement)


def edit(resume: str, original: str, replacement: str) -> Edit:
    start, end = locate(resume, original)
    return Edit(original, replacement, start, end)
