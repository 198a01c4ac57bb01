"""The demo: a sample workspace, and the bundled demo model that works its queue.

`install_demo(ws)` fills a workspace with the data set shipped in this package:
four job boards in their ATS's public API shapes (Greenhouse, Lever, Ashby) and
an RSS feed — about thirty postings, loaded through the real fetch path from a
loopback server — plus a resume, keywords, a cover-letter template, a profile,
and a small Maildir of employer replies (an acknowledgement, an interview
invitation, a rejection, a take-home assessment, a newsletter). The Maildir is a
copy inside the workspace, so the user's own mail is never read.

Like `jobtracker init`, it never overwrites a file. Postings are loaded only into
a database that holds none yet, so running it on a real workspace adds the
missing files but never mixes sample postings into real ones.

The bundled demo model lives in `jobtracker.demo.model`; `jobtracker-tui --demo`
(tui/cli.py) puts the two together.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from jobtracker import store
from jobtracker.workspace import Workspace

from .load import DemoDataError, data_dir, load_postings

# The workspace files the demo ships; `Workspace.init` adds any the demo does not.
DEMO_FILES = ("config.yaml", "profile.yaml", "sources.yaml", "plugins.yaml", "resume.md",
              "keywords.yaml", "coverletter.md", "answers.yaml")
MAILDIR = "Maildir"
DEMO_MODEL = "jobtracker-demo"


def data_text(name: str) -> str:
    """One of the demo's workspace files, as shipped."""
    return data_dir().joinpath("workspace", name).read_text(encoding="utf-8")


def _render(name: str, ws: Workspace, model: str | None) -> str:
    text = data_text(name)
    if name == "config.yaml":
        # JSON strings are valid YAML double-quoted scalars: any path is safe here.
        text = text.replace('"@MAILDIR@"', json.dumps(str(ws.home / MAILDIR)))
        if model:
            text = text.replace(f"model: {DEMO_MODEL}", f"model: {json.dumps(model)}")
    return text


def _write_new(path: Path, data: str | bytes) -> bool:
    """Write `path` only if it does not exist ("x" mode: never overwrite, even in a race)."""
    try:
        with path.open("xb") as handle:
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
    except FileExistsError:
        return False
    return True


def _install_maildir(ws: Workspace) -> list[Path]:
    maildir = ws.home / MAILDIR
    created = [] if maildir.exists() else [maildir]
    for sub in ("cur", "new", "tmp"):
        (maildir / sub).mkdir(parents=True, exist_ok=True)
    for message in sorted(data_dir().joinpath("mail").iterdir(), key=lambda m: m.name):
        if not message.name.endswith(".eml"):
            continue
        target = maildir / "new" / f"demo-{message.name.removesuffix('.eml')}"
        if _write_new(target, message.read_bytes()):
            created.append(target)
    return created


async def _postings_count(db: Path) -> int:
    async with store.connect(db) as conn:
        row = await (await conn.execute("SELECT COUNT(*) FROM postings")).fetchone()
        return int(row[0])


def install_demo(ws: Workspace, *, model: str | None = None) -> list[Path]:
    """Fill `ws` with the demo data set; return every path created.

    `model` is written into a new config.yaml in place of the demo model's name (for
    a demo run against a real server). Never overwrites a file; loads the postings
    only into a database without any. Must not be called from a running event loop.
    Raises DemoDataError when the shipped data does not load (a packaging bug).
    """
    ws.home.mkdir(parents=True, exist_ok=True)
    created = [ws / name for name in DEMO_FILES if _write_new(ws / name, _render(name, ws, model))]
    created += ws.init()             # answers.yaml and the runs/, tailored/, letters/ folders
    created += _install_maildir(ws)
    if asyncio.run(_postings_count(ws.db)) == 0:
        asyncio.run(load_postings(ws.db))
        created.append(ws.db)
    return created


__all__ = ["DEMO_FILES", "DEMO_MODEL", "MAILDIR", "DemoDataError", "data_text", "install_demo"]
