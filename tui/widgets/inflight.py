"""The units in flight: what each is, how long it has run, what it is doing now."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import DataTable

from tui.clock import elapsed
from tui.literal import line
from tui.live import InFlight

WIDE = 70   # inner width from which token counts get a column

PHASE_STYLES = {"asking": "cyan", "applying": "green", "waiting": "dim"}


def phase_text(phase: str) -> Text:
    style = "yellow" if "retry" in phase else PHASE_STYLES.get(phase.strip(), "")
    return Text(phase, style=style, no_wrap=True, overflow="ellipsis")


class InFlightTable(DataTable):
    """At most `concurrency` rows, rebuilt on each refresh (cheap at that size).

    Columns are sized by hand with no cell padding (one space of separation is part of
    each width), so the unit's label gets every column the others do not need.
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="none", show_cursor=False, show_header=False,
                         cell_padding=0)
        self.can_focus = False
        self.units: list[InFlight] = []
        self.now = 0.0
        self._layout: tuple[int, int] | None = None

    def on_resize(self) -> None:
        self.redraw()

    def show(self, units: Sequence[InFlight], now: float) -> None:
        self.units, self.now = list(units), now
        self.redraw()

    def redraw(self) -> None:
        width = self.size.width
        wide = width >= WIDE
        kind_width = max([5, *(len(u.kind) for u in self.units)]) + 1
        doing_width = 26 if wide else 16
        if (width, kind_width) != self._layout:
            self._layout = (width, kind_width)
            self.clear(columns=True)
            fixed = kind_width + 6 + doing_width + (12 if wide else 0)
            self.add_column("task", key="task", width=kind_width)
            self.add_column("unit", key="unit", width=max(width - fixed, 8))
            self.add_column("time", key="time", width=6)
            self.add_column("doing", key="doing", width=doing_width)
            if wide:
                self.add_column("tokens", key="tokens", width=12)
        else:
            self.clear()
        for index, unit in enumerate(self.units):
            phase = unit.phase if wide else unit.phase.replace(" after ", " ")
            cells = [Text(unit.kind, style="bold"), line(unit.label),
                     Text(elapsed(self.now - unit.started), justify="right"),
                     phase_text(" " + phase)]
            if wide:
                cells.append(Text(unit.tokens, style="dim", justify="right"))
            self.add_row(*cells, key=str(index))
