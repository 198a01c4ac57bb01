"""`jobtracker sources list|remove`: what sources.yaml lists, and taking one out.

    jobtracker sources list [--json]
    jobtracker sources remove NAME

`remove` edits the file's text as `jobtracker add` does: the entry's own lines go,
every other byte stays, and the result is read back before it replaces the file.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from jobtracker.cli.base import EXIT_OK, EXIT_USAGE, add_home, command, print_json
from jobtracker.text import one_line

if TYPE_CHECKING:   # the store, the settings and sources.yaml's editor load when it runs
    from jobtracker.config import Sources
    from jobtracker.workspace import Workspace

FEED = "feed"


@dataclass(frozen=True)
class Entry:
    """One board or feed of sources.yaml, with how its last fetch went."""

    kind: str                 # "board" or "feed"
    ats: str                  # the ATS, or "feed"
    token: str                # the board token, or the feed's name
    company: str
    url: str | None
    index: int                # its place in its list (boards or feeds)
    last_ok: str | None = None
    last_error: str | None = None

    @property
    def name(self) -> str:
        return f"{self.ats}:{self.token}"

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "kind": self.kind, "ats": self.ats, "token": self.token,
                "company": self.company, "url": self.url, "last_ok": self.last_ok,
                "last_error": self.last_error}


def entries(sources: Sources) -> list[Entry]:
    boards = [Entry("board", b.ats, b.token, b.company, b.url, i)
              for i, b in enumerate(sources.boards)]
    feeds = [Entry("feed", FEED, f.name, "", f.url, i) for i, f in enumerate(sources.feeds)]
    return boards + feeds


async def _with_fetches(ws: Workspace, found: list[Entry]) -> list[Entry]:
    """Each entry with its board row's last success and error (none before a fetch).
    A workspace without a database yet is not given one by listing it."""
    from jobtracker import store

    if not ws.db.exists():
        return found
    async with store.connect(ws.db) as conn:
        rows = await conn.execute_fetchall(
            "SELECT source, lower(token), last_ok, last_error FROM boards")
    known = {(source, token): (ok, error) for source, token, ok, error in rows}
    out = []
    for entry in found:
        ok, error = known.get((entry.ats, entry.token.lower()), (None, None))
        out.append(Entry(entry.kind, entry.ats, entry.token, entry.company, entry.url,
                         entry.index, ok, error))
    return out


def fetch_state(entry: Entry) -> str:
    if entry.last_error:
        return f"failed: {one_line(entry.last_error, 60)}"
    if entry.last_ok:
        return f"ok {entry.last_ok[:16].replace('T', ' ')}"
    return "never fetched"


def format_entries(found: list[Entry]) -> str:
    if not found:
        return "no boards or feeds yet: `jobtracker add URL`, or edit sources.yaml"
    width = max(len(one_line(e.name)) for e in found)
    company = max([7, *(len(one_line(e.company, 30)) for e in found)])
    lines = [f"{'name':<{width}}  {'company':<{company}}  last fetch"]
    for e in found:
        line = (f"{one_line(e.name):<{width}}  {one_line(e.company, 30):<{company}}  "
                f"{fetch_state(e)}")
        if e.url:
            line += f"  ({one_line(e.url, 80)})"
        lines.append(line)
    return "\n".join(lines)


def candidates(found: list[Entry], name: str) -> list[Entry]:
    """The entries `name` picks: its `ats:token`, or a feed's name, picks that one;
    otherwise every board whose token or company it is (names compare
    case-insensitively, as `fetch --source` reads them)."""
    wanted = name.strip().lower()
    exact = [e for e in found
             if wanted == e.name.lower() or (e.kind == "feed" and wanted == e.token.lower())]
    return exact or [e for e in found
                     if e.kind == "board" and wanted in (e.token.lower(), e.company.lower())]


# --- the command ---------------------------------------------------------------------

def _configure(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    listing = actions.add_parser("list", help="every board and feed, with its last fetch")
    listing.add_argument("--json", action="store_true", help="a JSON array of objects")
    remove = actions.add_parser("remove", help="take one board or feed out of sources.yaml")
    remove.add_argument("name", metavar="NAME",
                        help="its ats:token as `sources list` prints it, a feed's name, or a "
                             "token or company that names one board")
    for child in (listing, remove):
        add_home(child, top=False)


@command("sources", "list the boards and feeds of sources.yaml, or remove one", _configure)
def cmd_sources(args: argparse.Namespace, ws: Workspace) -> int:
    import asyncio

    from jobtracker.config import Sources
    from jobtracker.run.setup import sources_of

    path = ws / "sources.yaml"
    sources = sources_of(ws) if path.exists() else Sources()
    found = entries(sources)
    if args.action == "remove":
        return _remove(ws, found, args.name)
    found = asyncio.run(_with_fetches(ws, found))
    if getattr(args, "json", False):
        print_json([e.to_json() for e in found])
    else:
        print(format_entries(found))
    return EXIT_OK


def _remove(ws: Workspace, found: list[Entry], name: str) -> int:
    from jobtracker.sources.listfile import read_text, removed, write_holding

    path = ws / "sources.yaml"
    picked = candidates(found, name)
    if len(picked) != 1:
        shown = one_line(name, 100)
        if picked:
            print(f"jobtracker: {path}: {shown!r} names {len(picked)} sources; name one: "
                  + ", ".join(one_line(e.name) for e in picked), file=sys.stderr)
        else:
            known = ", ".join(one_line(e.name) for e in found) or "none"
            print(f"jobtracker: {path}: no board or feed named {shown!r} "
                  f"(there are: {known})", file=sys.stderr)
        return EXIT_USAGE
    entry = picked[0]
    section = "boards" if entry.kind == "board" else "feeds"
    text = read_text(path)
    expected = [e.name for e in found if e != entry]
    try:
        edited = removed(text, section, entry.index)
        write_holding(path, edited, lambda after: [e.name for e in entries(after)] == expected)
    except ValueError as exc:
        print(f"jobtracker: {path}: {exc}; remove {entry.name} by hand", file=sys.stderr)
        return EXIT_USAGE
    print(f"removed {entry.name} from {path}; its postings stay in the database")
    return EXIT_OK


__all__ = ["Entry", "candidates", "cmd_sources", "entries"]

