"""The workspace: one folder that holds a user's whole setup and data."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from jobtracker import config as cfg

# The files `init` creates, each from a commented template shipped in the package.
TEMPLATE_FILES = (
    "config.yaml", "profile.yaml", "sources.yaml", "plugins.yaml", "resume.md",
    "keywords.yaml", "coverletter.md", "answers.yaml",
)


def resolve_home(arg: str | os.PathLike[str] | None = None) -> Path:
    """--home, else $JOBTRACKER_HOME, else $XDG_DATA_HOME/jobtracker (~/.local/share)."""
    if arg:
        return cfg.expand_path(str(arg))
    if os.environ.get("JOBTRACKER_HOME"):
        return cfg.expand_path(os.environ["JOBTRACKER_HOME"])
    xdg = os.environ.get("XDG_DATA_HOME") or os.path.join("~", ".local", "share")
    return cfg.expand_path(xdg) / "jobtracker"


def _tasks() -> Sequence[cfg.TaskDeclaration]:
    """The registered tasks in pipeline order, which config checks task names against.
    Imported when asked: finding a workspace's folder needs no task module loaded."""
    from jobtracker.tasks import ordered

    return ordered()


@dataclass(frozen=True)
class Workspace:
    home: Path

    def __truediv__(self, name: str) -> Path:
        return self.home / name

    @property
    def db(self) -> Path:
        return self.home / "jobtracker.db"

    @property
    def runs(self) -> Path:
        return self.home / "runs"

    @property
    def lock(self) -> Path:
        return self.home / "run.lock"

    def config(self) -> cfg.Config:
        return cfg.load_config(self / "config.yaml", _tasks())

    def profile(self) -> cfg.Profile:
        return cfg.load_profile(self / "profile.yaml")

    def sources(self) -> cfg.Sources:
        from jobtracker.sources import REGISTRY

        return cfg.load_sources(self / "sources.yaml", REGISTRY)

    def plugins(self) -> dict[str, bool]:
        """Which registered tasks are switched on."""
        return cfg.load_plugins(self / "plugins.yaml", _tasks())

    def init(self) -> list[Path]:
        """Create the folder and every missing file; never overwrite. Returns what was made."""
        self.home.mkdir(parents=True, exist_ok=True)
        created = []
        templates = resources.files("jobtracker.templates")
        for name in TEMPLATE_FILES:
            target = self.home / name
            if target.exists():
                continue
            text = templates.joinpath(name).read_text(encoding="utf-8")
            # "x" mode: a file that appeared since the check is still never overwritten.
            try:
                with target.open("x", encoding="utf-8") as handle:
                    handle.write(text)
            except FileExistsError:
                continue
            created.append(target)
        for folder in ("runs", "tailored", "letters"):
            (self.home / folder).mkdir(exist_ok=True)
        return created
