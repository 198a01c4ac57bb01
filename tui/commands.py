"""The command palette's entries (ctrl+p): the screen's keys, so none must be remembered.

One entry per action that applies now on the screen the palette was opened from
(the screen's bindings, then the app's), titled with its name and its key(s):
`Start  r`. An action that is hidden or dimmed in the footer is left out, since
choosing it would do nothing. Choosing an entry runs the action as its key would.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import Screen


def ours(node: DOMNode, binding: Binding) -> bool:
    """A binding this project declared, not one Textual's own classes bring (focus
    moves, copying a selection): the palette lists the keys `?` lists."""
    for cls in type(node).__mro__:
        if cls.__module__.split(".")[0] == "textual":
            return False
        if binding in cls.__dict__.get("BINDINGS", ()):
            return True
    return False


def screen_commands(screen: Screen, app: App) -> Iterator[SystemCommand]:
    found: dict[tuple[int, str], tuple[DOMNode, Binding, list[str]]] = {}
    for key, active in screen.active_bindings.items():
        binding = active.binding
        if not active.enabled or not ours(active.node, binding):
            continue
        shown = app.get_key_display(Binding(key, binding.action))
        entry = found.setdefault((id(active.node), binding.action),
                                 (active.node, binding, []))
        entry[2].append(shown)
    for node, binding, keys in found.values():
        name = binding.description or binding.action.replace("_", " ")
        yield SystemCommand(f"{name}  {' '.join(keys)}", binding.tooltip or name,
                            partial(node.run_action, binding.action))
