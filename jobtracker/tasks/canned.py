"""What a task's canned answer is made of: the declaration and the shared reading.

The bundled demo model (jobtracker/demo/) runs no model: it answers each question
with the canned answer the task asked declares (`Task.demo`, a `DemoAnswer`), built
from the question's text and the demo resume (`Resume`), and fitted to the schema
the request carries. A task that declares none gets the smallest instance of its
schema. The demo names no task: adding one, its canned answer comes with it.

The helpers below read a prompt the way several tasks' canned answers need: its
words (`tokens`), its sentences, the posting part of it, and a few ways of saying
a list back in plain English.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any


class Resume:
    """The demo resume and keywords: what the canned answers may draw on."""

    def __init__(self, text: str, keywords: Iterable[str]) -> None:
        self.text = text
        self.keywords = [k for k in dict.fromkeys(keywords) if k.strip()]
        self.bullets = [line.strip()[2:].strip() for line in text.splitlines()
                        if line.strip()[:2] in ("- ", "* ") and len(line.strip()) > 12]
        self.paragraphs = [line.strip() for line in text.splitlines()
                           if line.strip() and line.strip()[0].isalpha()]


class DemoAnswer:
    """A task's canned answer, for the demo model.

    `answer(text, resume)` is what the answer means (a dict the demo fits to the
    requested schema), read from `text`, the question's last user message;
    `latency` the seconds the demo takes to say it (scaled by the demo's setting);
    `field` a property of the task's schema that tells its questions apart when the
    request names no schema ("" when none does). A plain class, not a dataclass:
    every task loads it, the demo or not."""

    __slots__ = ("answer", "field", "latency")

    def __init__(self, answer: Callable[[str, Resume], dict[str, Any]], latency: float = 0.3,
                 field: str = "") -> None:
        self.answer = answer
        self.latency = latency
        self.field = field


_TOKEN = re.compile(r"[a-z0-9][a-z0-9+#]*")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n")


def tokens(text: str) -> list[str]:
    """The words of `text`, lower case (`c++` and `c#` are words)."""
    return _TOKEN.findall(text.lower())


def sentences(text: str) -> list[str]:
    return [part.strip() for part in _SENTENCE.split(text) if part.strip()]


def joined(words: Sequence[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def as_written(word: str, text: str) -> str:
    """`word` as the text spells it (its first occurrence), for quoting it back."""
    found = re.search(rf"(?<![\w+#]){re.escape(word)}(?![\w+#])", text, re.I)
    return found.group(0) if found else word


def lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def article(text: str) -> str:
    return "an" if text[:1].lower() in "aeiou" else "a"


def posting_part(text: str, resume_lines: Sequence[str]) -> str:
    """The posting in a prompt: between <posting> tags, else every line that is not
    one of the resume's own (the prompt shows the resume too)."""
    if "<posting>" in text:
        return text.split("<posting>", 1)[1].split("</posting>", 1)[0]
    return "\n".join(line for line in text.splitlines()
                     if line.strip().lstrip("-* ").strip() not in resume_lines)


def closest(resume: Resume, text: str, count: int) -> list[str]:
    """The `count` resume bullets sharing the most words with the posting in `text`."""
    asked = set(tokens(posting_part(text, resume.bullets)))
    return sorted(resume.bullets, key=lambda b: -len(set(tokens(b)) & asked))[:count]


__all__ = ["DemoAnswer", "Resume", "article", "as_written", "closest", "joined",
           "lower_first", "posting_part", "sentences", "tokens"]
