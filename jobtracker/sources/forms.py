"""Application forms as typed fields, and the bounds every form reader applies.

A source that publishes each job's application form declares a `FormReader`
(jobtracker/sources/base.py) on its `Source` (`form=`): the form's address, built
from the board's listing address and the job's id, and a parser of what that address
answers into a `Form`; this module is imported only when a form is read. `prepare` reads the form
of every posting whose source declares one and uses the standard set for the rest
(jobtracker/prepare/forms.py, docs/prepare.md). Everything here is pure: the
download is prepare's, run by jobtracker/postings/download.py like any board's plan.

A form comes from the employer, so it is bounded and cleaned as it is read (the
helpers below, for every reader): at most MAX_FIELDS fields and MAX_OPTIONS options
each, labels one clean line.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from jobtracker.text import html_to_text, one_line

MAX_FIELDS = 300
MAX_OPTIONS = 200
LABEL_CHARS = 300
DESCRIPTION_CHARS = 500

TEXT_TYPES = ("input_text", "textarea")
SELECT_TYPES = ("multi_value_single_select", "multi_value_multi_select")
FILE_TYPE = "input_file"
HIDDEN_TYPE = "input_hidden"
KNOWN_TYPES = (*TEXT_TYPES, *SELECT_TYPES, FILE_TYPE)
# Which part of the form a field is in; EEO answers apply only to the last two.
SECTIONS = ("questions", "location", "compliance", "demographic")
EEO_SECTIONS = ("compliance", "demographic")


@dataclass(frozen=True)
class Field:
    label: str
    name: str
    type: str
    required: bool = False
    options: tuple[str, ...] = ()      # a select field's own option labels, in order
    section: str = "questions"
    description: str = ""

    @property
    def eeo(self) -> bool:
        return self.section in EEO_SECTIONS

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "options": list(self.options)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Field:
        return cls(**{**data, "options": tuple(data.get("options") or ())})


@dataclass(frozen=True)
class Form:
    kind: str                          # the source whose form it is, or "standard"
    fields: tuple[Field, ...]
    cut: int = 0                       # fields past MAX_FIELDS, left out

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "cut": self.cut,
                "fields": [f.to_json() for f in self.fields]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Form:
        return cls(str(data["kind"]), tuple(Field.from_json(f) for f in data["fields"]),
                   int(data.get("cut", 0)))


def label(value: Any) -> str:
    """An employer's label or name: one clean line of at most LABEL_CHARS."""
    return one_line(value if isinstance(value, str) else "", LABEL_CHARS)


def description(value: Any) -> str:
    """A field's HTML description as one line of text of at most DESCRIPTION_CHARS."""
    if not isinstance(value, str) or not value:
        return ""
    return one_line(html_to_text(value[:20 * DESCRIPTION_CHARS]), DESCRIPTION_CHARS)


def options(values: Any) -> tuple[str, ...]:
    """The labels of a select's first MAX_OPTIONS options (mappings with a `label`)."""
    if not isinstance(values, list):
        return ()
    labels = (label(v.get("label")) for v in values[:MAX_OPTIONS] if isinstance(v, dict))
    return tuple(text for text in labels if text)


def bounded(kind: str, fields: Iterable[Field]) -> Form:
    """A form of `kind` from `fields`, its first MAX_FIELDS kept
    and the rest counted in `cut`."""
    kept: list[Field] = []
    cut = 0
    for item in fields:
        if len(kept) < MAX_FIELDS:
            kept.append(item)
        else:
            cut += 1
    return Form(kind, tuple(kept), cut)


__all__ = ["DESCRIPTION_CHARS", "EEO_SECTIONS", "FILE_TYPE", "HIDDEN_TYPE", "KNOWN_TYPES",
           "LABEL_CHARS", "MAX_FIELDS", "MAX_OPTIONS", "SECTIONS", "SELECT_TYPES", "TEXT_TYPES",
           "Field", "Form", "bounded", "description", "label", "options"]
