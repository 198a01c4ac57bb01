"""The header line: workspace, model server and its state, and the run's state."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.widget import Widget

from jobtracker.text import one_line

PHASE_STYLES = {"running": "bold green", "paused": "bold yellow", "stopping": "bold yellow",
                "starting": "bold cyan", "idle": "dim"}


def short_path(path: Path) -> str:
    """The workspace path with the home directory as `~`."""
    try:
        return "~/" + str(path.relative_to(Path.home()))
    except ValueError:
        return str(path)


class HeaderLine(Widget):
    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.home = ""
        self.model = ""
        self.model_ok: bool | None = None
        self.phase = "idle"

    def show(self, home: Path, model: str, model_ok: bool | None, phase: str) -> None:
        values = (short_path(home), model, model_ok, phase)
        if values != (self.home, self.model, self.model_ok, self.phase):
            self.home, self.model, self.model_ok, self.phase = values
            self.refresh()

    def render(self) -> Text:
        """The path gives way first (cut from the left), then the model's name: the
        marks and the run's state always show."""
        mark, style = {True: ("✓", "green"), False: ("✗", "red"),
                       None: ("?", "dim")}[self.model_ok]
        model = one_line(self.model)
        fixed = len(" jobtracker ─  ─ model ") + len(f" {mark}") + len(self.phase) + 2
        room = max(self.size.width - fixed - len(model), 0)
        home = one_line(self.home)
        if len(home) > room:
            home = "…" + home[len(home) - room + 1:] if room > 1 else ""
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(" jobtracker", style="bold")
        text.append(" ─ ")
        text.append(home)
        text.append(" ─ model ")
        text.append(model)
        text.append(f" {mark}", style=style)
        gap = max(self.size.width - text.cell_len - len(self.phase) - 1, 1)
        text.append(" " * gap)
        text.append(self.phase, style=PHASE_STYLES.get(self.phase, ""))
        return text
