"""Themes: which Typst template a theme name or path means, and the paper sizes.

A theme is one `.typ` file. The built-in ones (`classic`, `compact`) ship inside
the package, in `jobtracker/render/themes/`; any other name is a path to a file
of the user's own, usually a copy of a built-in one (docs/render.md). A `fonts/`
folder beside a theme's file is searched for fonts before the ones the typst
package embeds; the machine's own fonts never are, so a document renders the
same on every machine.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

BUILT_IN = ("classic", "compact")
PAPERS = ("a4", "us-letter")
DEFAULT_THEME, DEFAULT_PAPER = "classic", "a4"
# What each built-in theme's own transforms are: classic sets section titles in capitals.
UPPER_CASE_LEVELS: dict[str, tuple[int, ...]] = {"classic": (2,), "compact": ()}


class ThemeError(ValueError):
    """A theme that cannot be used; the message says which and why."""


@dataclass(frozen=True)
class Theme:
    name: str          # the built-in name, or the path as given
    path: Path         # the .typ file
    built_in: bool

    @property
    def upper(self) -> tuple[int, ...] | None:
        """The heading levels the theme sets in capitals (the read-back check looks for
        them so); None for a theme of the user's own, which may set any in capitals."""
        return UPPER_CASE_LEVELS.get(self.name) if self.built_in else None

    @property
    def fonts(self) -> Path | None:
        folder = self.path.parent / "fonts"
        return folder if not self.built_in and folder.is_dir() else None


def built_in_path(name: str) -> Path:
    return Path(str(resources.files("jobtracker.render") / "themes" / f"{name}.typ"))


def find_theme(name: str, base: Path | None = None) -> Theme:
    """The theme `name` names: a built-in one, else a `.typ` file (relative paths
    from `base`, else the current folder); ThemeError when there is none."""
    if name in BUILT_IN:
        return Theme(name, built_in_path(name), True)
    path = Path(name).expanduser()
    if not path.is_absolute() and base is not None:
        path = base / path
    if path.suffix != ".typ":
        raise ThemeError(f"unknown theme {name!r}: a theme is one of {', '.join(BUILT_IN)} "
                         "or the path of a .typ file")
    if not path.is_file():
        raise ThemeError(f"theme {name!r}: no such file {path}")
    return Theme(name, path.resolve(), False)
