"""The live event log: bounded, cheap per line, filterable by task."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from textual.widgets import Log

from tui.live import LogLine

MAX_LINES = 500
PER_REFRESH = 200   # lines written per refresh at most; older ones in a burst are summarized


class EventLog(Log):
    """A `Log` (plain text, line cache, `max_lines`) that remembers which task each line
    is about, so a filter can be applied to what is already shown."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(max_lines=MAX_LINES, highlight=False, auto_scroll=True, id=id)
        self.lines_kept: deque[LogLine] = deque(maxlen=MAX_LINES)
        self.only: str | None = None

    def add(self, lines: Iterable[LogLine], dropped: int = 0) -> None:
        batch = list(lines)
        if len(batch) > PER_REFRESH:
            dropped += len(batch) - PER_REFRESH
            batch = batch[-PER_REFRESH:]
        if dropped:
            batch.insert(0, LogLine("", f"… {dropped:,} event(s) not shown (a burst)"))
        self.lines_kept.extend(batch)
        shown = [entry.text for entry in batch if self._wanted(entry)]
        if shown:
            self.write_lines(shown)

    def note(self, text: str) -> None:
        """A line from the app itself (a refused lease, no model), never filtered out."""
        self.add([LogLine("", text)])

    def set_filter(self, only: str | None) -> None:
        self.only = only
        self.clear()
        self.write_lines([entry.text for entry in self.lines_kept if self._wanted(entry)])

    def _wanted(self, entry: LogLine) -> bool:
        return self.only is None or entry.kind in ("", self.only)
