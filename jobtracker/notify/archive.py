"""The `file` channel and the digest's archive: `digests/YYYY-MM-DD.md` and `.html`
keep what was sent (a second digest on the same day is `YYYY-MM-DD-2.md`). Written
atomically; the Markdown file ends with which channels took the digest."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from jobtracker.files import FileRefused, relative, remove_workspace, write_workspace
from jobtracker.notify import layout
from jobtracker.notify.digest import Digest
from jobtracker.text import one_line

FOLDER = "digests"


def free_name(folder: Path, day: str) -> Path:
    """`folder/DAY.md`, or `DAY-2.md`, `DAY-3.md`... when the day has one already."""
    candidate, n = folder / f"{day}.md", 1
    while candidate.exists() or candidate.with_suffix(".html").exists():
        n += 1
        candidate = folder / f"{day}-{n}.md"
    return candidate


def write(home: Path, digest: Digest, delivered: Mapping[str, str],
          failed: Mapping[str, str]) -> str:
    """Write the digest's Markdown and HTML forms; returns the Markdown file's path
    relative to the workspace. OSError when the folder cannot be written."""
    target = free_name(home / FOLDER, digest.day)
    footer = ["", "---", ""]
    footer += [f"- delivered to {name}: {layout.md(detail, 200)}"
               for name, detail in delivered.items()]
    footer += [f"- **not delivered** to {name}: {layout.md(reason, 300)}"
               for name, reason in failed.items()]
    _write(home, target, layout.markdown(digest) + "\n".join(footer) + "\n")
    _write(home, target.with_suffix(".html"), layout.html_mail(digest))
    return relative(target, home)


def _write(home: Path, path: Path, text: str) -> None:
    """Through the workspace's one writer: a linked `digests/` (or a file there that is
    a link, a FIFO) is refused, as the OSError the caller reports."""
    try:
        write_workspace(home, path, text)
    except FileRefused as exc:
        raise OSError(str(exc)) from None


def check_writable(home: Path) -> str:
    """For `check --send-test`: the archive folder takes a file. OSError when not."""
    folder = home / FOLDER
    probe = folder / ".send-test"
    _write(home, probe, "jobtracker test\n")
    try:
        remove_workspace(home, probe)
    except FileRefused as exc:
        raise OSError(str(exc)) from None
    return one_line(relative(folder, home) + "/")
