"""The contacts' mail query reads only senders with `<` or `(` (people.py: _from_mail):
parseaddr names a person only in `Name <address>` or `address (Name)`, so a sender
without either can never be a contact. Checked against parseaddr itself."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from jobtracker.contacts.people import _person

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
