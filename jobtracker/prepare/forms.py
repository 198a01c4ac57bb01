"""Application forms as typed fields: Greenhouse's public form, or the standard set.

Greenhouse publishes each job's form at the listing's address plus `/{id}` with
`?questions=true`: `questions`, `location_questions`, `compliance` (EEO sections,
each with its own questions) and `demographic_questions` (whose questions carry
`answer_options` instead of `fields`). Everything here is pure: the download is
`form_plan`, run by jobtracker/postings/download.py like any board's plan.

A form comes from the employer, so it is bounded and cleaned as it is read: at
most MAX_FIELDS fields and MAX_OPTIONS options each, labels one clean line.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable
from dataclasses import asdict, dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from jobtracker.sources.base import Request, Response, SourceError, load_json, segment
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
    kind: str                          # "greenhouse" or "standard"
    fields: tuple[Field, ...]
    cut: int = 0                       # fields past MAX_FIELDS, left out

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "cut": self.cut,
                "fields": [f.to_json() for f in self.fields]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Form:
        return cls(str(data["kind"]), tuple(Field.from_json(f) for f in data["fields"]),
                   int(data.get("cut", 0)))


def _standard() -> Form:
    text = (("First name", "first_name"), ("Last name", "last_name"), ("Email", "email"),
            ("Phone", "phone"), ("Location", "location"), ("LinkedIn", "linkedin"),
            ("GitHub", "github"), ("Website", "website"))
    after = (("Are you legally authorized to work in the country of this job?",
              "work_authorization"),
             ("Will you now or in the future require visa sponsorship?", "sponsorship"),
             ("Salary expectation", "salary_expectation"), ("Notice period", "notice_period"),
             ("Are you open to relocation?", "relocation"))
    required = {"first_name", "last_name", "email", "resume"}
    fields = [Field(label, name, "input_text", name in required) for label, name in text]
    fields += [Field("Resume/CV", "resume", FILE_TYPE, True),
               Field("Cover letter", "cover_letter", FILE_TYPE, False)]
    fields += [Field(label, name, "input_text", False) for label, name in after]
    return Form("standard", tuple(fields))


STANDARD = _standard()


# --- Greenhouse ---------------------------------------------------------------------------

def form_url(listing_url: str, external_id: str) -> str:
    """The form of job `external_id` on the board listed at `listing_url`: the listing's
    path plus `/{id}`, query `questions=true` (so a mirror serves its own forms)."""
    parts = urlsplit(listing_url)
    path = f"{parts.path.rstrip('/')}/{segment(external_id)}"   # ValueError for `..`
    return urlunsplit((parts.scheme, parts.netloc, path, "questions=true", ""))


def form_plan(url: str) -> Generator[Request, Response, Form]:
    """One GET of a Greenhouse form; SourceError when the body is not one."""
    response = yield Request(url)
    return parse_greenhouse(response.body)


def _label(value: Any) -> str:
    return one_line(value if isinstance(value, str) else "", LABEL_CHARS)


def _description(value: Any) -> str:
    if not isinstance(value, str) or not value:
        return ""
    return one_line(html_to_text(value[:20 * DESCRIPTION_CHARS]), DESCRIPTION_CHARS)


def _options(values: Any) -> tuple[str, ...]:
    if not isinstance(values, list):
        return ()
    labels = (_label(v.get("label")) for v in values[:MAX_OPTIONS] if isinstance(v, dict))
    return tuple(label for label in labels if label)


def _question_fields(question: Any, section: str) -> Iterable[Field]:
    """The fields of one question. A question with a file field offers its other fields
    (paste the text instead) as alternatives: only the file is kept."""
    if not isinstance(question, dict):
        return ()
    label, required = _label(question.get("label")), question.get("required") is True
    description = _description(question.get("description"))
    raw = question.get("fields")
    if not isinstance(raw, list):   # demographic questions: one select, `answer_options`
        kind = question.get("type")
        return (Field(label, f"demographic_{one_line(str(question.get('id', '')), 40)}",
                      kind if isinstance(kind, str) else "unknown", required,
                      _options(question.get("answer_options")), section, description),)
    fields = [f for f in raw if isinstance(f, dict)]
    if any(f.get("type") == FILE_TYPE for f in fields):
        fields = [f for f in fields if f.get("type") == FILE_TYPE]
    return tuple(
        Field(label, _label(f.get("name")), _label(f.get("type")) or "unknown", required,
              _options(f.get("values")), section, description)
        for f in fields if f.get("type") != HIDDEN_TYPE)


def _sections(data: dict[str, Any]) -> Iterable[tuple[str, Any]]:
    for question in _list(data.get("questions")):
        yield "questions", question
    for question in _list(data.get("location_questions")):
        yield "location", question
    for part in _list(data.get("compliance")):
        if isinstance(part, dict):
            for question in _list(part.get("questions")):
                yield "compliance", question
    demographic = data.get("demographic_questions")
    if isinstance(demographic, dict):
        demographic = demographic.get("questions")
    for question in _list(demographic):
        yield "demographic", question


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def parse_greenhouse(payload: bytes | str | Any) -> Form:
    """A Greenhouse job with `?questions=true` → its form, bounded."""
    data = load_json(payload)
    if not isinstance(data, dict) or not isinstance(data.get("questions"), list):
        raise SourceError("not a Greenhouse form: no `questions` list")
    fields: list[Field] = []
    cut = 0
    for section, question in _sections(data):
        for field in _question_fields(question, section):
            if len(fields) < MAX_FIELDS:
                fields.append(field)
            else:
                cut += 1
    return Form("greenhouse", tuple(fields), cut)
