"""Application forms for prepare: a source's own, read by its declared reader, or the
standard set.

A source that publishes each job's form declares a `FormReader` (`Source.form`,
jobtracker/sources/base.py: the form's address and its parser); prepare reads the
form of a posting from such a source with `form_plan`, run by
jobtracker/postings/download.py like any board's plan. A posting from a source that
declares none gets `STANDARD`, the fields most forms ask; `without_forms()` names
those sources. The form types live with the readers, and are named here too.
"""

from __future__ import annotations

from collections.abc import Generator

from jobtracker.sources import REGISTRY
from jobtracker.sources.base import FormReader, Request, Response, Source
from jobtracker.sources.forms import (
    DESCRIPTION_CHARS,
    EEO_SECTIONS,
    FILE_TYPE,
    HIDDEN_TYPE,
    KNOWN_TYPES,
    LABEL_CHARS,
    MAX_FIELDS,
    MAX_OPTIONS,
    SECTIONS,
    SELECT_TYPES,
    TEXT_TYPES,
    Field,
    Form,
)


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


def reader_of(source: str | None) -> FormReader | None:
    """The form reader the posting's source declares; None for a source that declares
    none, or a name no source has (a feed's posting)."""
    found: Source | None = REGISTRY.get(source or "")
    return found.form if found is not None else None


def without_forms() -> list[str]:
    """The registered sources that publish no form (their postings get the standard
    set), in the registry's order."""
    return [source.name for source in REGISTRY.values() if source.form is None]


def form_plan(url: str, reader: FormReader) -> Generator[Request, Response, Form]:
    """One GET of a form, read by its source's reader; SourceError when the body is not
    one."""
    response = yield Request(url)
    return reader.parse(response.body)


__all__ = ["DESCRIPTION_CHARS", "EEO_SECTIONS", "FILE_TYPE", "HIDDEN_TYPE", "KNOWN_TYPES",
           "LABEL_CHARS", "MAX_FIELDS", "MAX_OPTIONS", "SECTIONS", "SELECT_TYPES", "STANDARD",
           "TEXT_TYPES", "Field", "Form", "FormReader", "form_plan", "reader_of",
           "without_forms"]
