"""Fixed-width rows of styled cells, for small live tables that redraw often.

The queue and the in-flight list change several times a second during a run. A
`DataTable` re-lays itself out whenever rows are cleared and added, which was
most of the UI's cost in the benchmark; these panes have a handful of rows, so
they render as lines of text instead, with no layout work at all. Cells are
plain strings fitted with `rich.cells` and appended to one `Text` with their
style: building and cutting a `Text` per cell cost ten times as much.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual.widget import Widget

Justify = Literal["left", "right"]
Cell = tuple[str, str, int, Justify]   # text (already clean), style, width, justify

# The dashboard widens its panes from 120 columns (its breakpoint) and its tables gain
# columns from 160. Decided by the screen's width, not each pane's own: with each pane
# deciding alone, the token column came and went between 108 and 123 columns as the
# panes were resized, and the queue's columns came at 160 while the docs said 120.
COLUMNS_FROM = 160


def roomy(widget: Widget) -> bool:
    """Whether the screen is wide enough for the tables' extra columns."""
    return widget.screen.size.width >= COLUMNS_FROM


def fit(text: str, width: int) -> tuple[str, str]:
    """`text` cut (with an ellipsis) to at most `width` cells, and the padding that
    brings it to exactly `width`."""
    if width <= 0:
        return "", ""
    length = cell_len(text)
    if length > width:
        return set_cell_size(text, width - 1) + "…", ""
    return text, " " * (width - length)


def row(cells: Sequence[Cell], gap: int = 1) -> Text:
    """Cells side by side, `gap` spaces apart. The text is never parsed as markup.
    Padding to the left of right-justified text is unstyled."""
    line = Text(no_wrap=True, overflow="crop")
    spacer = " " * gap
    for index, (text, style, width, justify) in enumerate(cells):
        if index:
            line.append(spacer)
        fitted, pad = fit(text, width)
        if justify == "right":
            line.append(pad)
            line.append(fitted, style or None)
        else:
            line.append(fitted + pad, style or None)
    return line
