"""`j`/`k` for any list the screens show (a DataTable, an OptionList): one step of the
cursor, down for a positive step, up otherwise."""

from __future__ import annotations

from typing import Protocol


class Steps(Protocol):
    def action_cursor_down(self) -> None: ...

    def action_cursor_up(self) -> None: ...


def move_cursor(widget: Steps, step: int) -> None:
    if step > 0:
        widget.action_cursor_down()
    else:
        widget.action_cursor_up()
