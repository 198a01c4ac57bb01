"""The workspace: one folder that holds a user's whole setup and data. Paths and file
loading only: reading a file that is checked against a registry (config.yaml's task
sections, sources.yaml, plugins.yaml) is the run's setup's, the one wiring point
(jobtracker/run/setup.py: `config_of`, `sources_of`, `plugins_of`), so importing a
Workspace loads no task and no source."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from jobtracker import config as cfg

# The files `init` creates, each from a commented template shipped in the package.
TEMPLATE_FILES = (
    "config.yaml", "profile.yaml", "sources.yaml", "plugins.yaml", "resume.md",
    "keywords.yaml", "coverletter.md", "answers.yaml",
)


# What jobtracker creates is its user's alone: answers.yaml holds a phone number and a
# salary, the database holds mail. Folders 0700, files 0600.
PRIVATE_DIR, PRIVATE_FILE = 0o700, 0o600
PRIVATE_UMASK = 0o077


@contextmanager
def private_files() -> Iterator[None]:
    """Run a command with a umask that keeps everything it creates private (group and
    others get nothing): the database and its WAL, logs, packets, every temporary
    file, whichever library writes them. A stricter umask of the user's own stays."""
    old = os.umask(PRIVATE_UMASK)
    os.umask(old | PRIVATE_UMASK)
    try:
        yield
    finally:
        os.umask(old)


def exposed(home: Path) -> list[tuple[Path, int]]:
    """The workspace folder and its entries (one level: the files that matter sit at
    the top) that others may read, write or enter, with their modes."""
    found = []
    for path in (home, *sorted(home.iterdir())):
        try:
            info = path.lstat()
        except FileNotFoundError:
            continue
        if stat.S_ISLNK(info.st_mode):
            continue
        if info.st_mode & 0o077:
            found.append((path, stat.S_IMODE(info.st_mode)))
    return found


def resolve_home(arg: str | os.PathLike[str] | None = None) -> Path:
    """--home, else $JOBTRACKER_HOME, else $XDG_DATA_HOME/jobtracker (~/.local/share)."""
    if arg:
        return cfg.expand_path(str(arg))
    if os.environ.get("JOBTRACKER_HOME"):
        return cfg.expand_path(os.environ["JOBTRACKER_HOME"])
    xdg = os.environ.get("XDG_DATA_HOME") or os.path.join("~", ".local", "share")
    return cfg.expand_path(xdg) / "jobtracker"


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

    def profile(self) -> cfg.Profile:
        return cfg.load_profile(self / "profile.yaml")

    def init(self) -> list[Path]:
        """Create the folder and every missing file; never overwrite. Returns what was made.
        What it creates is private (PRIVATE_DIR, PRIVATE_FILE), whatever the umask."""
        if not self.home.exists():
            self.home.mkdir(parents=True, exist_ok=True, mode=PRIVATE_DIR)
            os.chmod(self.home, PRIVATE_DIR)     # mkdir's mode passes through the umask
        created = []
        templates = resources.files("jobtracker.templates")
        for name in TEMPLATE_FILES:
            target = self.home / name
            if target.exists():
                continue
            text = templates.joinpath(name).read_text(encoding="utf-8")
            # "x" mode: a file that appeared since the check is still never overwritten.
            try:
                fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
            except FileExistsError:
                continue
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                os.fchmod(handle.fileno(), PRIVATE_FILE)
                handle.write(text)
            created.append(target)
        for folder in ("runs", "tailored", "letters"):
            if not (self.home / folder).exists():
                (self.home / folder).mkdir(mode=PRIVATE_DIR)
                os.chmod(self.home / folder, PRIVATE_DIR)
        return created
