"""Resolution: a form and the answer bank → one answer per field, or none. Pure.

The rules, in the order they are tried for each field:

1. A field of a type this does not know stays unresolved, its type shown.
2. A file field takes the packet's resume (a resume or CV) or letter (a cover
   letter, when one was accepted): its PDF or DOCX when the packet has one, else
   its Markdown; any other file stays unresolved.
3. An EEO / demographic select, with `eeo: decline`, takes its own "decline to
   self-identify" option (whatever its wording); other EEO fields stay unresolved.
4. The user's own `questions`: the first whose words are all in the label.
5. The synonyms table: label words → an answers.yaml key.
6. A select field is answered only with one of its own options: the answer's
   label exactly, or its "Yes"/"No" variant when exactly one option starts so.
   Anything else leaves it unresolved: an answer is never invented.
7. A free-text question nothing above answers (`free_text`) takes the drafted
   answer the user accepted for it (the `answer` task's proposals), if any.

Each answer records its source: the answers.yaml key, `resume`, `letter` or
`proposal`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from jobtracker.prepare.answer_bank import Answers, words
from jobtracker.prepare.forms import (
    FILE_TYPE,
    KNOWN_TYPES,
    SELECT_TYPES,
    TEXT_TYPES,
    Field,
    Form,
)

# Label words → answers.yaml key. First match wins, so the narrower comes first
# ("require sponsorship to work" is sponsorship, "relocate to this location" relocation).
SYNONYMS: tuple[tuple[str, str], ...] = (
    ("requires_sponsorship", r"sponsor\w*|visa"),
    ("work_authorization", r"authori[sz](?:ed|ation)|right to work|eligible to work"
                           r"|legally (?:able|allowed|entitled|permitted) to work"),
    ("salary_expectation", r"(?<!current )salary|(?:expected|desired) (?:pay|compensation)"
                           r"|compensation expectations?|pay expectations?"),
    ("notice_period", r"notice|(?:when|how soon) can you start|earliest start"),
    ("relocation", r"relocat\w*"),
    ("identity.pronouns", r"pronouns?"),
    ("identity.links.linkedin", r"linkedin"),
    ("identity.links.github", r"github"),
    ("identity.links.website", r"website|portfolio|personal site|blog"),
    ("identity.first_name", r"first name|given name|forename|preferred name"),
    ("identity.last_name", r"last name|surname|family name"),
    ("identity.email", r"e ?mail"),
    ("identity.phone", r"phone|mobile|telephone"),
    ("identity.location", r"location|city|where are you (?:based|located)"),
)
_SYNONYMS = tuple((key, re.compile(rf"\b(?:{words})\b")) for key, words in SYNONYMS)
_FULL_NAME = re.compile(r"^(?:(?:full|legal) )?name$")
_RESUME = re.compile(r"\b(?:resume|cv|curriculum vitae)\b")
_LETTER = re.compile(r"\bcover letter\b")
_DECLINE = re.compile(r"\bdecline|\bdon t wish|\bdo not wish|\bprefer not|\bchoose not"
                      r"|\bwish not|\bnot to (?:say|disclose|answer|self identify)")
_YES, _NO = ("yes", "y", "true"), ("no", "n", "false")


@dataclass(frozen=True)
class Resolved:
    field: Field
    answer: str | list[str] | None
    source: str | None
    note: str = ""               # why it is unresolved, for people
    files: tuple[str, ...] = ()  # a file field's packet files, the one to upload first

    @property
    def resolved(self) -> bool:
        return self.answer is not None

    @property
    def missing(self) -> bool:
        """Required, and nothing to answer it with: the user's part."""
        return self.field.required and not self.resolved

    def to_json(self) -> dict[str, Any]:
        f = self.field
        return {"label": f.label, "name": f.name, "type": f.type, "required": f.required,
                "answer": self.answer, "source": self.source, "resolved": self.resolved,
                "section": f.section, "options": list(f.options), "note": self.note,
                **({"files": list(self.files)} if self.files else {})}


@dataclass(frozen=True)
class Resolution:
    kind: str                    # the form's kind: "greenhouse" or "standard"
    fields: tuple[Resolved, ...]  # in form order

    @property
    def unresolved_required(self) -> list[str]:
        return [r.field.label for r in self.fields if r.missing]

    @property
    def needs_you_first(self) -> list[Resolved]:
        """Unresolved required fields first, then the rest, each in form order."""
        return ([r for r in self.fields if r.missing]
                + [r for r in self.fields if not r.missing])


def _bank_answer(field: Field, label: str, bank: Answers) -> tuple[str, str] | None:
    """(answer, source key) for a text or select field from the bank, or None."""
    label_words = set(label.split(" "))
    for question in bank.questions:
        if label_words.issuperset(question.match):
            return question.answer, question.key
    if _FULL_NAME.match(label):
        first, last = bank.get("identity.first_name"), bank.get("identity.last_name")
        if first and last:
            return f"{first} {last}", "identity"
    for key, pattern in _SYNONYMS:
        if pattern.search(label):
            answer = bank.get(key)
            return (answer, key) if answer else None
    return None


def _yes_no(answer: str) -> str | None:
    first = words(answer).split(" ")[0] if answer else ""
    return "yes" if first in _YES else "no" if first in _NO else None


def choose(options: tuple[str, ...], answer: str) -> str | None:
    """The one option `answer` names: by its label, else its Yes/No variant; else None."""
    wanted = words(answer)
    for option in options:
        if words(option) == wanted:
            return option
    polarity = _yes_no(answer)
    if polarity is None:
        return None
    starting = [o for o in options if words(o).split(" ")[0] == polarity]
    return starting[0] if len(starting) == 1 else None


def _select(field: Field, answer: str, source: str) -> Resolved:
    if field.type == "multi_value_multi_select":
        parts = [p for p in re.split(r"[;,]", answer) if p.strip()]
        chosen = [choose(field.options, part) for part in parts]
        if parts and all(chosen):
            return Resolved(field, [c for c in chosen if c], source)
    else:
        picked = choose(field.options, answer)
        if picked is not None:
            return Resolved(field, picked, source)
    return Resolved(field, None, None, f"{source} ({answer!r}) is none of its options")


Documents = dict[str, tuple[str, ...]]   # "resume" → its packet files, first to upload first
MARKDOWN_ONLY: Documents = {"resume": ("resume.md",), "letter": ("letter.md",)}


def document_of(field: Field) -> str | None:
    """Which of the packet's documents a file field asks for: `resume`, `letter`, or
    None (a file answers.yaml cannot give)."""
    if field.type != FILE_TYPE:
        return None
    label = words(field.label)
    if _LETTER.search(label) or "cover_letter" in field.name:
        return "letter"
    if _RESUME.search(label) or field.name == "resume":
        return "resume"
    return None


def _file(field: Field, has_letter: bool, documents: Documents,
          broken: dict[str, str]) -> Resolved:
    stem = document_of(field)
    if stem == "letter" and not has_letter:
        return Resolved(field, None, None, "no accepted letter for this posting")
    if stem is None:
        return Resolved(field, None, None, "a file answers.yaml cannot give")
    names = documents.get(stem) or MARKDOWN_ONLY[stem]
    if stem in broken:
        # A document that is missing or failed its check answers nothing: the packet
        # says why, and the field is the user's (required: prepare exits 1).
        return Resolved(field, None, None, broken[stem], files=names)
    return Resolved(field, names[0], stem, files=names)


def _eeo(field: Field, bank: Answers) -> Resolved:
    if bank.eeo != "decline":
        return Resolved(field, None, None, "eeo: not set in answers.yaml")
    if field.type in SELECT_TYPES:
        for option in field.options:
            if _DECLINE.search(words(option)):
                answer = [option] if field.type == "multi_value_multi_select" else option
                return Resolved(field, answer, "eeo")
    return Resolved(field, None, None, "no option declines to self-identify")


def free_text(field: Field) -> bool:
    """A question of the employer's own that only the applicant can answer in words
    ("Why do you want to work here?"): a text field that no answers.yaml key is for
    (a name, a link, salary, notice...), outside the EEO sections."""
    if field.type not in TEXT_TYPES or field.eeo:
        return False
    label = words(field.label)
    return not (_FULL_NAME.match(label) or any(p.search(label) for _, p in _SYNONYMS))


def resolve_field(field: Field, bank: Answers, has_letter: bool = False,
                  documents: Documents | None = None,
                  drafted: dict[str, str] | None = None,
                  broken: dict[str, str] | None = None) -> Resolved:
    resolved = _resolve_field(field, bank, has_letter, documents, broken or {})
    if not resolved.resolved and drafted and field.name in drafted and free_text(field):
        return Resolved(field, drafted[field.name], "proposal")
    return resolved


def _resolve_field(field: Field, bank: Answers, has_letter: bool,
                   documents: Documents | None, broken: dict[str, str]) -> Resolved:
    label = words(field.label)
    if field.type not in KNOWN_TYPES:
        return Resolved(field, None, None, f"unknown field type {field.type!r}")
    if field.type == FILE_TYPE:
        return _file(field, has_letter, documents or MARKDOWN_ONLY, broken)
    if field.eeo:
        return _eeo(field, bank)
    found = _bank_answer(field, label, bank)
    if found is None:
        return Resolved(field, None, None, "nothing in answers.yaml matches")
    answer, source = found
    if field.type in SELECT_TYPES:
        return _select(field, answer, source)
    return Resolved(field, answer, source)


def resolve(form: Form, bank: Answers, has_letter: bool = False,
            documents: Documents | None = None,
            drafted: dict[str, str] | None = None,
            broken: dict[str, str] | None = None) -> Resolution:
    """Every field of `form`, in order, answered from `bank` where the rules allow;
    a file field with the packet's `documents` (default: the Markdown files) unless
    `broken` says why that document cannot be sent (missing, or it failed its
    read-back), a free-text question with the accepted draft `drafted` holds for its
    name."""
    return Resolution(form.kind, tuple(
        resolve_field(f, bank, has_letter, documents, drafted, broken) for f in form.fields))
