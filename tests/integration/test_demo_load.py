"""The demo data set loads every ATS shape and the feed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from jobtracker.cli import main as cli_main


def init_demo(home: Path, capsys: pytest.CaptureFixture[str]) -> str:
    assert cli_main(["--home", str(home), "init", "--demo"]) == 0
    return capsys.readouterr().out


def rows(db: Path, sql: str, *params: object) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql, params).fetchall()


def test_the_demo_data_loads_every_ats_shape_and_the_feed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "demo"
    init_demo(home, capsys)
    db = home / "jobtracker.db"
    by_source = dict(rows(db, "SELECT b.source, COUNT(*) FROM postings p "
                              "JOIN boards b ON b.id = p.board_id GROUP BY b.source"))
    assert by_source["greenhouse"] == 14
    assert by_source["lever"] == 7
    assert by_source["ashby"] == 7
    assert by_source["feed"] == 4       # feed items that link to no ATS page
    assert sum(by_source.values()) == 32
    # Every board loaded, none failed; the feed's item for a Northwind job is that
    # job's ATS posting (one row, with the ATS prose), not a second posting.
    assert rows(db, "SELECT COUNT(*) FROM boards WHERE last_error IS NOT NULL")[0][0] == 0
    assert rows(db, "SELECT b.source, p.description_source FROM postings p "
                    "JOIN boards b ON b.id = p.board_id WHERE p.url = "
                    "'https://boards.greenhouse.io/northwind/jobs/4012001'") == [
        ("greenhouse", "ats")]
    assert rows(db, "SELECT salary_min, salary_currency FROM postings "
                    "WHERE title = 'Senior Backend Engineer (Energy Markets)'") == [
        (90000.0, "EUR")]
