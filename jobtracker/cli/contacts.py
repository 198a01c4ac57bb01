"""`jobtracker contacts`: the people you know, by company.

    jobtracker contacts [COMPANY] [--json]
    jobtracker contacts import FILE [--source NAME] [--dry-run]

`import` reads LinkedIn's Connections.csv or any CSV with a name and a company column
(jobtracker/contacts/csvfile.py) and replaces what the same source imported before;
nothing leaves the machine. Listing adds the people who wrote to you about an
application (they are read from your mail, never copied).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from jobtracker.cli.base import EXIT_OK, EXIT_USAGE, command, print_json
from jobtracker.clock import now_iso
from jobtracker.text import one_line

if TYPE_CHECKING:   # the store, the CSV reader and the directory load when `contacts` runs
    from jobtracker.contacts.csvfile import Reading
    from jobtracker.workspace import Workspace

IMPORT = "import"
UNDATED_SHOWN = 5        # lines named when dates were not read


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("words", nargs="*", metavar="COMPANY | import FILE",
                        help="a company to list the people you know at; or `import FILE`")
    parser.add_argument("--source", metavar="NAME",
                        help="import: the name this file's rows are kept under (default: "
                             "`linkedin` for LinkedIn's export, else the file's name); "
                             "importing the same source again replaces its rows")
    parser.add_argument("--dry-run", action="store_true",
                        help="import: read the file and say what it holds; store nothing")
    parser.add_argument("--json", action="store_true",
                        help="list: print a JSON array of objects instead of a table")


@command("contacts", "the people you know at each company; import LinkedIn's "
         "Connections.csv", _configure)
def cmd_contacts(args: argparse.Namespace, ws: Workspace) -> int:
    import asyncio  # the event loop: once a command runs, not for --help

    words = list(args.words)
    if words and words[0] == IMPORT:
        if len(words) != 2:
            print("jobtracker: `contacts import` takes one FILE", file=sys.stderr)
            return EXIT_USAGE
        return _import(Path(words[1]), args, ws)
    if args.source or args.dry_run:
        print("jobtracker: --source and --dry-run go with `contacts import FILE`",
              file=sys.stderr)
        return EXIT_USAGE
    return asyncio.run(_list(" ".join(words), args.json, ws))


def _import(path: Path, args: argparse.Namespace, ws: Workspace) -> int:
    import asyncio

    from jobtracker.contacts import people
    from jobtracker.contacts.csvfile import ContactsError, read_file

    try:
        reading = read_file(path)
    except ContactsError as error:
        print(f"jobtracker: {error}", file=sys.stderr)
        return EXIT_USAGE
    source = one_line(args.source or ("linkedin" if reading.layout == "linkedin"
                                      else path.name), 80)
    if not source or source == people.MAIL:
        print(f"jobtracker: --source {source!r} is not a name an import can take",
              file=sys.stderr)
        return EXIT_USAGE
    for line in _read_lines(reading, path):
        print(line)
    if args.dry_run:
        print(f"dry run: {len(reading.contacts):,} contact(s) would replace source "
              f"{source!r}; nothing stored")
        return EXIT_OK
    before, now = asyncio.run(_store(ws, source, reading))
    replaced = f", replacing {before:,}" if before else ""
    print(f"imported {now:,} contact(s) as source {source!r}{replaced}")
    return EXIT_OK


def _read_lines(reading: Reading, path: Path) -> list[str]:
    layout = "LinkedIn's Connections.csv" if reading.layout == "linkedin" else "a CSV"
    lines = [f"{path.name}: {layout}, {len(reading.contacts):,} contact(s)"
             + (" (read as Windows-1252: not UTF-8)" if reading.encoding == "cp1252" else "")]
    if reading.blank:
        lines.append(f"  {reading.blank:,} row(s) with no name left out "
                     "(LinkedIn writes hidden members so)")
    if reading.no_company:
        lines.append(f"  {reading.no_company:,} contact(s) with no company: kept, matched to "
                     "no job")
    if reading.undated:
        shown = ", ".join(str(n) for n in reading.undated[:UNDATED_SHOWN])
        more = ", …" if len(reading.undated) > UNDATED_SHOWN else ""
        lines.append(f"  {len(reading.undated):,} date(s) not read (line {shown}{more}): "
                     "kept without a date")
    return lines


async def _store(ws: Workspace, source: str, reading: Reading) -> tuple[int, int]:
    from jobtracker import store
    from jobtracker.contacts import people

    async with store.connect(ws.db) as conn, store.write(conn):
        return await people.replace(conn, source, reading.contacts, now_iso())


async def _list(company: str, as_json: bool, ws: Workspace) -> int:
    from jobtracker import store
    from jobtracker.contacts import people

    async with store.connect(ws.db) as conn:
        directory = await people.Directory.load(conn)
        imports = await people.sources(conn)
    if company:
        found = directory.known_at(company)
    else:
        everyone = directory.people
        found = [person for key in sorted(everyone) for person in everyone[key]]
    if as_json:
        print_json([person.to_json() for person in found])
        return EXIT_OK
    if not found:
        where = f" at {one_line(company)}" if company else ""
        hint = ("" if imports else
                "; `jobtracker contacts import Connections.csv` reads LinkedIn's export")
        print(f"no contacts{where}{hint}")
        return EXIT_OK
    rows = [(one_line(p.company, 30), one_line(p.name, 30), one_line(p.position, 40),
             p.source) for p in found]
    widths = [max(len(r[i]) for r in [("company", "name", "position", "source"), *rows])
              for i in range(4)]
    for row in [("company", "name", "position", "source"), *rows]:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
              .rstrip())
    return EXIT_OK
