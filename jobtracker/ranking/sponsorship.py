"""Does a posting's text refuse visa sponsorship? A phrase list per language, no model.

`profile.yaml`'s `filters.sponsorship: required` keeps from the judge the postings
that say they will not sponsor a visa. Only a refusal counts: a posting that says
nothing about sponsorship, or offers it, passes. The phrases are written loosely
(a space for any run of spaces, optional words in groups) and matched case-insensitively
on the text with its accents kept, in every language below unless the board says
which language the posting is in (then that language's phrases and English, which
boards mix in). Each phrase has an example in tests/unit/test_ranking_sponsorship.py, and
a sentence that offers sponsorship next to each.

The check reads at most `MAX_CHARS` of a description: the refusal is a sentence, and
a 1 MB description must cost no more than a long one.
"""

from __future__ import annotations

import re

MAX_CHARS = 100_000

# Words one of which every refusal holds, in lower case: a text with none of them is
# settled by a substring search, and the patterns run on the few that remain.
ANCHORS = ("sponsor", "visa", "visum", "parrain", "patrocin", "werkvergunning")

# Each phrase is a regular expression in which a space stands for any run of spaces
# (a no-break space or a line break too). Groups give the forms a sentence takes.
PHRASES: dict[str, tuple[str, ...]] = {
    "en": (
        r"(?:we are|we're|are|is) (?:unable|not able) to sponsor",
        r"(?:we|company) (?:cannot|can not|can't|can’t|do not|don't|don’t|will not|won't"
        r"|won’t|are not able to|are unable to) (?:currently )?(?:offer|provide|support"
        r"|sponsor) (?:(?:visa|work visa|employment visa|immigration) )?"
        r"(?:sponsorship|sponsor|visas?)",
        r"(?:visa |immigration )?sponsorship (?:is|will) (?:not|n't) "
        r"(?:be )?(?:available|offered|provided|possible)",
        r"no (?:visa |immigration )?sponsorship",
        r"not able to (?:offer|provide) (?:visa )?sponsorship",
        r"(?:without|not requiring|not require|no need for) (?:now or in the future )?"
        r"(?:visa |employer )?sponsorship",
        r"(?:does|do|will) not (?:offer|provide) (?:visa )?sponsorship",
    ),
    "de": (
        r"(?:kein|keine|keinerlei) (?:visa|visum|visums)[\s-]*(?:sponsoring|sponsorship"
        r"|unterstützung|förderung)",
        r"(?:kein|keine) (?:sponsoring|sponsorship) (?:für|eines|von) (?:ein |das )?"
        r"(?:visa|visum|visums|arbeitsvisum|arbeitsvisa)",
        r"(?:können|kann) (?:wir )?(?:leider )?(?:kein|keine) "
        r"(?:visa|visum|arbeitsvisa|arbeitsvisum)",
        r"(?:visa|visum)[\s-]*sponsoring (?:ist )?(?:leider )?(?:nicht|kein)",
    ),
    "fr": (
        r"(?:pas|aucun|aucune) (?:de )?(?:parrainage|sponsoring|sponsorisation) "
        r"(?:de |d'|du )?(?:visa|visas)",
        r"(?:ne )?(?:pouvons|pouvez|peut|pourrons) pas (?:parrainer|sponsoriser"
        r"|prendre en charge) (?:de |le |les |un )?(?:visa|visas)",
        r"ne sommes pas en mesure de (?:parrainer|sponsoriser|proposer (?:de |un )?"
        r"(?:parrainage|sponsoring))",
        r"(?:parrainage|sponsoring) (?:de |d'|du )?(?:visa|visas) (?:n'est|ne sera) pas",
    ),
    "nl": (
        r"geen (?:visum|visa)[\s-]*(?:sponsoring|sponsorship|ondersteuning)",
        r"geen (?:sponsoring|sponsorship) (?:van |voor )?(?:een )?"
        r"(?:visum|visa|werkvergunning)",
        r"(?:kunnen|kan) (?:(?:wij|we|helaas) )*geen (?:visum|visa|werkvergunning)",
    ),
    "es": (
        r"no (?:ofrecemos|ofrece|ofreceremos|proporcionamos|patrocinamos"
        r"|podemos patrocinar|podemos ofrecer) (?:el |un )?(?:patrocinio de )?"
        r"(?:visado|visa|visados|visas|patrocinio)",
        r"(?:sin|no hay) patrocinio (?:de )?(?:visado|visa)",
        r"patrocinio (?:de )?(?:visado|visa) no (?:está|es|será) (?:disponible|posible)",
    ),
}


def _compile(phrases: tuple[str, ...]) -> str:
    # From a word's start only (`\b`): Python's `re` tries every alternative at every
    # position it is given, and most positions are inside a word.
    return r"\b(?:" + "|".join(f"(?:{phrase.replace(' ', _SPACE)})" for phrase in phrases) + ")"


_SPACE = r"[\s\u00a0]+"
_COMPILED: dict[str, re.Pattern[str]] = {
    language: re.compile(_compile(phrases), re.IGNORECASE)
    for language, phrases in PHRASES.items()
}
_ALL = re.compile("|".join(f"(?:{p.pattern})" for p in _COMPILED.values()), re.IGNORECASE)

# How much of the sentence around a refusal is kept as the filter's reason.
QUOTE_CHARS = 120


def refusal(text: str | None, language: str | None = None) -> str | None:
    """The words of `text` that refuse sponsorship (one line, bounded), else None.

    `language` (an ISO 639-1 code, as a board gives it) narrows the phrases to that
    language and English; unknown or None tries every language. The patterns run only
    on the few hundred characters around each anchor word: a search from every
    position of a 5 KB text costs milliseconds, and a fetch reads thousands."""
    if not text:
        return None
    shown = text[:MAX_CHARS]
    pattern = _pattern(language)
    # The anchors are found in `shown` itself, case-insensitively: an index into a
    # lower-cased copy would not be one into the text ('İ'.lower() is two characters,
    # so 170 of them would move every window off its refusal).
    after: dict[str, int] = {}      # per anchor word: the next start worth a look
    for anchor in _ANCHOR.finditer(shown):
        start, word = anchor.start(), anchor.group().casefold()
        if start < after.get(word, 0):
            continue
        window = shown[max(0, start - WINDOW):anchor.end() + WINDOW]
        found = pattern.search(window)
        if found is not None:
            return " ".join(found.group(0).split())[:QUOTE_CHARS]
        after[word] = anchor.end() + WINDOW
    return None


_ANCHOR = re.compile("|".join(ANCHORS), re.IGNORECASE)


# Characters either side of an anchor that a phrase can reach (the longest runs ~90).
WINDOW = 160


def _pattern(language: str | None) -> re.Pattern[str]:
    code = (language or "").lower()[:2]
    if code == "en":
        return _COMPILED["en"]
    if code in _COMPILED:
        return _NARROWED.setdefault(code, re.compile(
            f"(?:{_COMPILED[code].pattern})|(?:{_COMPILED['en'].pattern})", re.IGNORECASE))
    return _ALL


_NARROWED: dict[str, re.Pattern[str]] = {}


__all__ = ["ANCHORS", "MAX_CHARS", "PHRASES", "refusal"]
