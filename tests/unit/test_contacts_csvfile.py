"""Reading contact CSVs: LinkedIn's Connections.csv in the layouts real exports have had
(tests/fixtures/real/contacts/SOURCES.md), a spreadsheet's sheet, and hostile files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from jobtracker.contacts.csvfile import (
    MAX_CONTACTS,
    ContactsError,
    read_bytes,
    read_date,
    read_file,
)

REAL = Path(__file__).parents[1] / "fixtures" / "real" / "contacts"


def test_the_current_linkedin_export_is_read_past_its_notes() -> None:
    reading = read_file(REAL / "linkedin-2026.csv")
    assert reading.layout == "linkedin"
    people = {c.name: c for c in reading.contacts}
    assert list(people) == ["Dana Lee", "Sam Roe", "Kim Park", 'Lou O"Neil', "Rémy Dubois"]
    assert people["Sam Roe"].company == "Acme, Inc."            # quoted, with a comma
    assert people["Sam Roe"].position == "Director, Platform Engineering"
    assert people["Sam Roe"].email == "sam.roe@example.org"
    assert people["Dana Lee"].email == ""                        # as most rows are
    assert people["Dana Lee"].url == "https://www.linkedin.com/in/dana-lee-0a1b2c3d"
    assert people["Dana Lee"].connected_on == "2026-08-03"
    assert people["Dana Lee"].line == 5            # the notes and the header come first
    assert reading.blank == 1                      # `,,,,,,14 Mar 2024`: a hidden member
    assert reading.no_company == 1                 # Lou: kept, matched to nothing
    assert reading.undated == []


@pytest.mark.parametrize(("name", "expected"), [
    ("linkedin-2021-no-url.csv", [("Anna Berg", "Northwind Robotics", "2021-11-14", ""),
                                  ("Jo Kent", "Quillstone", "2021-06-02", "")]),
    ("linkedin-excel-resave.csv", [("Ari Fox", "Lumen Grid", "2026-08-03",
                                    "https://www.linkedin.com/in/ari-fox"),
                                   ("Bea Hale", "Lumen Grid", "2026-08-03",
                                    "https://www.linkedin.com/in/bea-hale")]),
    ("linkedin-2018.csv", [("Cal Mora", "Ferncliff", "2018-02-27", ""),
                           ("Dee Nash", "Ferncliff", "2018-02-03", "")]),
])
def test_older_and_resaved_linkedin_layouts_are_read_by_column_name(
        name: str, expected: list[tuple[str, str, str, str]]) -> None:
    reading = read_file(REAL / name)
    assert reading.layout == "linkedin"
    assert [(c.name, c.company, c.connected_on, c.url) for c in reading.contacts] == expected
    assert reading.undated == []


def test_a_spreadsheet_with_a_bom_crlf_and_its_own_column_names() -> None:
    reading = read_file(REAL / "spreadsheet-crlf-bom.csv")
    assert reading.layout == "csv"
    assert [(c.name, c.company, c.position, c.email) for c in reading.contacts] == [
        ("Eli Stone", "Kestrel Analytics", "VP Engineering", "eli@example.com"),
        ("Fay Quinn", "Brightline Health, Inc.", "Talent Partner", "")]


def test_a_formula_is_kept_as_the_characters_it_holds() -> None:
    data = (b'Name,Company,Position\n'
            b'"=HYPERLINK(""http://evil.example"",""x"")",Acme,+cmd|\' /C calc\'!A0\n')
    (contact,) = read_bytes(data, "sheet.csv").contacts
    assert contact.name == '=HYPERLINK("http://evil.example","x")'
    assert contact.position == "+cmd|' /C calc'!A0"


def test_terminal_control_in_a_cell_never_reaches_the_contact() -> None:
    (contact,) = read_bytes(b"Name,Company\nDana \x1b[31mLee\x07,Acme\n", "c.csv").contacts
    assert "\x1b" not in contact.name and "\x07" not in contact.name
    assert "Lee" in contact.name


def test_a_sheet_saved_in_windows_1252_is_read_and_said_so() -> None:
    reading = read_bytes("Name,Company\nRémy,Société\n".encode("cp1252"), "c.csv")
    assert reading.encoding == "cp1252"
    assert [(c.name, c.company) for c in reading.contacts] == [("Rémy", "Société")]


def test_a_date_that_is_not_read_names_its_line_and_keeps_the_contact() -> None:
    reading = read_bytes(b"Name,Company,Connected On\nA,B,yesterday\nC,D,2026-01-02\n", "c.csv")
    assert [c.connected_on for c in reading.contacts] == [None, "2026-01-02"]
    assert reading.undated == [2]


@pytest.mark.parametrize(("text", "expected"), [
    ("03 Aug 2026", "2026-08-03"), ("3-Aug-26", "2026-08-03"), ("2026-08-03", "2026-08-03"),
    ("02/27/18, 4:05 PM", "2018-02-27"), ("9/9/18, 9:05 AM", "2018-09-09"), ("", None),
    ("31 Feb 2026", None),
])
def test_the_dates_exports_write(text: str, expected: str | None) -> None:
    assert read_date(text) == expected


def test_a_file_with_no_header_is_refused_naming_it() -> None:
    with pytest.raises(ContactsError, match=r"notes\.txt: no header row"):
        read_bytes(b"just some text\nand more\n", "notes.txt")


def test_a_field_of_ten_megabytes_is_refused_with_its_line() -> None:
    data = b"Name,Company\nA,B\n" + b"C," + b"x" * (10 * 1024 * 1024) + b"\n"
    with pytest.raises(ContactsError, match=r"big\.csv:3: a field of more than"):
        read_bytes(data, "big.csv")


def test_a_long_field_under_the_csv_limit_is_refused_too() -> None:
    with pytest.raises(ContactsError, match=r"c\.csv:2: a field of 5,000 characters"):
        read_bytes(b"Name,Company\n" + b"y" * 5000 + b",B\n", "c.csv")


def test_a_million_rows_are_refused_whole(tmp_path: Path) -> None:
    path = tmp_path / "million.csv"
    with path.open("wb") as out:
        out.write(b"Name,Company\n")
        out.write(b"Person,Co\n" * 1_000_000)
    with pytest.raises(ContactsError, match=f"more than {MAX_CONTACTS:,} contacts; nothing"):
        read_file(path)


def test_nul_bytes_are_no_csv() -> None:
    with pytest.raises(ContactsError, match="NUL"):
        read_bytes(b"Name,Company\nA\x00,B\n", "c.csv")


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "Connections.csv"
    os.mkfifo(fifo)
    with pytest.raises(ContactsError, match="not a regular file"):
        read_file(fifo)


def test_a_missing_file_is_named() -> None:
    with pytest.raises(ContactsError, match="no such file"):
        read_file(Path("/nonexistent/Connections.csv"))
