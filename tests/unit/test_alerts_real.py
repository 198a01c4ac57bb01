"""Alert mail nobody on this project wrote: precision and recall per sender.

The mails in tests/fixtures/real/alerts were stored by other public projects (their
origins in tests/fixtures/real/SOURCES.md), personal data scrubbed, every card
labelled by hand in labels.json. A card counts as read right only when its company,
title and place are the label's and, when the label names one, its stable id too;
a posting that matches no label is a wrong one. `pytest -s` prints the table:

    .venv/bin/python -m pytest tests/unit/test_alerts_real.py -s -q
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from jobtracker import alerts
from jobtracker.alerts.base import location_key, tidy
from jobtracker.sources.base import NormalizedPosting

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "real" / "alerts"
LABELS: dict[str, list[dict[str, str | None]]] = json.loads(
    (REAL / "labels.json").read_text(encoding="utf-8"))
MAILS = sorted(LABELS)

# Overall and per sender (the bar).
OVERALL, PER_SENDER = 0.97, 0.9


def sender_of_file(name: str) -> str:
    """The sender a sample is from, by its file name (`linkedin-…`, `indeed-…`)."""
    return name.split("-", 1)[0]


def right(posting: NormalizedPosting, label: dict[str, str | None]) -> bool:
    if tidy(posting.company) != tidy(label["company"] or ""):
        return False
    if tidy(posting.title) != tidy(label["title"] or ""):
        return False
    if location_key(posting.location or "") != location_key(label["location"] or ""):
        return False
    return not label.get("id") or posting.external_id == label["id"]


def score(name: str) -> tuple[int, int, int, list[str]]:
    """(read, right, labelled, what went wrong) for one sample."""
    reading = alerts.read((REAL / name).read_bytes())
    postings = list(reading.postings) if reading is not None else []
    misses: list[str] = []
    correct = 0
    for label in LABELS[name]:
        hit = next((p for p in postings if right(p, label)), None)
        if hit is None:
            misses.append(f"{name}: missed {label['company']!r} / {label['title']!r} / "
                          f"{label['location']!r}")
            continue
        postings.remove(hit)
        correct += 1
    misses += [f"{name}: wrong {p.company!r} / {p.title!r} / {p.location!r} ({p.external_id})"
               for p in postings]
    produced = correct + len(postings)
    return produced, correct, len(LABELS[name]), misses


def table() -> tuple[dict[str, tuple[int, int, int]], list[str]]:
    per: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    wrong: list[str] = []
    for name in MAILS:
        produced, correct, expected, misses = score(name)
        row = per[sender_of_file(name)]
        row[0] += produced
        row[1] += correct
        row[2] += expected
        wrong += misses
    return {sender: (row[0], row[1], row[2]) for sender, row in sorted(per.items())}, wrong


def _ratio(part: int, whole: int) -> float:
    return part / whole if whole else 1.0


def test_every_label_names_a_sample_and_every_sample_has_labels() -> None:
    on_disk = {path.name for path in REAL.glob("*.eml")}
    assert on_disk == set(LABELS)
    assert all(LABELS[name] for name in LABELS)


def test_precision_and_recall_per_sender_over_the_real_set() -> None:
    per, wrong = table()
    lines = ["", f"{'sender':<14}{'mails':>6}{'cards':>7}{'read':>6}{'right':>7}"
             f"{'precision':>11}{'recall':>8}"]
    totals = [0, 0, 0]
    for sender, (produced, correct, expected) in per.items():
        mails = sum(1 for name in MAILS if sender_of_file(name) == sender)
        lines.append(f"{sender:<14}{mails:>6}{expected:>7}{produced:>6}{correct:>7}"
                     f"{_ratio(correct, produced):>11.3f}{_ratio(correct, expected):>8.3f}")
        totals = [totals[0] + produced, totals[1] + correct, totals[2] + expected]
    lines.append(f"{'all':<14}{len(MAILS):>6}{totals[2]:>7}{totals[0]:>6}{totals[1]:>7}"
                 f"{_ratio(totals[1], totals[0]):>11.3f}{_ratio(totals[1], totals[2]):>8.3f}")
    print("\n".join(lines))
    if wrong:
        print("\n".join(wrong[:40]))
    assert _ratio(totals[1], totals[0]) >= OVERALL, wrong[:5]
    assert _ratio(totals[1], totals[2]) >= OVERALL, wrong[:5]
    for sender, (produced, correct, expected) in per.items():
        assert _ratio(correct, produced) >= PER_SENDER, (sender, wrong[:5])
        assert _ratio(correct, expected) >= PER_SENDER, (sender, wrong[:5])


@pytest.mark.parametrize("name", MAILS)
def test_every_real_sample_is_recognised_as_its_senders_alert(name: str) -> None:
    reading = alerts.read((REAL / name).read_bytes())
    assert reading is not None and reading.sender == sender_of_file(name)


def test_the_ziprecruiter_html_with_no_end_to_its_head_reads_from_the_html() -> None:
    """Its `<head>` has no `</head>` (HTML5 allows it): the parser ends it at `<body>`;
    reading up to the end of the mail found no card at all before."""
    reading = alerts.read((REAL / "ziprecruiter-fl-1.eml").read_bytes())
    assert reading is not None and reading.part == "html" and len(reading.postings) == 7


def test_a_bare_dollar_on_a_country_site_is_that_countrys_currency() -> None:
    reading = alerts.read((REAL / "glassdoor-ca-1.eml").read_bytes())
    assert reading is not None
    jobber = next(p for p in reading.postings if p.company == "Jobber")
    assert (jobber.salary_min, jobber.salary_max, jobber.salary_currency) == (
        107_000, 144_000, "CAD")
    us = alerts.read((REAL / "glassdoor-us-1.eml").read_bytes())
    assert us is not None and {p.salary_currency for p in us.postings} == {"USD"}


def test_a_wrapped_title_is_joined_and_a_blank_line_inside_a_card_ends_nothing() -> None:
    text = ("Your job alert for engineering manager in London\n\n"
            "Engineering Manager - Payments, Up to £130\n000 + Bonus\nMonzo\nLondon\n\n"
            "4 school alumni\nView job: https://www.linkedin.com/comm/jobs/view/4456258999/\n")
    raw = ("From: LinkedIn <jobalerts-noreply@linkedin.com>\r\nSubject: Engineering Manager at "
           "Monzo\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + text).encode()
    reading = alerts.read(raw)
    assert reading is not None
    assert [(p.title, p.company, p.location) for p in reading.postings] == [
        ("Engineering Manager - Payments, Up to £130,000 + Bonus", "Monzo", "London")]


def test_a_linkedin_html_card_s_pay_line_is_its_salary() -> None:
    reading = alerts.read((REAL / "linkedin-facets-1.eml").read_bytes())
    assert reading is not None and reading.part == "html"
    fieldguide = next(p for p in reading.postings if p.company == "Fieldguide")
    assert (fieldguide.salary_min, fieldguide.salary_max, fieldguide.salary_currency) == (
        150_000, 260_000, "USD")
    assert fieldguide.url == "https://www.linkedin.com/jobs/view/4421235421/"
