"""The title → level table: every row has a test, and so do the titles it must not catch."""

from __future__ import annotations

import pytest

from jobtracker.config import LEVELS
from jobtracker.postings.levels import RULES, UNCERTAIN, rule_for, title_level

# (title, the rule that must decide it, the level). At least one title per table row.
CASES = [
    ("Senior Director of Engineering", "director", "director"),
    ("Associate Director, Data", "director", "director"),
    ("VP of Engineering", "vp", "director"),
    ("Vice President, Platform", "vp", "director"),
    ("Head of Infrastructure", "head-of", "director"),
    ("Chief Technology Officer", "chief", "director"),
    ("CTO", "chief", "director"),
    ("Distinguished Engineer", "distinguished", "principal"),
    ("Principal Software Engineer", "principal", "principal"),
    ("Staff Engineer, Payments", "staff", "staff"),
    ("Senior Staff Engineer", "staff", "staff"),
    ("Software Engineer V", "ladder-v", "principal"),
    ("Software Engineer IV", "ladder-iv", "staff"),
    ("Software Engineer III", "ladder-iii", "senior"),
    ("Data Scientist III", "ladder-iii", "senior"),
    ("Software Engineer II", "ladder-ii", "mid"),
    ("SDE 2", "ladder-ii", "mid"),
    ("Software Engineer I", "ladder-i", "junior"),
    ("Software Engineer I/II", "ladder-i", "junior"),       # a range reads as its first rung
    ("Software Engineer, L8", "l8", "principal"),
    ("Software Engineer (L7)", "l6-l7", "staff"),
    ("Production Engineer E6", "l6-l7", "staff"),
    ("Software Engineer, L5", "l5", "senior"),
    ("Software Engineer - IC5", "l5", "senior"),
    ("Software Engineer L4", "l4", "mid"),
    ("Software Engineer L3", "l3", "junior"),
    ("Senior Backend Engineer", "senior", "senior"),
    ("Sr. Frontend Developer", "senior", "senior"),
    ("Snr Data Engineer", "senior", "senior"),
    ("Tech Lead, Search", "lead", "senior"),
    ("Lead Engineer", "lead", "senior"),
    ("Software Engineering Intern", "intern", "intern"),
    ("Summer Internship 2026", "intern", "intern"),
    ("Werkstudent Softwareentwicklung", "intern", "intern"),
    ("Co-op Software Developer", "intern", "intern"),
    ("Junior Developer", "junior", "junior"),
    ("Jr. QA Engineer", "junior", "junior"),
    ("Entry-Level Analyst", "junior", "junior"),
    ("New Grad Software Engineer", "junior", "junior"),
    ("Associate Product Manager", "junior", "junior"),
    ("Mid-Level Backend Engineer", "mid", "mid"),
    ("Intermediate Developer", "mid", "mid"),
]

# Titles that name no level (or only look like they do).
UNCERTAIN_TITLES = [
    "Backend Engineer",
    "Engineering Manager",
    "Internal Tools Engineer",            # "intern" is not a word here
    "Software Engineer in Test",          # "I" of "in" is no rung
    "Engineer 3D Graphics",               # nor is the 3 of 3D
    "Engineer, 2+ years experience",
    "Mid-Market Account Executive",
    "Staffing Coordinator",
    "Leadership Development Partner",
    "Seniority Analyst",
    "Platform Engineer l4 team",          # L-levels are capitals only
]


@pytest.mark.parametrize(("title", "rule", "level"), CASES, ids=[c[0] for c in CASES])
def test_title_maps_through_its_row(title: str, rule: str, level: str) -> None:
    found = rule_for(title)
    assert found is not None and found.name == rule
    assert title_level(title) == level


@pytest.mark.parametrize("title", UNCERTAIN_TITLES)
def test_titles_without_a_level_are_uncertain(title: str) -> None:
    assert title_level(title) == UNCERTAIN


def test_every_row_has_a_case() -> None:
    assert {rule.name for rule in RULES} == {case[1] for case in CASES}


def test_row_names_are_unique_and_levels_are_the_vocabulary() -> None:
    assert len({rule.name for rule in RULES}) == len(RULES)
    assert {rule.level for rule in RULES} <= set(LEVELS)
    assert set(LEVELS) <= {rule.level for rule in RULES}   # every level is reachable


def test_case_does_not_matter_for_words() -> None:
    assert title_level("SENIOR ENGINEER") == title_level("senior engineer") == "senior"


def test_markup_in_a_title_is_just_text() -> None:
    assert title_level("[bold]Staff[/bold] Engineer") == "staff"
