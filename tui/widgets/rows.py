"""Fixed-width rows of `Text` cells, for small live tables that redraw often.

The queue and the in-flight list change several times a second during a run. A
`DataTable` re-lays itself out whenever rows are cleared and added, which was
most of the UI's cost in the benchmark; these panes have a handful of rows, so
they render as lines of text instead, with no layout work at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from rich.text import Text

Justify = Literal["left", "right"]


def cell(text: Text, width: int, justify: Justify = "left") -> Text:
    """`text` cut (with an ellipsis) or padded to exactly `width` cells."""
    fitted = text.copy()
    fitted.no_wrap = True
    if fitted.cell_len > width:
        fitted.truncate(width, overflow="ellipsis")
    pad = " " * (width - fitted.cell_len)
    if justify == "right":
        return Text(pad).append_text(fitted)
    return fitted.append(pad)


def row(cells: Sequence[tuple[Text, int, Justify]], gap: int = 1) -> Text:
    """Cells side by side, `gap` spaces apart."""
    line = Text(no_wrap=True, overflow="crop")
    for index, (text, width, justify) in enumerate(cells):
        if index:
            line.append(" " * gap)
        line.append_text(cell(text, width, justify))
    return line
