"""The progress line: a bar per task worked in this run, the total, proposals waiting."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.widget import Widget


@dataclass(frozen=True)
class Progress:
    task: str
    done: int
    total: int
    failed: int = 0


def bar(done: int, total: int, width: int) -> str:
    filled = round(width * done / total) if total else 0
    return "█" * filled + "░" * (width - filled)


class ProgressLine(Widget):
    """One line; the bars shrink to fit the width, tasks first, then the total."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.items: list[Progress] = []
        self.waiting = 0
        self.due = 0
        self.interview = ""

    def show(self, items: list[Progress], waiting: int, due: int = 0,
             interview: str = "") -> None:
        if (items, waiting, due, interview) != (self.items, self.waiting, self.due,
                                                self.interview):
            self.items, self.waiting, self.due = items, waiting, due
            self.interview = interview
            self.refresh()

    def render(self) -> Text:
        """The fullest form that fits: bars with a total, bars alone, counts alone, then
        the total alone (with its bar, then without); the proposals waiting always
        show, and no task's name is cut mid-word."""
        width = self.size.width
        right = f"{self.waiting} proposal{'s' if self.waiting != 1 else ''} waiting"
        if self.due:   # applications due for a follow-up (the tracker, `t`)
            right = f"{self.due} due · {right}"
        if self.interview:   # "interview today 14:00 Acme" (the company: plain text)
            right = f"interview {self.interview} · {right}"
        shown = [p for p in self.items if p.total]
        room = width - len(right) - 2
        text = Text("no run yet — r starts the loop", style="dim") if not shown else Text()
        if shown:
            overall = Progress("all", sum(p.done for p in shown), sum(p.total for p in shown),
                               sum(p.failed for p in shown))
            forms = [([*shown, overall], 14), (shown, 14), (shown, 0), ([overall], 14),
                     ([overall], 0)] if len(shown) > 1 else [(shown, 14), (shown, 0)]
            for items, most in forms:
                fixed = sum(_label_width(p) for p in items)
                bar_width = min((room - fixed) // len(items), most) if most else 0
                if bar_width >= 3 or (not most and fixed - 3 <= room):
                    text = _line(items, bar_width)
                    break
                text = _line(items, 0)     # the last form, cut, when none fits
        text.truncate(max(room, 0), overflow="ellipsis")
        text.append(" " * max(width - text.cell_len - len(right), 1))
        text.append(right, style="bold" if self.waiting else "dim")
        return text


def _label_width(p: Progress) -> int:
    """Everything but the bar: `task ` + ` done/total` + ` ✗failed` + the gap after."""
    return len(p.task) + 1 + len(f" {p.done}/{p.total}") + \
        (len(f" ✗{p.failed}") if p.failed else 0) + 3


def _line(items: list[Progress], bar_width: int) -> Text:
    text = Text(no_wrap=True)
    for p in items:
        text.append(f"{p.task} ", style="bold")
        if bar_width:
            text.append(bar(min(p.done, p.total), p.total, bar_width), style="green")
            text.append(" ")
        text.append(f"{p.done}/{p.total}")
        if p.failed:
            text.append(f" ✗{p.failed}", style="red")
        text.append("   ")
    return text
