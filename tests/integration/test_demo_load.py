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


def test_the_demos_postings_are_dated_as_of_today(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Not "posted 575 day(s) ago": every shape's date (ISO, Lever's epoch, the feed's
    RFC 822) is moved so the newest posting is a day old, their order kept."""
    from datetime import UTC, date, datetime

    home = tmp_path / "demo"
    init_demo(home, capsys)
    posted = rows(home / "jobtracker.db",
                  "SELECT b.source, p.posted_at FROM postings p JOIN boards b "
                  "ON b.id = p.board_id WHERE p.posted_at IS NOT NULL")
    today = datetime.now(UTC).date()
    ages = {source: [] for source, _ in posted}
    for source, stamp in posted:
        ages[source].append((today - date.fromisoformat(stamp[:10])).days)
    assert set(ages) >= {"greenhouse", "lever", "ashby", "feed"}, ages
    assert min(min(a) for a in ages.values()) in (0, 1, 2), ages
    assert max(max(a) for a in ages.values()) < 60, ages


def test_shifting_keeps_times_and_formats() -> None:
    from jobtracker.demo.load import shifted

    body = (b'{"first_published": "2025-05-05T08:30:00-04:00", "createdAt": 1746300000000}'
            b'<pubDate>Fri, 02 May 2025 14:00:00 GMT</pubDate>')
    assert shifted(body, 30) == (
        b'{"first_published": "2025-06-04T08:30:00-04:00", "createdAt": 1748892000000}'
        b'<pubDate>Sun, 01 Jun 2025 14:00:00 GMT</pubDate>')
