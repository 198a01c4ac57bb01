"""The applications list: group titles and rows in one scrolling list that draws only
the lines on screen, so 5,000 applications open as fast as 50 (an OptionList renders
every option up front). The cursor skips group titles; enter posts `Selected`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip


@dataclass
class Line:
    """A group title (`key` None, never under the cursor) or a row. A row's text is
    made when it first scrolls into view, by `make`."""

    text: Text | None
    key: str | None = None
    make: Callable[[], Text] | None = None

    def shown(self) -> Text:
        if self.text is None:
            self.text = self.make() if self.make is not None else Text()
        return self.text


class PipelineList(ScrollView, can_focus=True):
    DEFAULT_CSS = """
    PipelineList { scrollbar-size-vertical: 1; overflow-x: hidden; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down", "move(1)", "Down", show=False),
        Binding("up", "move(-1)", "Up", show=False),
        Binding("pagedown", "move(10)", "Page down", show=False),
        Binding("pageup", "move(-10)", "Page up", show=False),
        Binding("home", "move(-1000000000)", "First", show=False),
        Binding("end", "move(1000000000)", "Last", show=False),
        Binding("enter", "select", "Open", show=False),
    ]
    CURSOR = Style(reverse=True)

    class Selected(Message):
        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[Line] = []
        self.cursor: int | None = None

    def set_lines(self, lines: list[Line], keep: str | None = None) -> None:
        self.lines = lines
        keys = [line.key for line in lines]
        start = keys.index(keep) if keep is not None and keep in keys else 0
        self.cursor = self._enabled(start, 1)
        self.virtual_size = Size(self.size.width, len(lines))
        self._follow()
        self.refresh()

    @property
    def current(self) -> str | None:
        return self.lines[self.cursor].key if self.cursor is not None else None

    def _enabled(self, start: int, step: int) -> int | None:
        """The first row from `start` in direction `step` (then the other way)."""
        for direction in (step, -step):
            index = start
            while 0 <= index < len(self.lines):
                if self.lines[index].key is not None:
                    return index
                index += direction
        return None

    def action_move(self, step: int) -> None:
        if self.cursor is None:
            return
        target = min(max(self.cursor + step, 0), len(self.lines) - 1)
        found = self._enabled(target, 1 if step > 0 else -1)
        if found is not None:
            self.cursor = found
            self._follow()
            self.refresh()

    def action_select(self) -> None:
        if self.current is not None:
            self.post_message(self.Selected(self.current))

    def _follow(self) -> None:
        if self.cursor is None:
            return
        # Show the group title above the first row of a group too.
        top = self.cursor - 1 if self.cursor and self.lines[self.cursor - 1].key is None \
            else self.cursor
        height = max(self.scrollable_content_region.height, 1)
        if top < self.scroll_y:
            self.scroll_to(y=top, animate=False)
        elif self.cursor >= self.scroll_y + height:
            self.scroll_to(y=self.cursor - height + 1, animate=False)

    def render_line(self, y: int) -> Strip:
        index = int(self.scroll_offset.y) + y
        width = self.scrollable_content_region.width
        if index >= len(self.lines):
            return Strip.blank(width, self.rich_style)
        text = self.lines[index].shown()
        segments = list(text.render(self.app.console))
        strip = Strip(segments).crop_extend(0, width, self.rich_style)
        if index == self.cursor and self.has_focus:
            strip = strip.apply_style(self.CURSOR)
        elif index == self.cursor:
            strip = strip.apply_style(Style(bold=True, underline=True))
        return strip

    def on_resize(self) -> None:
        self.virtual_size = Size(self.size.width, len(self.lines))

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


__all__ = ["Line", "PipelineList"]
