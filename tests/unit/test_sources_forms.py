"""The form types and the bounds every form reader applies: fields past MAX_FIELDS
counted and left out, labels one clean line, options only those with a label."""

from __future__ import annotations

from jobtracker.sources.forms import (
    LABEL_CHARS,
    MAX_FIELDS,
    MAX_OPTIONS,
    Field,
    Form,
    bounded,
    description,
    label,
    options,
)


def test_a_form_keeps_its_first_fields_and_counts_the_rest() -> None:
    form = bounded("toy", (Field(f"Q{i}", f"q{i}", "input_text") for i in range(MAX_FIELDS + 7)))
    assert (form.kind, len(form.fields), form.cut) == ("toy", MAX_FIELDS, 7)
    assert form.fields[-1].name == f"q{MAX_FIELDS - 1}"
    assert Form.from_json(form.to_json()) == form


def test_labels_descriptions_and_options_are_bounded_single_lines() -> None:
    assert label("Why\n\x1b[31mus?") == "Why us?"
    assert len(label("x" * 5000)) <= LABEL_CHARS
    assert label(None) == "" and label(7) == ""
    assert description("<p>Tell us <b>why</b>.</p>") == "Tell us why."
    values = [{"label": "Yes"}, {"label": ""}, "No", {"value": 1}] + [{"label": "o"}] * 500
    assert options(values)[:2] == ("Yes", "o")
    assert len(options(values)) <= MAX_OPTIONS
    assert options("nope") == ()


def test_a_select_field_round_trips_through_json() -> None:
    field = Field("Gender", "gender", "multi_value_single_select", True, ("A", "B"),
                  "demographic")
    assert field.eeo and Field.from_json(field.to_json()) == field
