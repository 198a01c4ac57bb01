"""Server timings: what llama.cpp (`timings`) and vLLM (`prompt_tokens_details`) say
about their own work, read without trusting it."""

from __future__ import annotations

import copy
import math

from jobtracker.llm.response import MAX_TOKEN_COUNT, Timings, schema_problem, server_timings


def test_llama_cpp_timings_are_read() -> None:
    payload = {"usage": {"prompt_tokens": 485, "prompt_tokens_details": {"cached_tokens": 1}},
               "timings": {"prompt_n": 203, "cache_n": 282, "predicted_n": 20,
                           "predicted_per_second": 41.5}}
    assert server_timings(payload, 485) == Timings(282, 203, 20, 41.5)


def test_vllm_cached_tokens_are_read() -> None:
    payload = {"usage": {"prompt_tokens": 900, "prompt_tokens_details": {"cached_tokens": 896}}}
    assert server_timings(payload, 900) == Timings(cached_tokens=896)


def test_a_server_that_says_nothing_gives_nothing() -> None:
    assert server_timings({"usage": {"prompt_tokens": 5}}, 5) == Timings()
    assert server_timings({"usage": "x", "timings": [1]}, 0) == Timings()


def test_figures_that_are_not_plausible_are_not_believed() -> None:
    for lie in (-1, "282", True, 1.5, MAX_TOKEN_COUNT + 1, None):
        payload = {"timings": {"cache_n": lie, "prompt_n": lie, "predicted_n": lie}}
        assert server_timings(payload, 100) == Timings(), lie
    for rate in (0, -3.0, math.inf, math.nan, "fast", True, 1e9):
        assert server_timings({"timings": {"predicted_per_second": rate}}, 10) == Timings()
    # More cached than the whole prompt: not believed; the vLLM figure is not used either.
    payload = {"usage": {"prompt_tokens_details": {"cached_tokens": 50}},
               "timings": {"cache_n": 500}}
    assert server_timings(payload, 100).cached_tokens == 50
    assert server_timings({"timings": {"cache_n": 500}}, 100).cached_tokens is None


# --- the schema check -------------------------------------------------------------------

LEVEL = {"type": "object", "required": ["level"], "additionalProperties": False,
         "properties": {"level": {"type": "string", "enum": ["senior", "staff"]}}}


def test_an_answer_that_fits_has_no_problem_and_one_that_does_not_says_where() -> None:
    assert schema_problem({"level": "staff"}, LEVEL) is None
    assert schema_problem({"level": "ninja"}, LEVEL) == (
        "level: 'ninja' is not one of ['senior', 'staff']")
    assert schema_problem({}, LEVEL) == "'level' is a required property"
    assert schema_problem({"level": "staff", "x": 1}, LEVEL) == (
        "Additional properties are not allowed ('x' was unexpected)")
    assert schema_problem([], LEVEL) == "[] is not of type 'object'"


def test_the_check_is_of_the_schema_as_it_is_now_and_equal_schemas_agree() -> None:
    schema = copy.deepcopy(LEVEL)
    assert schema_problem({"level": "mid"}, schema) is not None
    schema["properties"]["level"]["enum"].append("mid")      # the same object, changed
    assert schema_problem({"level": "mid"}, schema) is None
    assert schema_problem({"level": "mid"}, LEVEL) is not None    # an equal one before
    other = copy.deepcopy(schema)
    assert schema_problem({"level": "mid"}, other) is None
