"""The live event log: bounded, cheap per line, filterable by task."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from rich.cells import cell_len
from textual.geometry import Size
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
        self._written_width = 0
        # Whether the log shows its newest line (until someone scrolls up): kept across a
        # resize, where the pane can lose a row to a notice without anyone scrolling.
        self._following = True

    def add(self, lines: Iterable[LogLine], dropped: int = 0) -> None:
        batch = list(lines)
        if len(batch) > PER_REFRESH:
            dropped += len(batch) - PER_REFRESH
            batch = batch[-PER_REFRESH:]
        if dropped:
            batch.insert(0, LogLine("", f"… {dropped:,} event(s) not shown (a burst)"))
        self.lines_kept.extend(batch)
        width = self._line_width()
        shown = [entry.fit(width) for entry in batch if self._wanted(entry)]
        if shown:
            self.write_lines(shown)

    def note(self, text: str) -> None:
        """A line from the app itself (a refused lease, no model), never filtered out."""
        self.add([LogLine("", text)])

    def write_lines(self, lines: Iterable[str], scroll_end: bool | None = None) -> EventLog:
        """`Log.write_lines`, made cheap for a log that is always full during a run.

        Textual's version, once `max_lines` is reached, sets the virtual size to zero
        and back on every write (a relayout of the whole screen each refresh) and
        starts a thread to measure the new lines' width. Here the oldest lines are
        dropped in place, the width is measured inline (a few short lines), and the
        virtual size is set only when it really changes, so a full log scrolls its
        lines without any layout. (Textual is pinned; tests/tui cover this widget.)
        """
        at_end = self.is_vertical_scroll_end or self._following
        auto_scroll = self.auto_scroll if scroll_end is None else scroll_end
        new_lines = [part for line in lines for part in line.splitlines()]
        if not new_lines:
            return self
        self._lines.extend(new_lines)
        excess = len(self._lines) - (self.max_lines or len(self._lines))
        if excess > 0:
            del self._lines[:excess]
            # Cached strips are keyed by line number: renumber the ones still shown.
            cache = self._render_line_cache
            numbers = list(cache.keys())   # an LRUCache: not iterable itself
            kept = {y - excess: cache[y] for y in numbers if y >= excess}
            cache.clear()
            for y, strip in kept.items():
                cache[y] = strip
        self._updates += 1   # any width measurement still in flight is out of date
        widest = max(cell_len(self._process_line(line)) for line in new_lines)
        self._width = max(self._width, widest)
        size = Size(self._width, len(self._lines))
        if size != self.virtual_size:
            if self.styles.overflow_x == "scroll" and self.styles.overflow_y == "scroll":
                # The scrollbars always show, so a longer log changes only their
                # thumbs: update those, and spare the screen a relayout.
                self.set_reactive(Log.virtual_size, size)
                self._scroll_update(size)
            else:
                self.virtual_size = size
        if auto_scroll and at_end and not self.is_vertical_scrollbar_grabbed:
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        self.refresh()
        return self

    def set_filter(self, only: str | None) -> None:
        self.only = only
        self._rewrite()

    def _rewrite(self) -> None:
        """Show again what is kept, filtered and cut to the width there is now."""
        self.clear()
        width = self._line_width()
        self._written_width = width
        self.write_lines([entry.fit(width) for entry in self.lines_kept if self._wanted(entry)])

    def _line_width(self) -> int:
        """Cells a line has before it would scroll sideways (0: not laid out yet)."""
        return self.scrollable_content_region.width

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._following = new_value >= self.max_scroll_y

    def on_resize(self) -> None:
        following = self._following
        # Lines were cut for the old width: a wider log shows more of each label again.
        if self.lines_kept and self._line_width() != self._written_width:
            self._rewrite()
        if following and self.auto_scroll:
            self.scroll_end(animate=False, immediate=True, x_axis=False)

    def _wanted(self, entry: LogLine) -> bool:
        return self.only is None or entry.kind in ("", self.only)
