"""Whether two postings are the same job: the measure the grouping pass applies.

Two postings are the same job when their normalised company and title are equal
(`job_key`) and their descriptions are the same or nearly the same text
(`same_text`): equal word sequences; texts that share a beginning and an end
covering at least `KEPT` of the longer (one passage inserted, edited or appended —
an aggregator's link back, a repost's date line), compared as stored (texts of
`RAW_KEPT_MIN` characters or more) or as words; or word 3-shingle sets whose Jaccard
similarity is at least `THRESHOLD`. The middle test is the last one's cheap
shortcut: a pair it accepts scores above THRESHOLD on the last anyway (at least 0.71
at the shortest texts compared, about 0.9 at a posting's usual length —
tests/unit/test_postings_samejob.py checks it on random edits), and it costs a few
string comparisons in C instead of splitting both texts into words and shingles.
Grouping asks it first, on its own (`near_copy`), of every candidate: a near copy
settles where a posting goes.

Why shingles and an exact Jaccard rather than MinHash: the key already narrows the
comparison to a handful of postings (one company's postings under one title), so
the exact set comparison is cheap (tests/perf/bench_samejob.py measures a pair) and
never errs by sampling; a signature stored per posting would cost every posting its hashing at
fetch time, for comparisons that mostly never happen.

Why 3-word shingles and 0.6: a job's text reached twice differs by reformatting
(markup, whitespace, case: nothing, once reduced to words), an appended line (an
aggregator's "Via ..." link back: Jaccard ~0.95), or an edited sentence or two
(~0.8). Two different jobs under one title at one company share the company's
boilerplate (about the company, benefits), typically half the text or less, which
puts them below ~0.45. tests/unit/test_postings_samejob.py holds a labelled set and prints
the false merges and misses at this threshold.
"""

from __future__ import annotations

import math
import re
import unicodedata
from functools import lru_cache

THRESHOLD = 0.6
KEPT = 0.95
# Stored texts at least this long are first compared as they are (`KEPT` of their
# characters): a copy or repost that only adds a line is found without reading words.
RAW_KEPT_MIN = 1000
SHINGLE = 3
# Texts shorter than this many words are compared only for equality: a few words in
# common say little about two jobs being one.
MIN_WORDS = 20

_WORD = re.compile(r"\w+")
# `text_words` splits a description into exactly the words `words` finds (runs of \w:
# letters, digits, underscore, after NFKC and casefolding), faster. ASCII text goes
# through a table that makes every ASCII character but a word character a space.
_ASCII_SPACES = {code: " " for code in range(128)
                 if not (chr(code).isalnum() or chr(code) == "_")}
# Text with any non-ASCII character (a typographic quote or dash is enough) would need
# NFKC and the regular expression. So first each of these non-ASCII marks and spaces the
# text holds is replaced by a space on its own (one search in C per mark): most text is
# ASCII after that. Each is no word character, and NFKC makes none of it one, so a space
# in its place leaves the words as they were (tests/unit/test_postings_samejob.py checks).
_WIDE_MARKS = tuple("“”‘’«»‹›–—‐‑‒―•·…¡¿§¶†‡") + tuple(
    chr(code) for code in range(0x80, 0x3001) if chr(code).isspace())
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


@lru_cache(maxsize=4096)     # a board's postings mostly share one company name
def company_key(company: str | None) -> str:
    tokens = words(company)
    while tokens and tokens[-1] in _LEGAL:
        tokens.pop()
    return " ".join(tokens)


@lru_cache(maxsize=16384)    # titles repeat across boards ("Senior Backend Engineer")
def title_key(title: str | None) -> str:
    return " ".join(t for t in words((title or "").replace("&", " and ")) if t not in _WHERE)


def job_key(company: str | None, title: str | None) -> str | None:
    """`company|title`, normalised; None when either part is empty (no company: the
    key would lump every unknown employer's "Software Engineer" together)."""
    company_part, title_part = company_key(company), title_key(title)
    if not company_part or not title_part:
        return None
    return f"{company_part}|{title_part}"


# The job_key stored for a posting that can have none (no company, no title).
NO_KEY = "-"


def stored_key(company: str | None, title: str | None) -> str:
    """`job_key`, or NO_KEY: what the postings table holds."""
    return job_key(company, title) or NO_KEY


def shingles(tokens: list[str]) -> set[int]:
    """Every run of SHINGLE consecutive words (the whole list when it is shorter), as a
    hash: ints are not tracked by the garbage collector, and tens of thousands of
    tuples a fetch were (the collector's scans cost more than the hashing)."""
    if len(tokens) < SHINGLE:
        return {hash(tuple(tokens))}
    return set(map(hash, zip(tokens, tokens[1:], tokens[2:], strict=False)))


def jaccard(sa: set[int], sb: set[int]) -> float:
    common = len(sa & sb)
    union = len(sa) + len(sb) - common
    return common / union if union else 0.0


def similarity(a: list[str], b: list[str]) -> float:
    """Jaccard similarity of the two word lists' shingle sets (1.0 for equal lists)."""
    return 1.0 if a == b else jaccard(shingles(a), shingles(b))


def _common_chars(a: str, b: str) -> int:
    """How many characters `a` and `b` begin with in common: a search over slice
    comparisons, which run in C, instead of a character loop. Lengths are tried from
    16 up, fourfold, before the binary search between the last two: texts that part
    early (most pairs compared) cost a few short slices, not halves of both texts."""
    low, high = 0, min(len(a), len(b))
    probe = 16
    while probe < high:
        if a[:probe] != b[:probe]:
            high = probe - 1
            break
        low, probe = probe, probe * 4
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _common_words(a: str, b: str) -> int:
    """How many words two space-joined word lists begin with in common."""
    chars = _common_chars(a, b)
    words = a.count(" ", 0, chars)         # each such space ends a word equal in both
    ends_a = chars == len(a) or a[chars] == " "
    ends_b = chars == len(b) or b[chars] == " "
    return words + int(chars > 0 and ends_a and ends_b)


def _kept(a: str, b: str, len_a: int, len_b: int) -> bool:
    """`mostly_kept` of two space-joined word lists of `len_a` and `len_b` words."""
    longest = max(len_a, len_b)
    if min(len_a, len_b) < KEPT * longest:
        return False          # a beginning and end apart hold less than that
    head = _common_words(a, b)
    if head >= KEPT * longest:
        return True
    if a[-1:] != b[-1:]:
        return False          # no common end: the last words differ
    # The common end, not reaching into the common beginning of either list.
    tail = min(_common_words(a[::-1], b[::-1]), len_a - head, len_b - head)
    return head + tail >= KEPT * longest


def _kept_chars(a: str, b: str) -> bool:
    """Whether a shared beginning and end, not overlapping in either string, cover at
    least KEPT of the longer one. The end is not measured: it only has to cover what
    the beginning leaves, which one slice comparison tells."""
    if len(a) > len(b):
        a, b = b, a
    need = math.ceil(KEPT * len(b))
    if len(a) < need:
        return False          # a beginning and end apart hold less than that
    if b.startswith(a) or b.endswith(a):
        return True           # the usual copy: a line added at one end
    head = _common_chars(a, b)
    if head >= need:
        return True
    rest = need - head        # at most min(len) - head: the two do not overlap
    return a[-1] == b[-1] and a.endswith(b[-rest:])


def mostly_kept(a: list[str], b: list[str]) -> bool:
    """Whether a shared beginning and end cover at least KEPT of the longer word list."""
    return _kept(" ".join(a), " ".join(b), len(a), len(b))


def text_words(text: str | None) -> list[str]:
    """`words(text)`, made faster for descriptions: ASCII text through a table, text
    whose only non-ASCII characters are typographic marks or spaces the same once they
    are replaced, other text token by token. tests/perf/bench_samejob.py measures each
    path against the regular expression."""
    if not text:
        return []
    if not text.isascii():
        for mark in _WIDE_MARKS:
            if mark in text:
                text = text.replace(mark, " ")
        if not text.isascii():
            return _unicode_words(text)
    return text.casefold().translate(_ASCII_SPACES).split()


def _unicode_words(text: str) -> list[str]:
    """`words` for non-ASCII text, read token by token: a whitespace-separated token of
    letters and digits alone is one word as it stands (`str.isalnum` is the regular
    expression's word character but for the underscore), and only the other tokens go
    through the regular expression."""
    if not unicodedata.is_normalized("NFKC", text):
        text = unicodedata.normalize("NFKC", text)
    found: list[str] = []
    for token in text.casefold().split():
        if token.isalnum():
            found.append(token)
        else:
            found += _WORD.findall(token)
    return found


class Text:
    """A description as the measure reads it: as stored, and (when asked) its words,
    the words joined by single spaces, and their shingles."""

    __slots__ = ("_joined", "_shingles", "_words", "raw")

    def __init__(self, text: str | None) -> None:
        self.raw = text or ""
        self._words: list[str] | None = None
        self._joined: str | None = None
        self._shingles: set[int] | None = None

    @property
    def words(self) -> list[str]:
        if self._words is None:
            self._words = text_words(self.raw)
        return self._words

    @property
    def joined(self) -> str:
        if self._joined is None:
            self._joined = " ".join(self.words)
        return self._joined

    @property
    def shingles(self) -> set[int]:
        """Empty for a text too short to be "nearly" the same as another."""
        if self._shingles is None:
            self._shingles = shingles(self.words) if len(self.words) >= MIN_WORDS else set()
        return self._shingles


def same_text(a: Text | list[str], b: Text | list[str]) -> bool:
    """The same or nearly the same description (see the module's note)."""
    ta = a if isinstance(a, Text) else _text_of(a)
    tb = b if isinstance(b, Text) else _text_of(b)
    return near_copy(ta, tb) or similar(ta, tb)


def near_copy(a: Text, b: Text) -> bool:
    """One passage apart as stored (`KEPT` of the characters, texts of RAW_KEPT_MIN or
    more): `same_text` without reading the words, a few slice comparisons in C
    (tests/perf/bench_samejob.py measures it)."""
    return min(len(a.raw), len(b.raw)) >= RAW_KEPT_MIN and _kept_chars(a.raw, b.raw)


def similar(ta: Text, tb: Text) -> bool:
    """`same_text` by the words: equal, one passage apart, or shingles in common."""
    if not ta.words or not tb.words:
        return False          # a missing description proves nothing
    if ta.words == tb.words:
        return True
    if len(ta.words) < MIN_WORDS or len(tb.words) < MIN_WORDS:
        return False          # too short to be "nearly" the same
    if _kept(ta.joined, tb.joined, len(ta.words), len(tb.words)):
        return True
    small, large = sorted((len(ta.shingles), len(tb.shingles)))
    if small < THRESHOLD * large:     # Jaccard is at most small / large
        return False
    return jaccard(ta.shingles, tb.shingles) >= THRESHOLD


def _text_of(tokens: list[str]) -> Text:
    made = Text(None)
    made._words = tokens
    return made
