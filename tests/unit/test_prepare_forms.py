"""Reading forms: Greenhouse's public shape, bounded and cleaned."""

from __future__ import annotations

import json

import pytest

from jobtracker.prepare.forms import MAX_FIELDS, Form
from jobtracker.sources import SourceError
from jobtracker.sources.greenhouse import form_url
from jobtracker.sources.greenhouse import parse_form as parse_greenhouse
from tests.servers.boards import gh_field, gh_question, greenhouse_form


def test_form_url_is_the_listing_path_plus_the_id_with_questions() -> None:
    assert form_url("https://boards-api.greenhouse.io/v1/boards/acme/jobs?content=true",
                    "123") == "https://boards-api.greenhouse.io/v1/boards/acme/jobs/123?questions=true"
    assert form_url("http://127.0.0.1:8/gh/acme", "7") == "http://127.0.0.1:8/gh/acme/7?questions=true"


def test_every_part_of_a_greenhouse_form_is_read_in_order() -> None:
    form = parse_greenhouse(json.dumps(greenhouse_form(1, "Engineer")))
    sections = [f.section for f in form.fields]
    assert sections == sorted(sections, key=["questions", "location", "compliance",
                                              "demographic"].index)
    by_label = {f.label: f for f in form.fields}
    assert by_label["Resume/CV"].type == "input_file", "the paste-instead textarea is dropped"
    assert by_label["Are you legally authorized to work in Germany?"].options == ("Yes", "No")
    assert by_label["What are your pronouns?"].options == ("she/her", "I prefer not to answer")
    assert "Hidden" not in by_label
    assert Form.from_json(json.loads(json.dumps(form.to_json()))) == form


def test_hostile_labels_arrive_as_one_clean_line() -> None:
    hostile = "[red]x[/red] \x1b[31mEvil\x1b[0m\n../../etc/passwd\u202e"
    body = greenhouse_form(1, "E", questions=[gh_question(hostile, gh_field("q"))])
    label = parse_greenhouse(body).fields[0].label
    assert "\x1b" not in label and "\n" not in label and "\u202e" not in label
    assert label.startswith("[red]x[/red]"), "kept literally; the TUI never reads it as markup"


def test_a_500_question_form_is_bounded_and_unknown_types_kept() -> None:
    questions = [gh_question(f"Q{i}", gh_field(f"q{i}", "date_picker" if i == 0 else "input_text",
                                               [str(n) for n in range(1000)]))
                 for i in range(500)]
    form = parse_greenhouse(greenhouse_form(1, "E", questions=questions))
    assert len(form.fields) == MAX_FIELDS and form.cut > 0
    assert form.fields[0].type == "date_picker"
    assert max(len(f.options) for f in form.fields) == 200


@pytest.mark.parametrize("body", [b"<html>", b"[]", b'{"questions": "no"}', b"{}"])
def test_a_body_that_is_no_form_is_a_source_error(body: bytes) -> None:
    with pytest.raises(SourceError):
        parse_greenhouse(body)


def test_garbage_inside_a_form_is_skipped_not_fatal() -> None:
    form = parse_greenhouse({"questions": [1, None, {"label": 5, "fields": [3, {"type": 9}]},
                                           gh_question("Email", gh_field("email"))],
                             "compliance": "x", "demographic_questions": [None]})
    assert [f.label for f in form.fields][-1] == "Email"


def test_the_docs_name_every_source_that_publishes_no_form() -> None:
    from pathlib import Path

    from jobtracker.prepare.forms import reader_of, without_forms

    docs = (Path(__file__).resolve().parents[2] / "docs" / "prepare.md").read_text()
    [row] = [line for line in docs.splitlines() if "| none read: the standard set" in line]
    named = row.split("|")[1].replace(", and feeds", "").strip().split(", ")
    assert named == without_forms()
    assert reader_of("greenhouse") is not None and reader_of("feed") is None
