"""The contacts' mail query reads only senders with `<` or `(` (people.py: _from_mail):
parseaddr names a person only in `Name <address>` or `address (Name)`, so a sender
without either can never be a contact. Checked against parseaddr itself."""

from __future__ import annotations

import asyncio
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from jobtracker import store
from jobtracker.contacts.people import MAIL_SQL, _person

SHAPES = ["dana@example.com", "Dana Lee", "Dana dana@example.com", '"Dana Lee" dana@x.org',
          "Dana: dana@x.org;", "dana@x.org Dana", "Dana, Lee dana@x.org", "=?utf-8?q?D?= d@x"]


def test_a_sender_without_brackets_names_nobody() -> None:
    assert [_person(sender) for sender in SHAPES] == [None] * len(SHAPES)
    assert _person("Dana Lee <dana@example.com>") == ("Dana Lee", "dana@example.com")
    assert _person("dana@example.com (Dana Lee)") == ("Dana Lee", "dana@example.com")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='abcDE .,:;@"\\=?-_[]!#', max_size=40))
def test_no_sender_without_brackets_names_anyone(sender: str) -> None:
    assert _person(sender) is None


def test_the_mail_read_goes_through_its_index(tmp_path: Path) -> None:
    async def plan() -> list[str]:
        async with store.connect(tmp_path / "jobtracker.db") as conn:
            rows = await conn.execute_fetchall("EXPLAIN QUERY PLAN " + MAIL_SQL)
        return [str(row[3]) for row in rows]

    assert "SCAN messages USING INDEX messages_people" in asyncio.run(plan())
