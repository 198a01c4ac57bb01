"""The header line: workspace, model server and its state, the last fetch, the run's state."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.widget import Widget

from jobtracker.text import one_line

PHASE_STYLES = {"running": "bold green", "paused": "bold yellow", "stopping": "bold yellow",
                "starting": "bold cyan", "idle": "dim", "fetching": "bold cyan"}
# The phase is given the room of the longest one, so the rest of the line does not
# shift (or lose the path) when the run goes from idle to running.
PHASE_WIDTH = max(len(phase) for phase in PHASE_STYLES)
HOME_MIN = 12     # cells the path keeps (its end) however long the model's name
MODEL_MIN = 12    # cells the model's name keeps before the fetch age gives way
# " jobtracker ─ " + " ─ " + " ✓" + a space at least + the phase + a space.
FIXED = len(" jobtracker ─ ") + len(" ─ ") + len(" ✓") + 1 + PHASE_WIDTH + 1
MODEL_WORD = "model "    # said when the path and the name fit whole with it


def short_path(path: Path) -> str:
    """The workspace path with the home directory as `~`."""
    try:
        return "~/" + str(path.relative_to(Path.home()))
    except ValueError:
        return str(path)


def cut_left(text: str, room: int) -> str:
    """`…` and the end of `text` in `room` cells (a path's end names the folder)."""
    if len(text) <= room:
        return text
    return "…" + text[len(text) - room + 1:] if room > 1 else ""


def cut_right(text: str, room: int) -> str:
    if len(text) <= room:
        return text
    return text[:room - 1] + "…" if room > 1 else ""


def share(home: str, model: str, room: int) -> tuple[str, str]:
    """The path and the model's name in `room` cells: both whole when they fit; else the
    path keeps its last HOME_MIN cells (never all of it lost to a long name) and the
    model's name has the rest."""
    if len(home) + len(model) <= room:
        return home, model
    home_room = min(len(home), max(room - len(model), min(HOME_MIN, room // 2)))
    return cut_left(home, home_room), cut_right(model, room - home_room)


class HeaderLine(Widget):
    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.home = ""
        self.model = ""
        self.model_ok: bool | None = None
        self.phase = "idle"
        self.fetched = ""      # `fetched 2h ago`, `never fetched`; empty: not known yet

    def show(self, home: Path, model: str, model_ok: bool | None, phase: str,
             fetched: str | None = None) -> None:
        values = (short_path(home), model, model_ok, phase,
                  self.fetched if fetched is None else fetched)
        if values != (self.home, self.model, self.model_ok, self.phase, self.fetched):
            self.home, self.model, self.model_ok, self.phase, self.fetched = values
            self.refresh()

    def render(self) -> Text:
        """The marks and the run's state always show, then the fetch age; the path (down
        to its end) and the model's name share what is left."""
        mark, style = {True: ("✓", "green"), False: ("✗", "red"),
                       None: ("?", "dim")}[self.model_ok]
        width = self.size.width
        room = width - FIXED
        fetched = one_line(self.fetched)
        if fetched and room - len(fetched) - 4 >= HOME_MIN + MODEL_MIN:
            room -= len(fetched) + 4
        else:
            fetched = ""
        home, model = one_line(self.home), one_line(self.model)
        word = MODEL_WORD if len(home) + len(model) + len(MODEL_WORD) <= room else ""
        home, model = share(home, model, max(room - len(word), 0))
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(" jobtracker", style="bold")
        text.append(" ─ ")
        text.append(home)
        text.append(f" ─ {word}")
        text.append(model)
        text.append(f" {mark}", style=style)
        if fetched:
            # Right after the model, set apart from its mark (that ✓ is the model's, not
            # the fetch's); only the run's state stands at the right end, so a wide
            # terminal shows no gap in the middle of what belongs together.
            text.append(" · ", style="dim")
            text.append(fetched, style="yellow" if "failed" in fetched else "dim")
        right = Text(f"{self.phase:>{PHASE_WIDTH}}", style=PHASE_STYLES.get(self.phase, ""),
                     no_wrap=True)
        text.append(" " * max(width - text.cell_len - right.cell_len - 1, 1))
        text.append_text(right)
        return text
