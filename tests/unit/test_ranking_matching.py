"""The match rule: SQL and Python agree, row by row."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobtracker import store
from jobtracker.config import Profile
from jobtracker.ranking import matching

PROFILE = Profile(prose="x", levels=("senior", "staff"), locations=("remote", "berlin"),
                  exclude=("crypto",))

ROWS = [
    # title, location, remote, closed, title_level, reading, expected match
    ("Senior Engineer", "Berlin, DE", 0, False, "senior", None, True),
    ("Senior Engineer", "Paris", 1, False, "senior", None, True),        # remote flag
    ("Senior Engineer", "Paris", 0, False, "senior", None, False),       # location
    ("Senior Engineer", "Remote - EU", None, False, "senior", None, True),
    ("Senior Crypto Engineer", "Berlin", 0, False, "senior", None, False),
    ("Senior Crypto-Engineer", "Berlin", 0, False, "senior", None, False),
    ("Cryptography Engineer", "Berlin", 0, False, "senior", None, True),  # whole words only
    ("Engineer", "Berlin", 0, False, "UNCERTAIN", "staff", True),         # reading settles it
    ("Engineer", "Berlin", 0, False, "UNCERTAIN", "unclear", False),
    ("Engineer", "Berlin", 0, False, "UNCERTAIN", None, False),
    ("Junior Engineer", "Berlin", 0, False, "junior", "senior", False),   # title wins
    ("Senior Engineer", "Berlin", 0, True, "senior", None, False),        # closed
    ("100% Senior_Dev", "Berlin", 0, False, "senior", None, True),
]


@pytest.mark.parametrize("row", ROWS, ids=[f"{r[0]}|{r[1]}|{r[5]}" for r in ROWS])
async def test_sql_and_python_agree(tmp_path: Path, row: tuple) -> None:
    title, location, remote, closed, title_level, reading, expected = row
    async with store.connect(tmp_path / "db.sqlite") as conn:
        await conn.execute("INSERT INTO boards (id, source, token) VALUES (1, 'greenhouse', 'a')")
        await conn.execute(
            "INSERT INTO postings (id, board_id, external_id, title, location, remote, "
            "title_level, first_seen, last_seen, closed_at) VALUES (1, 1, 'x', ?, ?, ?, ?, "
            "'t', 't', ?)", (title, location, remote, title_level, "t" if closed else None))
        if reading:
            await conn.execute("INSERT INTO level_readings (posting_id, level, source_hash, model, "
                               "read_at) VALUES (1, ?, '', '', 't')", (reading,))
        where, params = matching.match_where(PROFILE)
        rows = await conn.execute_fetchall(
            f"SELECT p.id FROM {matching.FROM_POSTINGS} WHERE {where}", params)
    assert bool(rows) is expected
    assert matching.is_match(PROFILE, title=title, location=location, remote=bool(remote),
                             closed=closed, title_level=title_level, reading=reading) is expected


def test_empty_locations_means_anywhere() -> None:
    profile = Profile(levels=("senior",))
    assert matching.is_match(profile, title="Senior X", location="Mars", remote=False,
                             closed=False, title_level="senior", reading=None)


PHRASES = Profile(prose="x", levels=("senior",), locations=("münchen", "remote"),
                  exclude=("machine learning", "künstler"))

PHRASE_ROWS = [
    # title, location, expected match — each once through SQL and once through Python
    ("Senior Machine-Learning Engineer", "Remote", False),   # a phrase, across punctuation
    ("Senior Machine Learning Engineer", "Remote", False),
    ("Senior Learning Machine Engineer", "Remote", True),
    ("Senior Künstler", "Remote", False),
    ("Senior KÜNSTLER", "Remote", True),     # non-ASCII letters fold in neither
    ("Senior Engineer", "München", True),
    ("Senior Engineer", "MÜNCHEN", False),
]


@pytest.mark.parametrize("row", PHRASE_ROWS, ids=[f"{r[0]}|{r[1]}" for r in PHRASE_ROWS])
async def test_phrases_and_non_ascii_agree(tmp_path: Path, row: tuple) -> None:
    title, location, expected = row
    async with store.connect(tmp_path / "db.sqlite") as conn:
        await conn.execute("INSERT INTO boards (id, source, token) VALUES (1, 'greenhouse', 'a')")
        await conn.execute(
            "INSERT INTO postings (id, board_id, external_id, title, location, remote, "
            "title_level, first_seen, last_seen) VALUES (1, 1, 'x', ?, ?, 0, 'senior', 't', 't')",
            (title, location))
        where, params = matching.match_where(PHRASES)
        rows = await conn.execute_fetchall(
            f"SELECT p.id FROM {matching.FROM_POSTINGS} WHERE {where}", params)
    assert bool(rows) is expected
    assert matching.is_match(PHRASES, title=title, location=location, remote=False,
                             closed=False, title_level="senior", reading=None) is expected


def test_migration_versions_have_no_gap() -> None:
    versions = [v for v, _, _ in store.list_migrations()]
    assert versions == list(range(1, len(versions) + 1))


@pytest.mark.parametrize(("exclude", "title", "expected"), [
    ("c++", "Senior C++ Engineer", True),        # punctuation in a word: never matches (doc)
    ("crypto", "Senior CRYPTO engineer", False),  # ASCII case folds
    ("go", "Senior Golang Engineer", True),       # the substring pre-test is not the rule
    ("go", "Senior Go/Rust Engineer", False),
    ("100%", "Senior 100% Remote", False),       # LIKE wildcards in a word are literal
])
async def test_exclude_pretest_never_changes_the_answer(tmp_path: Path, exclude: str,
                                                       title: str, expected: bool) -> None:
    profile = Profile(prose="x", levels=("senior",), exclude=(exclude,))
    async with store.connect(tmp_path / "db.sqlite") as conn:
        await conn.execute("INSERT INTO boards (id, source, token) VALUES (1, 'greenhouse', 'a')")
        await conn.execute(
            "INSERT INTO postings (id, board_id, external_id, title, title_level, first_seen, "
            "last_seen) VALUES (1, 1, 'x', ?, 'senior', 't', 't')", (title,))
        where, params = matching.match_where(profile)
        rows = await conn.execute_fetchall(
            f"SELECT p.id FROM {matching.FROM_POSTINGS} WHERE {where}", params)
    assert bool(rows) is expected
    assert matching.is_match(profile, title=title, location="", remote=None, closed=False,
                             title_level="senior", reading=None) is expected
