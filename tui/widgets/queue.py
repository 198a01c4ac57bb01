"""The task queue: one row per task, in priority order."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import DataTable

from jobtracker.runner import TaskState
from tui.live import TaskCounts

WIDE = 60   # inner width from which set-aside, done and failed get columns of their own


def state_text(state: TaskState, wide: bool) -> Text:
    """N pending / nothing to do / unavailable — reason (set aside folded in when narrow)."""
    if state.reason is not None:
        return Text(f"unavailable — {state.reason}", style="dim", no_wrap=True,
                    overflow="ellipsis")
    text = Text(f"{state.pending:,} pending" if state.pending else "nothing to do",
                style="" if state.pending else "dim")
    if state.set_aside and not wide:
        text.append(f", {state.set_aside:,} aside", style="yellow")
    return text


class QueueTable(DataTable):
    """Rows keyed by task name; refreshed from each survey and the run's counts."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="none", show_cursor=False, zebra_stripes=False)
        self.can_focus = False
        self.states: list[TaskState] = []
        self.counts: dict[str, TaskCounts] = {}
        self._layout: tuple[int, int] | None = None

    def on_resize(self) -> None:
        self.redraw()

    def show(self, states: Sequence[TaskState] | None = None,
             counts: dict[str, TaskCounts] | None = None) -> None:
        if states is not None:
            self.states = list(states)
        if counts is not None:
            self.counts = {k: TaskCounts(v.finished, v.failed, v.skipped)
                           for k, v in counts.items()}
        self.redraw()

    def redraw(self) -> None:
        width = self.size.width
        wide = width >= WIDE
        name_width = max([5, *(len(s.name) for s in self.states)])
        if (width, name_width) != self._layout:
            self._layout = (width, name_width)
            self.clear(columns=True)
            # Every column but the state has a fixed width; the state takes the rest, so a
            # long reason ends in an ellipsis instead of a horizontal scroll.
            fixed = 3 + name_width + (5 + 5 + 6 if wide else 0)
            padding = 2 * (6 if wide else 3)
            self.add_column(Text("pri", style="dim"), key="priority", width=3)
            self.add_column(Text("task", style="dim"), key="task", width=name_width)
            self.add_column(Text("queue", style="dim"), key="state",
                            width=max(width - fixed - padding - 1, 8))
            if wide:
                self.add_column(Text("aside", style="dim", justify="right"), key="aside", width=5)
                self.add_column(Text("done", style="dim", justify="right"), key="done", width=5)
                self.add_column(Text("failed", style="dim", justify="right"), key="failed",
                                width=6)
        else:
            self.clear()
        for state in self.states:
            cells: list[Text] = [Text(str(state.priority), justify="right"),
                                 Text(state.name, style="bold"), state_text(state, wide)]
            if wide:
                done = self.counts.get(state.name, TaskCounts())
                cells += [Text(f"{state.set_aside:,}" if state.set_aside else "",
                               justify="right", style="yellow"),
                          Text(f"{done.finished + done.skipped:,}", justify="right"),
                          Text(f"{done.failed:,}" if done.failed else "", justify="right",
                               style="red")]
            self.add_row(*cells, key=state.name)
