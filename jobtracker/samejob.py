"""Whether two postings are the same job: the measure the grouping pass applies.

Two postings are the same job when their normalised company and title are equal
(`job_key`) and their descriptions are the same or nearly the same text
(`same_text`): equal word sequences, or word 3-shingle sets whose Jaccard
similarity is at least `THRESHOLD`.

Why shingles and an exact Jaccard rather than MinHash: the key already narrows the
comparison to a handful of postings (one company's postings under one title), so
the exact set comparison costs well under a millisecond a pair and never errs by
sampling; a signature stored per posting would cost every posting its hashing at
fetch time, for comparisons that mostly never happen.

Why 3-word shingles and 0.6: a job's text reached twice differs by reformatting
(markup, whitespace, case: nothing, once reduced to words), an appended line (an
aggregator's "Via ..." link back: Jaccard ~0.95), or an edited sentence or two
(~0.8). Two different jobs under one title at one company share the company's
boilerplate (about the company, benefits), typically half the text or less, which
puts them below ~0.45. tests/unit/test_samejob.py holds a labelled set and prints
the false merges and misses at this threshold.
"""

from __future__ import annotations

import re
import unicodedata

THRESHOLD = 0.6
SHINGLE = 3
# Texts shorter than this many words are compared only for equality: a few words in
# common say little about two jobs being one.
MIN_WORDS = 20

_WORD = re.compile(r"\w+")
# Legal forms that one source writes and another leaves out ("Acme, Inc." / "Acme").
_LEGAL = frozenset({
    "inc", "incorporated", "llc", "llp", "ltd", "limited", "gmbh", "ag", "sa", "sas",
    "sarl", "bv", "nv", "plc", "corp", "corporation", "co", "company", "se", "oy", "ab",
    "as", "aps", "pty", "srl", "spa", "kg"})
# Words a source adds to a title to say where the work happens; the description
# comparison still has to agree.
_WHERE = frozenset({"remote", "hybrid", "onsite"})


def words(text: str | None) -> list[str]:
    """Lower-cased words, accents kept, punctuation and markup leftovers dropped."""
    if not text:
        return []
    return _WORD.findall(unicodedata.normalize("NFKC", text).casefold())


def company_key(company: str | None) -> str:
    tokens = words(company)
    while tokens and tokens[-1] in _LEGAL:
        tokens.pop()
    return " ".join(tokens)


def title_key(title: str | None) -> str:
    return " ".join(t for t in words((title or "").replace("&", " and ")) if t not in _WHERE)


def job_key(company: str | None, title: str | None) -> str | None:
    """`company|title`, normalised; None when either part is empty (no company: the
    key would lump every unknown employer's "Software Engineer" together)."""
    company_part, title_part = company_key(company), title_key(title)
    if not company_part or not title_part:
        return None
    return f"{company_part}|{title_part}"


def shingles(tokens: list[str]) -> set[tuple[str, ...]]:
    return {tuple(tokens[i:i + SHINGLE]) for i in range(max(len(tokens) - SHINGLE + 1, 1))}


def similarity(a: list[str], b: list[str]) -> float:
    """Jaccard similarity of the two word lists' shingle sets (1.0 for equal lists)."""
    if a == b:
        return 1.0
    sa, sb = shingles(a), shingles(b)
    union = len(sa | sb)
    return len(sa & sb) / union if union else 0.0


def same_text(a: list[str], b: list[str]) -> bool:
    """The same or nearly the same description (see the module's note)."""
    if not a or not b:
        return False          # a missing description proves nothing
    if a == b:
        return True
    if min(len(a), len(b)) < MIN_WORDS:
        return False
    return similarity(a, b) >= THRESHOLD
