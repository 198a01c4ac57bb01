"""The units in flight: what each is, how long it has run, what it is doing now."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widget import Widget

from jobtracker.workers.events import ANSWERED, APPLYING
from tui.clock import elapsed
from tui.literal import plain
from tui.live import InFlight
from tui.widgets.rows import Cell, roomy, row

WIDE = 70   # width from which token counts get a column

PHASE_STYLES = {"asking": "cyan", APPLYING: "green", ANSWERED: "dim", "waiting": "dim"}


def phase_style(phase: str) -> str:
    return "yellow" if "retry" in phase else PHASE_STYLES.get(phase.strip(), "")


class InFlightTable(Widget):
    """A row per unit running (at most twice `concurrency`: those asking, those writing),
    redrawn a few times a second (rendered text, no layout).

    The unit's label gets every column the others do not need.
    """

    DEFAULT_CSS = "InFlightTable { height: 1fr; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.units: list[InFlight] = []
        self.now = 0.0
        self._shown: list[tuple[str, ...]] = []

    @property
    def row_count(self) -> int:
        return len(self.units)

    def show(self, units: Sequence[InFlight], now: float) -> None:
        # The units asking the model first, then those writing their answer, each
        # oldest first: in a short pane the rows cut off are the ones that hold no slot.
        self.units, self.now = sorted(units, key=lambda unit: unit.writing), now
        shown = [(u.kind, u.label, elapsed(now - u.started), u.phase, u.tokens)
                 for u in self.units]
        if shown != self._shown:
            self._shown = shown
            self.refresh()

    def render(self) -> Text:
        width = self.size.width
        wide = roomy(self) and width >= WIDE
        kind = max([5, *(len(u.kind) for u in self.units)])
        doing = 25 if wide else 15
        tokens = 11 if wide else 0
        label = max(width - kind - 5 - doing - tokens - (4 if wide else 3), 8)
        lines = []
        for unit in self.units:
            phase = unit.phase if wide else unit.phase.replace(" after ", " ")
            # Labels were cleaned by the LiveReporter; plain() cleans again,
            # cheaply, so nothing that reaches this pane can carry a control sequence.
            cells: list[Cell] = [
                (unit.kind, "bold", kind, "left"), (plain(unit.label), "", label, "left"),
                (elapsed(self.now - unit.started), "", 5, "right"),
                (phase, phase_style(phase), doing, "left")]
            if wide:
                cells.append((unit.tokens, "dim", tokens, "right"))
            lines.append(row(cells))
        return Text("\n").join(lines)
