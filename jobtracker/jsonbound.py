"""The one reader of JSON from outside: a board's answer, a model's, a resume file.

    from jobtracker.jsonbound import JSONRefused, loads
    data = loads(body)          # str or bytes; JSONRefused (a ValueError) when refused

Python's own `json.loads` has three ways to fail that are not a `JSONDecodeError`:
nesting deep enough for the decoder's recursion (`RecursionError`), an integer of
more than 4,300 digits (a `ValueError` from the int limit, after seconds of work
below it: 4,000 digits parse in quadratic time) and `NaN`/`Infinity`, which are not
JSON at all and become floats no range check expects. Here every one of them is a
`JSONRefused` with one line of reason: nesting is bounded (`max_depth`, counted
before the decoder recurses), a number may have at most `max_number_chars`
characters, and `NaN`, `Infinity` and a float past the largest (`1e999`) read as
null, a value no range check can be fooled by. Standard library only, so any
room (render included) may use it.
"""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 200                 # no board, model or resume nests anywhere near this
MAX_NUMBER_CHARS = 100          # a JSON number longer than this is no count, id or price

# What a refusal was about (`JSONRefused.kind`), for a caller with its own wording.
NESTED, NUMBER, SYNTAX = "nested", "number", "syntax"

# Every byte but the brackets and the quote, for bytes.translate to delete.
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'[]{}"')


class JSONRefused(ValueError):
    """JSON that is not read; the message says why, in one line. `lineno` and `msg`
    are the decoder's, for text that is not JSON at all (else 0 and the message)."""

    def __init__(self, message: str, lineno: int = 0, msg: str | None = None, *,
                 kind: str = SYNTAX, literal: str = "") -> None:
        super().__init__(message)
        self.lineno, self.msg = lineno, msg or message
        self.kind, self.literal = kind, literal      # literal: the number refused


def deeper_than(text: str | bytes, limit: int) -> bool:
    """Whether arrays and objects in `text` nest more than `limit` levels deep.

    All in C, before the decoder recurses: the two escapes that could hide a quote
    (`\\\\`, `\\"`) are dropped, then every byte but brackets and quotes, then what
    lies between quotes (strings); the innermost bracket pairs are then removed one
    level per pass, never more than `limit` + 1 passes."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if data.count(b"[") + data.count(b"{") <= limit:
        return False
    if b"\\" in data:
        data = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    brackets = b"".join(data.translate(None, _NOT_STRUCTURE).split(b'"')[0::2])
    for _ in range(limit):
        fewer = brackets.replace(b"[]", b"").replace(b"{}", b"")
        if fewer == brackets:      # empty, or brackets that do not pair: the decoder says
            return False
        brackets = fewer
    return bool(brackets) and brackets.replace(b"[]", b"").replace(b"{}", b"") != brackets


def _number(kind: type, limit: int) -> Any:
    def parse(text: str) -> Any:
        if len(text) > limit:
            raise JSONRefused(f"a number of {len(text):,} characters (at most {limit})",
                              kind=NUMBER, literal=text)
        value = kind(text)
        if value in (float("inf"), float("-inf")):
            return None               # 1e999: no number any field can use
        return value
    return parse


def _constant(name: str) -> Any:
    return None                       # NaN, Infinity: not JSON, read as no value


def loads(data: str | bytes | bytearray, *, max_depth: int = MAX_DEPTH,
          max_number_chars: int = MAX_NUMBER_CHARS) -> Any:
    """`data` parsed as JSON; JSONRefused when it is not JSON, nests deeper than
    `max_depth` or holds a number longer than MAX_NUMBER_CHARS (NaN, Infinity and
    1e999 read as None)."""
    if isinstance(data, bytearray):
        data = bytes(data)
    if deeper_than(data, max_depth):
        raise JSONRefused(f"nested more than {max_depth} levels deep", kind=NESTED)
    try:
        return json.loads(data, parse_int=_number(int, max_number_chars),
                          parse_float=_number(float, max_number_chars),
                          parse_constant=_constant)
    except JSONRefused:
        raise
    except RecursionError:
        raise JSONRefused("nested too deeply", kind=NESTED) from None
    except json.JSONDecodeError as exc:
        raise JSONRefused(f"not JSON: {exc}"[:240], exc.lineno, exc.msg) from None
    except (ValueError, UnicodeDecodeError) as exc:   # the int limit, bad UTF-8
        raise JSONRefused(f"not JSON: {str(exc).splitlines()[0][:200]}") from None


__all__ = ["MAX_DEPTH", "MAX_NUMBER_CHARS", "NESTED", "NUMBER", "SYNTAX", "JSONRefused",
           "deeper_than", "loads"]
