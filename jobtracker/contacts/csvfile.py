"""Reading a contacts CSV: LinkedIn's `Connections.csv`, or any sheet with a name and a
company column.

LinkedIn's export (shared layout notes: docs/contacts.md) starts with a `Notes:` line,
one quoted paragraph and a blank line before the header `First Name,Last Name,URL,
Email Address,Company,Position,Connected On`; older exports have no `URL` column, and
many users delete the notes by hand. So the header is found by what it says (a row
naming a name column and a company column among the first rows), never at a fixed
line, and columns are taken by their names.

Everything in the file is text: a cell that starts with `=` (`=HYPERLINK(...)`) is
kept and shown as the characters it holds, never evaluated. The reader is bounded:
the file's size, the rows, and one field's length (a longer field is an error naming
its line, so nothing half-read is stored).
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from jobtracker.files import FileRefused, read_regular_bytes
from jobtracker.text import one_line

MAX_FILE_BYTES = 64 * 1024 * 1024
# LinkedIn caps a member's connections at 30,000; a sheet of people a little more.
MAX_CONTACTS = 100_000
MAX_FIELD_CHARS = 1_000      # a name, a company, a position: never a page of text
HEADER_ROWS = 20             # how far down the header is looked for

# Header cells, lower case with spaces collapsed, by the field they give.
_COLUMNS: dict[str, tuple[str, ...]] = {
    "first": ("first name", "firstname", "given name", "first"),
    "last": ("last name", "lastname", "surname", "family name", "last"),
    "name": ("name", "full name", "contact", "contact name", "person"),
    "company": ("company", "company name", "organization", "organisation", "employer",
                "current company", "org"),
    "position": ("position", "title", "job title", "role", "current position"),
    "email": ("email address", "email", "e-mail", "e-mail address", "mail"),
    "url": ("url", "profile url", "linkedin", "linkedin url", "profile", "linkedin profile"),
    "connected": ("connected on", "connected", "date connected"),
}
_FIELD_OF = {alias: name for name, aliases in _COLUMNS.items() for alias in aliases}
_LINKEDIN_HEADER = {"first", "last", "company", "position", "connected"}

# Dates as the exports write them: LinkedIn's `03 Aug 2026`, an Excel re-save's
# `3-Aug-26`, ISO, and 2018's `02/27/18, 4:05 PM` (read by pattern, not strptime, which
# costs ~50 us a try: 30,000 rows would take seconds).
_MONTHS = {name: number for number, name in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"),
    start=1)}
_DAY_MONTH_YEAR = re.compile(r"(\d{1,2})[ -]([A-Za-z]{3})[ -](\d{4}|\d{2})")
_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_US = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})(?:,? +\d{1,2}:\d{2}(?: *[AaPp][Mm])?)?")
_SPACES = re.compile(r"\s+")


class ContactsError(Exception):
    """A file that is not a contacts CSV; the message names the file (and line)."""


@dataclass(frozen=True)
class Contact:
    name: str
    company: str = ""
    position: str = ""
    email: str = ""
    url: str = ""
    connected_on: str | None = None     # YYYY-MM-DD
    line: int = 0                       # the file's line the row starts on


@dataclass
class Reading:
    """What one file held: the contacts, and what was left out and why."""

    contacts: list[Contact] = field(default_factory=list)
    layout: str = "csv"              # 'linkedin' when the header is LinkedIn's export's
    encoding: str = "utf-8"
    blank: int = 0                   # rows with no name (LinkedIn's hidden members)
    no_company: int = 0              # kept, but never matched to a company
    undated: list[int] = field(default_factory=list)   # lines whose date was not read


def read_file(path: Path) -> Reading:
    """Read the contacts CSV at `path` (a regular file, bounded); ContactsError says why not."""
    try:
        data = read_regular_bytes(path, MAX_FILE_BYTES)
    except FileRefused as exc:
        raise ContactsError(str(exc)) from None
    if data is None:
        raise ContactsError(f"{path}: no such file")
    return read_bytes(data, str(path))


def read_bytes(data: bytes, name: str) -> Reading:
    text, encoding = _decode(data)
    reading = read_text(text, name)
    reading.encoding = encoding
    return reading


def _decode(data: bytes) -> tuple[str, str]:
    """UTF-8 (a byte-order mark dropped), else Windows-1252: what a spreadsheet saves."""
    try:
        return data.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace"), "cp1252"


def read_text(text: str, name: str) -> Reading:
    if "\x00" in text:
        raise ContactsError(f"{name}: holds NUL bytes; not a CSV file")
    rows = csv.reader(io.StringIO(text, newline=""), strict=False)
    reading = Reading()
    columns: dict[str, int] | None = None
    try:
        for record in rows:
            line = rows.line_num
            if columns is None:
                columns = _header(record)
                if columns is None:
                    if line >= HEADER_ROWS:
                        break
                    continue
                if columns.keys() >= _LINKEDIN_HEADER:
                    reading.layout = "linkedin"
                continue
            _row(record, columns, line, name, reading)
    except csv.Error as exc:
        if "field larger than field limit" in str(exc):
            raise ContactsError(f"{name}:{rows.line_num}: a field of more than "
                                f"{csv.field_size_limit():,} characters; not a contacts "
                                "row") from None
        raise ContactsError(f"{name}:{rows.line_num}: not CSV ({exc})") from None
    if columns is None:
        raise ContactsError(
            f"{name}: no header row naming a name column (First Name, Name) and a "
            f"Company column in its first {HEADER_ROWS} lines; not a contacts CSV")
    return reading


def _header(record: list[str]) -> dict[str, int] | None:
    """The columns a header row names (field -> index), None when it is no header."""
    columns: dict[str, int] = {}
    for index, cell in enumerate(record):
        key = _SPACES.sub(" ", cell.strip().lstrip("\ufeff").lower())
        name = _FIELD_OF.get(key)
        if name is not None and name not in columns:
            columns[name] = index
    has_name = "name" in columns or "first" in columns or "last" in columns
    return columns if has_name and "company" in columns else None


def _row(record: list[str], columns: dict[str, int], line: int, name: str,
         reading: Reading) -> None:
    for value in record:
        if len(value) > MAX_FIELD_CHARS:
            raise ContactsError(f"{name}:{line}: a field of {len(value):,} characters "
                                f"(at most {MAX_FIELD_CHARS:,}); not a contacts row")

    def cell(key: str) -> str:
        index = columns.get(key)
        return one_line(record[index]) if index is not None and index < len(record) else ""

    person = cell("name") or " ".join(p for p in (cell("first"), cell("last")) if p)
    if not person:
        reading.blank += 1
        return
    if len(reading.contacts) >= MAX_CONTACTS:
        raise ContactsError(f"{name}: more than {MAX_CONTACTS:,} contacts; nothing imported "
                            "(LinkedIn exports hold at most 30,000 connections)")
    company = cell("company")
    if not company:
        reading.no_company += 1
    written = cell("connected")
    connected = read_date(written)
    if written and connected is None:
        reading.undated.append(line)
    reading.contacts.append(Contact(
        name=person, company=company, position=cell("position"), email=cell("email"),
        url=cell("url"), connected_on=connected, line=line))


def read_date(text: str) -> str | None:
    """`03 Aug 2026`, `3-Aug-26`, `2026-08-03`, `02/27/18, 4:05 PM` → `2026-08-03`."""
    text = text.strip()
    if not text:
        return None
    if found := _DAY_MONTH_YEAR.fullmatch(text):
        day, month, year = found[1], _MONTHS.get(found[2].lower()), found[3]
    elif found := _ISO.fullmatch(text):
        year, month, day = found[1], int(found[2]), found[3]
    elif found := _US.fullmatch(text):
        month, day, year = int(found[1]), found[2], found[3]
    else:
        return None
    if month is None:
        return None
    try:     # a two-digit year is this century's: LinkedIn began in 2003
        return date(int(year) + (2000 if len(year) == 2 else 0), month, int(day)).isoformat()
    except ValueError:
        return None
