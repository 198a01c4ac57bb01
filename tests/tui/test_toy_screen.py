"""Adding a screen is one module and one entry in `tui.screens.REGISTRY`: a toy screen,
given only that entry, has its key on the dashboard (footer, `?`, ctrl+p) and opens
by it."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, Static

from jobtracker.runner import load_setup
from tests.tui.fixtures import make_workspace, screen_text, wait_until
from tui import screens
from tui.app import JobtrackerApp
from tui.commands import screen_commands
from tui.host import Host
from tui.screens.help import key_table


class ToyScreen(Screen[None]):
    """Says which workspace it is about, as any screen may ask its host."""

    HELP_TITLE = "Toy"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", id="toy.back", tooltip="back to the dashboard"),
    ]
    app: Host

    def compose(self):
        yield Static(f"a toy screen over {self.app.home.name}", id="toy", markup=False)
        yield Footer()

    def action_back(self) -> None:
        self.app.pop_screen()


TOY = screens.Opened("toy", "y", "Toy", "a toy screen, added by its registry entry alone",
                     ToyScreen)


async def test_a_toy_screen_opens_by_its_key_from_its_registry_entry_alone(
        tmp_path: Path, extend) -> None:
    extend(screens.REGISTRY, TOY)
    app = JobtrackerApp(load_setup(make_workspace(tmp_path, None)))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: "y Toy" in screen_text(app))       # in the footer
        assert "Toy  y" in {c.title for c in screen_commands(app.screen, app)}   # ctrl+p
        assert ("y", "Toy", TOY.tooltip) in key_table(app.screen, app)        # `?`
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, ToyScreen))
        assert "a toy screen over home" in screen_text(app)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, ToyScreen))
        # The registry's own screens are still there, with their keys.
        await pilot.press("p")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "ReviewScreen")
