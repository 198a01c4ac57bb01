"""Hostile mail: header bombs cost milliseconds, planted symlinks are never read."""

from __future__ import annotations

import email
import os
import random
import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import pytest
from mail_samples import NOW, build_maildir, plain

from jobtracker import store
from jobtracker.mail.maildir import DEFAULT, MAX_HEADER_CHARS, parse_message, sync_maildir

WORDS = ["=?utf-8?q?w=C3=A9rd?=", "=?utf-8?b?d8OpcmQ=?=", "=?iso-8859-1?q?caf=E9?=",
         "=?utf-8?q?=E2=98=83?=", "=?bogus?q?x?=", "=?utf-8?q?unterminated", "plain"]


def encoded_words(count: int, seed: int) -> str:
    rng = random.Random(seed)
    return " ".join(rng.choice(WORDS) for _ in range(count))


def top_level(header: str, words: str) -> bytes:
    """A message whose `header` holds the bomb; the reply itself is ordinary."""
    fields = {"From": "Acme Careers <jobs@acme.com>", "Subject": "Interview",
              "Message-ID": "<bomb@acme.com>", header: words}
    head = "".join(f"{name}: {value}\n" for name, value in fields.items())
    return f"{head}MIME-Version: 1.0\nContent-Type: text/plain\n\nPlease book a slot.\n".encode()


def in_a_part(header: str, words: str) -> bytes:
    """The bomb in a MIME part's header, which the parser reads while it splits parts."""
    part_header = (f'Content-Type: text/plain; name="{words}"' if header == "Content-Type"
                   else f"Content-Type: text/plain\n{header}: {words}")
    return ("From: jobs@acme.com\nSubject: Interview\nMessage-ID: <p@acme.com>\n"
            "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=XX\n\n"
            f"--XX\n{part_header}\n\nPlease book a slot.\n--XX--\n").encode()


CASES = [(build, header, count, seed)
         for seed, (build, header, count) in enumerate(
             [(top_level, "Subject", 40_000), (top_level, "From", 20_000),
              (top_level, "To", 30_000), (top_level, "Date", 10_000),
              (top_level, "Message-ID", 10_000), (top_level, "X-Junk", 40_000),
              (in_a_part, "Content-Type", 20_000), (in_a_part, "Content-Description", 20_000),
              (in_a_part, "Content-Disposition", 20_000)])]


@pytest.mark.parametrize(("build", "header", "count", "seed"), CASES)
def test_a_header_bomb_is_cut_and_the_message_still_read(build, header: str, count: int,
                                                          seed: int) -> None:
    raw = build(header, encoded_words(count, seed))
    started = time.process_time()
    parsed = parse_message(raw)
    assert time.process_time() - started < 1.0, header   # unbounded: 10-40 s
    assert "Please book a slot." in parsed.body
    if header not in ("From", "Subject", "Message-ID"):
        assert parsed.subject == "Interview" and parsed.sender_address == "jobs@acme.com"


def test_many_header_fields_cost_little() -> None:
    fields = "".join(f"X-Field-{i}: {encoded_words(3, i)}\n" for i in range(10_000))
    raw = f"From: jobs@acme.com\nSubject: Hi\n{fields}\nbody\n".encode()
    started = time.process_time()
    parsed = parse_message(raw)
    assert time.process_time() - started < 2.0
    assert (parsed.subject, parsed.body.strip()) == ("Hi", "body")


def test_a_header_within_the_bound_is_whole_and_one_beyond_is_cut_at_a_space() -> None:
    within = "Offer " + "x" * (MAX_HEADER_CHARS - 200)
    beyond = "Offer " + "word " * MAX_HEADER_CHARS
    for subject in (within, beyond):
        raw = f"From: a@b.c\nSubject: {subject}\n\nbody\n".encode()
        seen = str(email.message_from_bytes(raw, policy=DEFAULT)["Subject"])
        if subject is within:
            assert seen == within
        else:
            assert len(seen) <= MAX_HEADER_CHARS and seen.endswith("word")


# --- symbolic links --------------------------------------------------------------------

@pytest.fixture
async def conn(tmp_path: Path) -> AsyncIterator[aiosqlite.Connection]:
    async with store.connect(tmp_path / "db.sqlite") as connection:
        yield connection


@pytest.mark.parametrize("where", ["new", "cur"])
@pytest.mark.parametrize("target", ["file", "dangling", "folder", "fifo"])
async def test_a_symlink_in_the_maildir_is_skipped_counted_and_never_read(
        tmp_path: Path, conn: aiosqlite.Connection, where: str, target: str) -> None:
    maildir = build_maildir(tmp_path / "Mail", [plain("Real reply", "a real one")])
    outside = tmp_path / "outside"
    if target == "file":
        outside.write_bytes(plain("Planted", "SECRET FILE CONTENTS", message_id="<x@y>"))
    elif target == "folder":
        outside.mkdir()
    elif target == "fifo":
        os.mkfifo(outside)          # reading it would block the sync for ever
    link = maildir / where / ("1700000000.evil.host" + (":2,S" if where == "cur" else ""))
    link.symlink_to(outside)
    report = await sync_maildir(conn, maildir, NOW)
    assert (report.files, report.read, report.added) == (1, 1, 1)
    assert report.skipped == (f"{link}: a symbolic link, not read",)
    stored = await conn.execute_fetchall("SELECT subject, body FROM messages")
    assert [row[0] for row in stored] == ["Real reply"]
    assert not any("SECRET" in str(row[1]) for row in stored)


@pytest.mark.parametrize("where", ["new", "cur"])
async def test_a_maildir_folder_that_is_a_symlink_is_skipped_and_never_read(
        tmp_path: Path, conn: aiosqlite.Connection, where: str) -> None:
    """`new/` or `cur/` made a link to a folder elsewhere: nothing in it is read, the
    other folder is, and the sync says which folder it left alone."""
    other = "cur" if where == "new" else "new"
    maildir = build_maildir(tmp_path / "Mail", [plain("Real reply", "a real one")],
                            [plain("Seen reply", "a seen one")])
    outside = build_maildir(tmp_path / "elsewhere",
                            [plain("Planted", "SECRET", message_id="<p@y>")],
                            [plain("Planted too", "SECRET", message_id="<q@y>")])
    for message in (maildir / where).iterdir():
        message.unlink()
    (maildir / where).rmdir()
    (maildir / where).symlink_to(outside / where, target_is_directory=True)
    report = await sync_maildir(conn, maildir, NOW)
    assert report.skipped == (f"{maildir / where}: a symbolic link, not read",)
    stored = [row[0] for row in await conn.execute_fetchall("SELECT subject FROM messages")]
    assert stored == ["Real reply" if other == "new" else "Seen reply"]


async def test_a_file_swapped_for_a_symlink_after_listing_is_not_followed(
        tmp_path: Path) -> None:
    from jobtracker.mail.maildir import _read_and_parse

    outside = tmp_path / "outside"
    outside.write_bytes(plain("Planted", "SECRET"))
    link = tmp_path / "msg"
    link.symlink_to(outside)
    with pytest.raises(OSError):
        _read_and_parse(link)
