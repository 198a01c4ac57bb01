"""The sponsorship phrases: a refusal in each language is found, an offer never is."""

from __future__ import annotations

import time

import pytest

from jobtracker.ranking.sponsorship import MAX_CHARS, PHRASES, refusal

REFUSALS = [
    ("en", "Please note that we are unable to sponsor visas for this role."),
    ("en", "We do not offer visa sponsorship."),
    ("en", "Unfortunately we can't provide sponsorship at this time."),
    ("en", "Visa sponsorship is not available for this position."),
    ("en", "No visa sponsorship."),
    ("en", "We are not able to offer sponsorship."),
    ("en", "You must be able to work in the UK without sponsorship."),
    ("en", "The company will not provide sponsorship."),
    ("de", "Leider können wir kein Visa-Sponsoring anbieten."),
    ("de", "Wir bieten keine Visumsunterstützung an."),
    ("de", "Kein Sponsoring für ein Arbeitsvisum möglich."),
    ("de", "Visa-Sponsoring ist leider nicht möglich."),
    ("fr", "Nous ne sommes pas en mesure de parrainer de visa pour ce poste."),
    ("fr", "Pas de parrainage de visa."),
    ("fr", "Nous ne pouvons pas sponsoriser de visa."),
    ("fr", "Le sponsoring de visa n'est pas possible."),
    ("nl", "Wij bieden geen visumsponsoring aan."),
    ("nl", "Helaas kunnen wij geen werkvergunning regelen."),
    ("nl", "Er is geen sponsoring van een visum mogelijk."),
    ("es", "No ofrecemos patrocinio de visado para este puesto."),
    ("es", "Puesto sin patrocinio de visa."),
    ("es", "El patrocinio de visado no está disponible."),
]

OFFERS = [
    "We sponsor visas and help with relocation.",
    "Visa sponsorship is available for this role.",
    "We are able to sponsor work visas.",
    "Wir bieten Visa-Sponsoring und Hilfe beim Umzug.",
    "Nous proposons le parrainage de visa.",
    "Wij bieden visumsponsoring aan.",
    "Ofrecemos patrocinio de visado.",
    "Our sponsors include three foundations.",
    "A senior backend role in a distributed team.",
]


@pytest.mark.parametrize(("language", "text"), REFUSALS)
def test_a_refusal_is_found_in_its_language(language: str, text: str) -> None:
    assert refusal(text) is not None
    assert refusal(text, language) is not None


@pytest.mark.parametrize("text", OFFERS)
def test_an_offer_or_an_unrelated_sponsor_is_no_refusal(text: str) -> None:
    assert refusal(text) is None


def test_every_language_of_the_issue_has_phrases_and_examples() -> None:
    assert {"en", "de", "fr", "nl", "es"} <= set(PHRASES)
    assert {language for language, _ in REFUSALS} == set(PHRASES)


def test_a_known_language_narrows_the_phrases_to_it_and_english() -> None:
    german = "Leider können wir kein Visa-Sponsoring anbieten."
    assert refusal(german, "fr") is None
    assert refusal(german, "de-DE") is not None
    assert refusal("We do not offer visa sponsorship.", "de") is not None


def test_the_words_found_are_one_bounded_line() -> None:
    found = refusal("Please note:\nwe are\n unable   to\tsponsor visas.")
    assert found == "we are unable to sponsor"


def test_a_megabyte_of_text_is_read_only_to_its_bound_and_quickly() -> None:
    text = ("lorem ipsum sponsor dolor " * 50_000) + " We do not offer visa sponsorship."
    assert len(text) > 1_000_000
    started = time.perf_counter()
    assert refusal(text) is None           # the refusal lies past MAX_CHARS
    assert time.perf_counter() - started < 2.0
    assert refusal(text[:MAX_CHARS - 200] + " We do not offer visa sponsorship.") is not None


def test_unexpected_scripts_and_controls_are_no_crash() -> None:
    for text in ("ビザのスポンサーはありません。" * 1000, "\x00\x1b[31mvisa\x1b[0m" * 100,
                 "لا نقدم رعاية التأشيرة", "🛂 visa 🛂" * 500, ""):
        assert refusal(text) is None
