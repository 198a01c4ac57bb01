"""The task queue: one row per task, in priority order."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widget import Widget

from jobtracker.runner import TaskState
from tui.live import TaskCounts
from tui.widgets.rows import Justify, row

WIDE = 60   # width from which set-aside, done and failed get columns of their own


def state_text(state: TaskState, wide: bool) -> Text:
    """N pending / nothing to do / unavailable — reason (set aside folded in when narrow)."""
    if state.reason is not None:
        return Text(f"unavailable — {state.reason}", style="dim")
    text = Text(f"{state.pending:,} pending" if state.pending else "nothing to do",
                style="" if state.pending else "dim")
    if state.set_aside and not wide:
        text.append(f", {state.set_aside:,} aside", style="yellow")
    return text


class QueueTable(Widget):
    """Redrawn from each survey and from the run's counts (rendered text, no layout)."""

    DEFAULT_CSS = "QueueTable { height: 1fr; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.states: list[TaskState] = []
        self.counts: dict[str, tuple[int, int]] = {}   # task -> (done, failed)

    @property
    def row_count(self) -> int:
        return len(self.states)

    def show(self, states: Sequence[TaskState] | None = None,
             counts: dict[str, TaskCounts] | None = None) -> None:
        changed = False
        if states is not None and list(states) != self.states:
            self.states, changed = list(states), True
        if counts is not None:
            shown = {k: (v.finished + v.skipped, v.failed) for k, v in counts.items()}
            if shown != self.counts:
                self.counts, changed = shown, True
        if changed:
            self.refresh()

    def render(self) -> Text:
        width = self.size.width
        wide = width >= WIDE
        name = max([5, *(len(s.name) for s in self.states)])
        tail = 5 + 5 + 6 + 3 if wide else 0        # three more columns and their gaps
        state_width = max(width - 3 - name - tail - 2, 8)
        dim = "dim"
        header: list[tuple[Text, int, Justify]] = [
            (Text("pri", style=dim), 3, "right"), (Text("task", style=dim), name, "left"),
            (Text("queue", style=dim), state_width, "left")]
        if wide:
            header += [(Text("aside", style=dim), 5, "right"), (Text("done", style=dim), 5,
                                                                 "right"),
                       (Text("failed", style=dim), 6, "right")]
        lines = [row(header)]
        for state in self.states:
            cells: list[tuple[Text, int, Justify]] = [
                (Text(str(state.priority)), 3, "right"),
                (Text(state.name, style="bold"), name, "left"),
                (state_text(state, wide), state_width, "left")]
            if wide:
                done, failed = self.counts.get(state.name, (0, 0))
                cells += [(Text(f"{state.set_aside:,}" if state.set_aside else "",
                                style="yellow"), 5, "right"),
                          (Text(f"{done:,}"), 5, "right"),
                          (Text(f"{failed:,}" if failed else "", style="red"), 6, "right")]
            lines.append(row(cells))
        return Text("\n").join(lines)
