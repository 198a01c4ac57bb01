"""answers.yaml: the user's answers for application forms, validated with file:line errors.

The bank is flattened to `key → answer`, each key the answers.yaml path it came
from (`identity.first_name`, `identity.links.github`, `salary_expectation`), so every
answer in a packet can say where it came from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jobtracker.text import one_line
from jobtracker.yamlfile import Document, load, parse

IDENTITY_KEYS = ("first_name", "last_name", "email", "phone", "location", "pronouns", "links")
LINK_KEYS = ("linkedin", "github", "website")
TOP_KEYS = ("work_authorization", "requires_sponsorship", "salary_expectation",
            "notice_period", "relocation")
EEO_CHOICES = ("decline",)
MAX_ANSWER_CHARS = 4000
_NON_WORD = re.compile(r"[^a-z0-9]+")


def words(text: str) -> str:
    """Lower-case words joined by single spaces: how labels, options and answers compare."""
    return _NON_WORD.sub(" ", text.lower()).strip()


@dataclass(frozen=True)
class Question:
    """A recurring custom question: the words a label must hold, and the answer."""

    match: tuple[str, ...]      # lower-case words, all of which must be in the label
    answer: str
    key: str                    # `questions[0]`, for the packet's `source`


@dataclass(frozen=True)
class Answers:
    values: dict[str, str] = field(default_factory=dict)   # answers.yaml path → answer
    eeo: str | None = None                                  # "decline", or None: unanswered
    questions: tuple[Question, ...] = ()

    def get(self, key: str) -> str | None:
        return self.values.get(key)


def _text(doc: Document, value: Any, *at: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise doc.error("must be text (quote answers like \"Yes\" and \"No\")", *at)
    text = one_line(str(value), MAX_ANSWER_CHARS)
    if not text:
        raise doc.error("must not be empty", *at)
    return text


def _mapping(doc: Document, value: Any, *at: Any, allowed: tuple[str, ...]) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise doc.error(f"must be a mapping, got {type(value).__name__}", *at)
    for key in value:
        if key not in allowed:
            raise doc.error(f"unknown key (expected one of: {', '.join(allowed)})", *at, key)
    return value


def _questions(doc: Document, value: Any) -> tuple[Question, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise doc.error("must be a list of {match: WORDS, answer: TEXT}", "questions")
    out = []
    for index, item in enumerate(value):
        raw = _mapping(doc, item, "questions", index, allowed=("match", "answer"))
        match = words(_text(doc, raw.get("match"), "questions", index, "match"))
        if not match:
            raise doc.error("must hold at least one word", "questions", index, "match")
        answer = _text(doc, raw.get("answer"), "questions", index, "answer")
        out.append(Question(tuple(match.split(" ")), answer, f"questions[{index}]"))
    return tuple(out)


def load_answers(path: Path) -> Answers:
    """answers.yaml; a missing or empty file is an empty bank (every field unresolved)."""
    return _answers(load(path))


def parse_answers(path: Path, text: str | None) -> Answers:
    """answers.yaml's text as already read (None: no file), checked as `load_answers`
    checks the file; ConfigError names `path`."""
    return _answers(parse(path, text) if text is not None else Document(path, None, {}))


def _answers(doc: Document) -> Answers:
    top = _mapping(doc, doc.data, allowed=("identity", *TOP_KEYS, "eeo", "questions"))
    values: dict[str, str] = {}
    identity = _mapping(doc, top.get("identity"), "identity", allowed=IDENTITY_KEYS)
    for key, value in identity.items():
        if key == "links":
            links = _mapping(doc, value, "identity", "links", allowed=LINK_KEYS)
            for name, url in links.items():
                if url is not None:
                    values[f"identity.links.{name}"] = _text(doc, url, "identity", "links", name)
        elif value is not None:
            values[f"identity.{key}"] = _text(doc, value, "identity", key)
    for key in TOP_KEYS:
        if top.get(key) is not None:
            values[key] = _text(doc, top[key], key)
    eeo = top.get("eeo")
    if eeo is not None and eeo not in EEO_CHOICES:
        raise doc.error(f"unknown value {eeo!r} (expected: decline, or leave it out to "
                        "answer those questions yourself)", "eeo")
    return Answers(values, eeo, _questions(doc, top.get("questions")))
