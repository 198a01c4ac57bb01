"""The task queue: one row per task, in priority order."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widget import Widget

from jobtracker.runner import TaskState
from tui.literal import plain
from tui.live import TaskCounts
from tui.widgets.rows import Cell, roomy, row

WIDE = 60   # width from which set-aside, done and failed get columns of their own


def state_cells(state: TaskState, wide: bool, width: int) -> list[Cell]:
    """N pending / nothing to do / unavailable — reason, in `width` cells (set aside
    folded in, in its own colour, when narrow)."""
    if state.reason is not None:
        return [(plain(f"unavailable — {state.reason}"), "dim", width, "left")]
    text = f"{state.pending:,} pending" if state.pending else "nothing to do"
    style = "" if state.pending else "dim"
    if not state.set_aside or wide:
        return [(text, style, width, "left")]
    head = f"{text},"
    aside = f"{state.set_aside:,} aside"
    room = min(len(head), width)
    return [(head, style, room, "left"), (aside, "yellow", max(width - room - 1, 0), "left")]


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
        wide = roomy(self) and width >= WIDE
        name = max([5, *(len(s.name) for s in self.states)])
        tail = 5 + 5 + 6 + 3 if wide else 0        # three more columns and their gaps
        state_width = max(width - 3 - name - tail - 2, 8)
        dim = "dim"
        header: list[Cell] = [("pri", dim, 3, "right"), ("task", dim, name, "left"),
                              ("queue", dim, state_width, "left")]
        if wide:
            header += [("aside", dim, 5, "right"), ("done", dim, 5, "right"),
                       ("failed", dim, 6, "right")]
        lines = [row(header)]
        for state in self.states:
            cells: list[Cell] = [(str(state.priority), "", 3, "right"),
                                 (state.name, "bold", name, "left"),
                                 *state_cells(state, wide, state_width)]
            if wide:
                done, failed = self.counts.get(state.name, (0, 0))
                cells += [(f"{state.set_aside:,}" if state.set_aside else "", "yellow", 5,
                           "right"),
                          (f"{done:,}", "", 5, "right"),
                          (f"{failed:,}" if failed else "", "red", 6, "right")]
            lines.append(row(cells))
        return Text("\n").join(fitted(lines, self.states, self.size.height, width))


def fitted(lines: list[Text], states: Sequence[TaskState], height: int,
           width: int) -> list[Text]:
    """The lines the pane has room for; when tasks fall below it (the demo's
    `coverletter` at 80×24), the last row says which, rather than hiding them."""
    if height <= 1 or len(lines) <= height:
        return lines
    kept = lines[:height - 1]
    hidden = [state.name for state in states[len(kept) - 1:]]
    hint = f"↓ {len(hidden)} more: {', '.join(hidden)}"
    if len(hint) > width:        # a name is never cut: the count alone, then
        hint = f"↓ {len(hidden)} more tasks"
    return [*kept, row([(plain(hint), "dim", width, "left")])]
