"""One screen per module, and the registry of the screens the dashboard opens by a key.

Adding a screen is one module here and one entry in `REGISTRY`'s tuple: its name (the
dashboard's action `open('NAME')` and the binding id `dashboard.NAME`), its key,
its word in the footer, its tooltip (for `?` and ctrl+p) and how to make it. The
dashboard takes its keys from this tuple when the app makes it
(`dashboard_with`), so nothing else is told. The dashboard itself, the dialogs and
the screens one of these opens (a posting's text, a packet, a timeline) are not
listed: no key of the dashboard opens them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from textual.binding import Binding
from textual.screen import Screen

from jobtracker.registry import Registry
from tui.screens.applications import ApplicationsScreen
from tui.screens.interviews import InterviewsScreen
from tui.screens.matches import MatchesScreen
from tui.screens.review import ReviewScreen


@dataclass(frozen=True)
class Opened:
    """A screen the dashboard opens by a key."""

    name: str
    key: str
    title: str
    tooltip: str
    screen: Callable[[], Screen[Any]]
    # In the footer too (`?` and ctrl+p list every key): the 80-column footer has room
    # for the run's keys, the screens before, `?` and `q`, and no more.
    footer: bool = True

    @property
    def binding(self) -> Binding:
        return Binding(self.key, f"open('{self.name}')", self.title,
                       id=f"dashboard.{self.name}", tooltip=self.tooltip, show=self.footer)


# Screen name → how the dashboard opens it, in the order of the dashboard's keys.
REGISTRY: Registry[Opened] = Registry((
    Opened("review", "p", "Review", "review the proposals waiting", ReviewScreen),
    Opened("matches", "m", "Matches", "scored matches, best first", MatchesScreen),
    Opened("applications", "t", "Tracker",
           "your applications by status, follow-ups due, the funnel", ApplicationsScreen),
    Opened("interviews", "i", "Interviews",
           "the interviews to come, soonest first, in your time zone", InterviewsScreen,
           footer=False),
))

__all__ = ["REGISTRY", "Opened"]
