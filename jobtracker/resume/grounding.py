"""Grounding: what an edit to the resume may replace, and what it may name.

Pure functions over text: splitting `resume.md` into the lines, bullets and
sentences an edit may replace, the check that keeps a model from inventing a
skill, tool, employer or number, and applying accepted edits in document order.
docs/tailor.md states the rules in prose.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# --- the resume's editable pieces ---------------------------------------------------------

# A list marker or heading mark at the start of a line: "- ", "* ", "+ ", "1. ", "## ".
_MARKER = re.compile(r"^(?:[-*+•]|\d{1,3}[.)]|#{1,6})\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")


def pieces(resume: str) -> set[str]:
    """Every line, bullet (a line without its list marker) and sentence of the resume,
    stripped: the texts an edit's original may be."""
    found: set[str] = set()
    for line in resume.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        found.add(stripped)
        bullet = _MARKER.sub("", stripped, count=1).strip()
        if bullet:
            found.add(bullet)
            found.update(s.strip() for s in _SENTENCE_END.split(bullet) if s.strip())
    return found


# --- grounding: what counts as a new skill, tool, employer or number ------------------------

# A word, with the characters technical names use inside them (C++, C#, Node.js, CI/CD,
# scikit-learn); unicode letters count, so "Zürich" is one word.
_TOKEN = re.compile(r"[\w+#]+(?:[./\-'’][\w+#]+)*[+#]*")
# Marks that may sit between a sentence's start and its first word (list markers,
# headings, quotes, Markdown emphasis), and the characters that end a sentence.
_LEADING_MARKS = " \t\"'“‘(*_`-#>•|"
_SENTENCE_ENDS = frozenset(".!?:;\n")
_NOT_TERMS = frozenset({"i", "e.g", "i.e", "etc", "vs"})


@dataclass(frozen=True)
class Token:
    text: str
    initial: bool        # first word of a sentence, line or bullet


def tokens(text: str) -> list[Token]:
    """The words of `text`, each marked when it starts a sentence (where a capital
    letter says nothing about the word)."""
    out = []
    for match in _TOKEN.finditer(text):
        before = text[:match.start()].rstrip(_LEADING_MARKS)
        out.append(Token(match.group(), not before or before[-1] in _SENTENCE_ENDS))
    return out


def _parts(word: str) -> list[str]:
    """A compound's parts, without a possessive or contraction: "Python-based" →
    Python, based; "CI/CD" → CI, CD; "Acme's" → Acme."""
    return [p for p in (q.split("'")[0].split("’")[0] for q in re.split(r"[-/]", word)) if p]


def shaped_like_a_term(word: str, initial: bool) -> bool:
    """Whether a word looks like a name rather than an ordinary word: it holds a digit
    (EC2, 40%, 2019), + or # (C++, C#), an inner dot (Node.js), a capital after its
    first letter (AWS, GitHub, gRPC), or a capital first letter where a sentence
    does not start (Kubernetes, Google)."""
    if word.lower() in _NOT_TERMS:
        return False
    if any(ch.isdigit() for ch in word) or "+" in word or "#" in word:
        return True
    if "." in word.strip("."):
        return True
    if any(ch.isupper() for ch in word[1:]):
        return True
    return word[:1].isupper() and not initial


def vocabulary(texts: Iterable[str]) -> frozenset[str]:
    """Every word of `texts` (and every part of a compound), lower-cased."""
    words: set[str] = set()
    for text in texts:
        for token in tokens(text):
            lowered = token.text.lower()
            words.add(lowered)
            words.update(_parts(lowered))
    return frozenset(words)


def proper_terms(text: str) -> frozenset[str]:
    """The words a posting uses as names, lower-cased: those shaped like a term even
    at a sentence's start (digits, symbols, inner capitals), and those it writes with
    a capital inside a sentence and never in lower case (Kubernetes, but not a
    heading's "Team" when the posting also says "team")."""
    shaped: set[str] = set()
    capitalized: set[str] = set()
    lower_seen: set[str] = set()
    for token in tokens(text):
        for index, part in enumerate(_parts(token.text)):
            initial = token.initial and index == 0
            if shaped_like_a_term(part, True):
                shaped.add(part.lower())
            elif part[:1].isupper() and not initial:
                capitalized.add(part.lower())
            elif part == part.lower():
                lower_seen.add(part)
    return frozenset((shaped | (capitalized - lower_seen)) - _NOT_TERMS)


@dataclass(frozen=True)
class Grounding:
    """What an edit or a letter may name: the words of the resume and keywords
    (`known`), judged against the names the posting uses (`posting_terms`)."""

    known: frozenset[str]
    posting_terms: frozenset[str] = frozenset()

    @classmethod
    def build(cls, sources: Iterable[str], posting: str = "") -> Grounding:
        return cls(vocabulary(sources), proper_terms(posting))

    def invented(self, text: str) -> list[str]:
        """The words of `text` that name something neither the resume nor the keywords
        do: a term-shaped word, or a word the posting uses as a name, not in `known`."""
        found: list[str] = []
        for token in tokens(text):
            if token.text.lower() in self.known:
                continue
            for index, part in enumerate(_parts(token.text)):
                lowered = part.lower()
                if lowered in self.known or lowered in _NOT_TERMS:
                    continue
                initial = token.initial and index == 0
                term = shaped_like_a_term(part, initial) or lowered in self.posting_terms
                if term and part not in found:
                    found.append(part)
        return found


# --- edits ----------------------------------------------------------------------------

class Ungrounded(ValueError):
    """An edit or paragraph the resume does not support; the message says why."""


@dataclass(frozen=True)
class Edit:
    original: str
    replacement: str
    start: int            # where `original` sits in the resume
    end: int

    def overlaps(self, other: Edit) -> bool:
        return self.start < other.end and other.start < self.end


def locate(resume: str, original: str) -> tuple[int, int]:
    """Where `original` (stripped) sits in the resume; Ungrounded unless it is a line,
    bullet or sentence of it that occurs exactly once."""
    text = original.strip()
    if not text:
        raise Ungrounded("the original is empty")
    start = resume.find(text)
    if start < 0 or text not in pieces(resume):
        shown = text if len(text) <= 60 else text[:57] + "..."
        raise Ungrounded(f"the original is not a line, bullet or sentence of "
                         f"resume.md: {shown!r}")
    if resume.find(text, start + 1) >= 0:
        raise Ungrounded("the original occurs more than once in resume.md, so which one "
                         "to change is ambiguous")
    return start, start + len(text)


def ground_edit(resume: str, grounding: Grounding, original: str, replacement: str) -> Edit:
    """The edit, located in the resume; Ungrounded when its original is not in the resume
    or its replacement names something the resume and keywords do not."""
    marker = _MARKER.match(original.strip())
    if marker:
        # A model may copy the list marker too; the edit is to the bullet's text.
        original = original.strip()[marker.end():]
        replacement = _MARKER.sub("", replacement.strip(), count=1)
    start, end = locate(resume, original)
    new = replacement.strip()
    if not new:
        raise Ungrounded("the replacement is empty")
    if new == resume[start:end]:
        raise Ungrounded("the replacement changes nothing")
    invented = grounding.invented(new)
    if invented:
        raise Ungrounded("the replacement names what neither resume.md nor keywords.yaml "
                         f"does: {', '.join(invented[:5])}")
    return Edit(resume[start:end], new, start, end)


def apply_edits(resume: str, edits: Sequence[Edit]) -> str:
    """The resume with every edit applied, in document order. ValueError on overlap."""
    ordered = sorted(edits, key=lambda e: (e.start, e.end))
    out, at = [], 0
    for previous, edit in zip([None, *ordered], ordered, strict=False):
        if previous is not None and previous.overlaps(edit):
            raise ValueError(f"edits overlap: {previous.original!r} and {edit.original!r}")
        if resume[edit.start:edit.end] != edit.original:
            raise ValueError(f"edit does not match the resume at {edit.start}")
        out += [resume[at:edit.start], edit.replacement]
        at = edit.end
    out.append(resume[at:])
    return "".join(out)


