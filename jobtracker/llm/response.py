"""Reading what a model server answered: the JSON in it, its schema check, its counts.

Everything here treats the answer as untrusted: strings are cleaned of control
characters, the JSON is validated against the task's schema client-side (servers
do not all enforce it), and a usage count that is not a plausible count is 0.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from jobtracker import jsonbound
from jobtracker.text import clean_text, one_line

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.protocols import Validator

_FENCE = re.compile(r"^```[a-zA-Z]*\s*\n(.*?)\n?```$", re.DOTALL)
_THINK = re.compile(r"^<think>.*?</think>", re.DOTALL)


def parse_content(content: str) -> Any:
    """The answer's JSON, tolerating surrounding whitespace, a leading <think> block
    (reasoning models) and a ```json fence (models that ignore the grammar)."""
    text = _THINK.sub("", content.strip(), count=1).strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    return jsonbound.loads(text)      # JSONRefused (a ValueError): not understood


def cleaned(value: Any) -> Any:
    """Model answers are untrusted text: strip control characters from every string."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, list):
        return [cleaned(v) for v in value]
    if isinstance(value, dict):
        return {clean_text(str(k)): cleaned(v) for k, v in value.items()}
    return value


@lru_cache(maxsize=64)
def _validator(schema_json: str) -> Draft202012Validator:
    # jsonschema (~0.1 s to import) loads with the first answer, not with every command.
    from jsonschema import Draft202012Validator

    schema = json.loads(schema_json)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


# The validator of each schema object asked about, by identity: a task's schema is one
# object sent with every unit, and its canonical JSON (the key above) costs more than
# the check. The validator holds that object, so its id is not reused while it is here.
_BY_OBJECT: dict[int, Validator] = {}


def _validator_of(schema: dict[str, Any]) -> Validator:
    validator = _BY_OBJECT.get(id(schema))
    if validator is None or validator.schema is not schema:
        shared = _validator(json.dumps(schema, sort_keys=True))   # checked once per content
        if len(_BY_OBJECT) >= 64:
            _BY_OBJECT.clear()
        # On the object itself, so a validator never answers for content it was not given.
        validator = _BY_OBJECT[id(schema)] = shared.evolve(schema=schema)
    return validator


def schema_problem(data: Any, schema: dict[str, Any]) -> str | None:
    """The most relevant way `data` breaks `schema`, as one line, or None. jsonschema
    decides; the search for the most relevant error runs only for an answer it refuses."""
    validator = _validator_of(schema)
    if validator.is_valid(data):
        return None
    from jsonschema.exceptions import best_match

    error = best_match(validator.iter_errors(data))
    if error is None:     # not reached: is_valid said there is an error
        return None
    where = "/".join(str(p) for p in error.absolute_path)
    return one_line(f"{where}: {error.message}" if where else error.message, 120)


def model_ids(listing: Any) -> list[str]:
    """Model ids from an OpenAI `/models` answer (llama.cpp adds a `models` list too)."""
    if not isinstance(listing, dict):
        raise ValueError("not an object")
    ids = [str(m["id"]) for m in listing.get("data") or () if isinstance(m, dict) and "id" in m]
    for extra in listing.get("models") or ():
        if isinstance(extra, dict):
            ids += [str(extra[k]) for k in ("model", "name") if extra.get(k)]
    return [clean_text(i) for i in dict.fromkeys(ids)]


# More tokens than any context window holds: a count above it is a server's bug.
MAX_TOKEN_COUNT = 100_000_000


def count(value: Any) -> int:
    """A usage count as reported, or 0 when it is not a plausible count (a string, a
    negative or absurd number, a bool): events and metrics carry only real counts."""
    if isinstance(value, bool) or not isinstance(value, int):
        return 0
    return value if 0 <= value <= MAX_TOKEN_COUNT else 0


# Faster than any server generates: a rate above it is a server's bug.
MAX_TOKENS_PER_SECOND = 1_000_000.0


@dataclass(frozen=True)
class Timings:
    """What the server said about its own work on one answer, each None when it did not
    say or said something implausible (a server's figures are not trusted into a sum)."""

    cached_tokens: int | None = None       # prompt tokens reused from its prefix cache
    evaluated_tokens: int | None = None    # prompt tokens it computed (llama.cpp prompt_n)
    generated_tokens: int | None = None    # llama.cpp predicted_n
    tokens_per_second: float | None = None  # generation speed (llama.cpp predicted_per_second)


def _known_count(value: Any) -> int | None:
    """A count, or None when absent or not a plausible count (see count())."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if 0 <= value <= MAX_TOKEN_COUNT else None


def _rate(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    rate = float(value)
    return rate if math.isfinite(rate) and 0 < rate <= MAX_TOKENS_PER_SECOND else None


def server_timings(payload: dict[str, Any], prompt_tokens: int) -> Timings:
    """llama.cpp's `timings` (`cache_n`, `prompt_n`, `predicted_n`,
    `predicted_per_second`) or vLLM's `usage.prompt_tokens_details.cached_tokens`.
    llama.cpp's own figure wins when both are there and it is believable; a cached
    count larger than the prompt (when the prompt's size is known) is not."""
    timings = payload.get("timings")
    timings = timings if isinstance(timings, dict) else {}
    usage = payload.get("usage")
    details = usage.get("prompt_tokens_details") if isinstance(usage, dict) else None
    details = details if isinstance(details, dict) else {}
    cached = None
    for said in (timings.get("cache_n"), details.get("cached_tokens")):
        said = _known_count(said)
        if said is not None and not (prompt_tokens and said > prompt_tokens):
            cached = said
            break
    return Timings(cached_tokens=cached, evaluated_tokens=_known_count(timings.get("prompt_n")),
                   generated_tokens=_known_count(timings.get("predicted_n")),
                   tokens_per_second=_rate(timings.get("predicted_per_second")))


__all__ = ["MAX_TOKEN_COUNT", "Timings", "cleaned", "count", "model_ids", "parse_content",
           "schema_problem", "server_timings"]
