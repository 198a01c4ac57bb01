"""Where events go: a terminal or log, events.jsonl, and a buffer for slow consumers.

Every reporter's `emit()` is synchronous and quick: the loop calls it inline, so
a reporter that waited would stall every job. A consumer that cannot keep up (a
UI redrawing) reads from a `QueueReporter`, which drops the oldest events rather
than grow or block.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import re
import sys
import time
import unicodedata
from collections import deque
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from jobtracker.workers.events import Event, hms

__all__ = ["EventsFileReporter", "PlainLineReporter", "QueueReporter", "ascii_line", "hms"]

# Punctuation that NFKD leaves non-ASCII but has an obvious ASCII reading.
_ASCII_PUNCTUATION = str.maketrans({
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-",
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201c": '"', "\u201d": '"', "\u201e": '"',
    "\u2026": "...", "\u00a0": " ", "\u2022": "*", "\u00b7": "*",
})
_LINE_BREAKS = re.compile(r"[\t\n\r\v\f\u2028\u2029\x85]+")


def ascii_line(text: str) -> str:
    """Text fit for one terminal line: ASCII only, no control characters.

    Line breaks and tabs become a space, other control characters (an ESC that
    would start a terminal sequence, say) are removed, accents are dropped
    ("Zürich" -> "Zurich") and anything else non-ASCII becomes '?'.
    """
    if text.isascii() and text.isprintable():
        # Printable ASCII (most lines) passes every step below unchanged: no line
        # break, no control character, nothing NFKD or the replacement would touch.
        return text
    plain = text.translate(_ASCII_PUNCTUATION)
    if plain.isascii() and plain.isprintable():
        # Only the punctuation had no ASCII form (a label's "Company — Title"): the table
        # maps no line break or control character, so the text had none, and what it
        # made is ASCII, which the steps below leave unchanged.
        return plain
    return _ascii_walk(text)


def _ascii_walk(text: str) -> str:
    """`ascii_line` step by step, for text that needs more than the punctuation table."""
    text = _LINE_BREAKS.sub(" ", text)
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cc")
    text = unicodedata.normalize("NFKD", text.translate(_ASCII_PUNCTUATION))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return text.encode("ascii", "replace").decode("ascii")


# The last second local_clock() wrote (with the zone it was written in) and its text.
_last_clock: tuple[tuple[int, tuple[str, str], int], str] | None = None


def local_clock(moment: datetime) -> str:
    """`moment` as local HH:MM:SS. Events come many to a second, so the text of the last
    second asked is kept, under that second and the local zone then in force
    (`time.tzset()` may change it)."""
    global _last_clock
    key = (math.floor(moment.timestamp()), time.tzname, time.timezone)
    if _last_clock is not None and _last_clock[0] == key:
        return _last_clock[1]
    text = moment.astimezone().strftime("%H:%M:%S")
    _last_clock = (key, text)
    return text


class PlainLineReporter:
    """One flushed line per event, for a terminal, a pipe or a timer's log.

    `HH:MM:SS word  kind  label  detail`, local time, ASCII only, so output under
    `tee` or systemd is never silent while work happens and never carries a
    terminal sequence from a posting's title. Per-call detail and progress steps
    only with `verbose`; call retries always.
    """

    def __init__(self, stream: TextIO | None = None, verbose: bool = False) -> None:
        # Looked up now, not as a default argument: a default is evaluated at import,
        # and would miss a later swap of sys.stdout (pytest's capture, a redirect).
        self.stream = stream if stream is not None else sys.stdout
        self.verbose = verbose

    def emit(self, event: Event) -> None:
        if event.verbose_only and not self.verbose:
            return
        print(self.format(event), file=self.stream, flush=True)

    @staticmethod
    def format(event: Event) -> str:
        clock = local_clock(event.time)
        kind = event.kind or str(getattr(event, "stage", None) or "")
        fields = [f"{clock} {event.word:<5}", f"{kind:<6}", event.job, event.detail()]
        return ascii_line("  ".join(f for f in fields if f).rstrip())


# Data keys whose values must never be written, whatever a caller puts there.
_SECRET_KEY = re.compile(r"authorization|api[_-]?key|password|secret|bearer|cookie", re.I)
_SECRET_VALUE = re.compile(r"^\s*bearer\s+\S", re.I)
REDACTED = "[redacted]"


def _redact(value: Any) -> Any:
    """A backstop, not a license: callers must keep secrets out of event data."""
    if isinstance(value, dict) and _nothing_to_redact(value):
        return value    # what the walk below would rebuild unchanged (most events)
    if isinstance(value, dict):
        return {k: REDACTED if _SECRET_KEY.search(str(k)) else _redact(v)
                for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_redact(v) for v in value]
    if isinstance(value, str) and _SECRET_VALUE.match(value):
        return REDACTED
    return value


def _nothing_to_redact(data: dict[Any, Any]) -> bool:
    """Whether `data` is flat (no dict, list or tuple in it) and neither a key names a
    secret nor a value is a bearer token: then `_redact` leaves it as it is."""
    for key, value in data.items():
        if isinstance(value, dict | list | tuple) or _SECRET_KEY.search(str(key)) or (
                isinstance(value, str) and _SECRET_VALUE.match(value)):
            return False
    return True


# One encoder for every line: json.dumps(..., default=str) builds a new one per call.
_ENCODER = json.JSONEncoder(default=str)


class EventsFileReporter:
    """Appends each event to a JSON-lines file (a run's events.jsonl), flushed per line.

    One object per line: time (ISO 8601 UTC), type, job (the unit's label), kind,
    data (the unit's key is `data.key`). It writes only what the event carries;
    callers must not put secrets in event data (keys that name one, and bearer
    tokens, are redacted anyway). JSON is written ASCII-escaped, so `cat` on the
    file can never replay a control sequence.

    A write that fails (a full disk) raises out of `emit()`, so the loop drops this
    reporter and says so; `close()` then discards what could not be written.
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.name = str(self.path)       # how messages about this reporter name it
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = self.path.open("a", encoding="utf-8")
        self._failed = False

    def emit(self, event: Event) -> None:
        raw = event.to_json()
        line = {"time": raw["time"], "type": raw["type"], "job": raw["job"],
                "kind": raw["kind"], "data": _redact(raw["data"])}
        try:
            self._file.write(_ENCODER.encode(line) + "\n")
            self._file.flush()
        except OSError:
            self._failed = True
            raise

    def close(self) -> None:
        if not self._failed:
            self._file.close()
            return
        # The failed line is still buffered, and closing flushes it again: that error
        # was already reported, so it is not raised a second time.
        with contextlib.suppress(OSError):
            self._file.close()

    def __enter__(self) -> EventsFileReporter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class QueueReporter:
    """A bounded buffer between the loop and a consumer that reads in batches.

    When full, each new event pushes out the oldest, counted in `dropped`, so a
    consumer that falls behind (a UI under a flood) sees the latest events and
    knows how many it missed; the loop never waits and memory stays bounded.
    Live state that must not be missed (what is in flight, the counts) is better
    read from the loop itself.
    """

    def __init__(self, maxlen: int = 10_000) -> None:
        self._events: deque[Event] = deque(maxlen=maxlen)
        self._ready = asyncio.Event()
        self.dropped = 0

    def emit(self, event: Event) -> None:
        if len(self._events) == self._events.maxlen:
            self.dropped += 1  # the deque drops its oldest on append
        self._events.append(event)
        self._ready.set()

    def drain(self, limit: int | None = None) -> list[Event]:
        """Take up to `limit` buffered events (all when None), oldest first; never waits."""
        n = len(self._events) if limit is None else min(limit, len(self._events))
        batch = [self._events.popleft() for _ in range(n)]
        if not self._events:
            self._ready.clear()
        return batch

    async def next_batch(self, limit: int | None = None) -> list[Event]:
        """Wait until something is buffered, then drain it."""
        await self._ready.wait()
        return self.drain(limit)
