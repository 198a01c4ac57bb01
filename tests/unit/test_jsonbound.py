"""The bounded JSON reader: every way Python's decoder fails that is not a
JSONDecodeError is a JSONRefused (a ValueError) with one line, and ordinary JSON reads
as `json.loads` reads it. Shown on the readers that use it: a board's answer, a
resume import."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jobtracker import jsonbound
from jobtracker.jsonbound import JSONRefused, deeper_than, loads
from jobtracker.render import jsonresume
from jobtracker.sources.base import SourceError, load_json

DEEP = [("[" * n + "]" * n) for n in (201, 999, 5000, 200_000)] + [
    '{"a":' * 300 + "1" + "}" * 300,
    '[{"k": [' * 120 + "0" + "]}]" * 120,
    "[" * 300_000,                                     # never closed
]
NUMBERS = ["9" * 101, "-" + "1" * 5000, "1" + "0" * 4400, "0." + "5" * 200, "1e" + "9" * 200]
NOT_JSON = ["", "{", "[1,]", "{'a': 1}", '"\\x"', b"\xff\xfe", "[1] [2]"]


@pytest.mark.parametrize("text", DEEP, ids=lambda t: f"{len(t)} chars")
@pytest.mark.parametrize("as_bytes", [False, True])
def test_nesting_past_the_bound_is_refused(text: str, as_bytes: bool) -> None:
    with pytest.raises(JSONRefused, match="nest"):
        loads(text.encode() if as_bytes else text)


@pytest.mark.parametrize("digits", NUMBERS, ids=lambda t: f"{len(t)} chars")
def test_a_number_past_its_length_is_refused(digits: str) -> None:
    with pytest.raises(JSONRefused, match="a number of"):
        loads(f'{{"count": {digits}}}')


@pytest.mark.parametrize("text", NOT_JSON, ids=repr)
def test_what_is_not_json_is_refused_with_one_line(text: str | bytes) -> None:
    with pytest.raises(JSONRefused) as refused:
        loads(text)
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize("text", ["[NaN]", "[Infinity]", "[-Infinity]", "[1e999]", "[-1e400]"])
def test_numbers_no_field_can_use_read_as_null(text: str) -> None:
    assert loads(text) == [None]


@pytest.mark.parametrize("value", [
    {"jobs": [{"id": 1, "title": "Engineer [x] {y}", "text": "\\\"[[[[", "n": 2.5}]},
    ["[" * 50, {"]": "}}}}"}, "a\\\\", json.loads("[" * 12 + "]" * 12)],
    [[1] * 10] * 10, 10 ** 99, -0.0, "",
])
def test_ordinary_json_reads_as_the_standard_decoder_reads_it(value: object) -> None:
    text = json.dumps(value)
    assert loads(text) == json.loads(text)
    assert loads(text.encode()) == json.loads(text)


def test_the_depth_bound_is_exact() -> None:
    for n in (1, 2, 199, 200):
        assert not deeper_than("[" * n + "]" * n, 200)
    assert deeper_than("[" * 201 + "]" * 201, 200)
    assert loads("[" * 200 + "]" * 200, max_depth=200)
    with pytest.raises(JSONRefused):
        loads("[" * 11 + "]" * 11, max_depth=10)


@pytest.mark.parametrize("text", [*DEEP[:2], f"[{NUMBERS[2]}]"], ids=lambda t: t[:8])
def test_the_readers_of_outside_json_use_it(text: str, tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="malformed JSON"):
        load_json(text.encode())
    with pytest.raises(jsonresume.ResumeImportError):
        jsonresume.from_json_text(text)


def test_a_refusal_is_a_value_error_for_callers_that_catch_those() -> None:
    assert issubclass(jsonbound.JSONRefused, ValueError)
