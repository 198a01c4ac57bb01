"""Reading the Maildir: parsing real MIME, message keys, and the read-only sync."""

from __future__ import annotations

import email
import email.policy
import os
from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import pytest
from mail_samples import (
    NOW,
    alternative,
    base64_body,
    build_maildir,
    fingerprint,
    html_only,
    malformed_from,
    messages,
    plain,
    unknown_charset,
    with_attachment,
)

from jobtracker import store
from jobtracker.mail.maildir import (
    MAX_BODY_CHARS,
    MailError,
    list_maildir,
    parse_message,
    sync_maildir,
)

TEN_MB = 10 * 1024 * 1024


@pytest.fixture
async def conn(tmp_path: Path) -> AsyncIterator[aiosqlite.Connection]:
    async with store.connect(tmp_path / "db.sqlite") as connection:
        yield connection


def test_multipart_alternative_prefers_the_plain_part() -> None:
    parsed = parse_message(alternative(
        "Thanks for applying", "We received your application.",
        "<p>HTML version: <b>we received</b> it</p>"))
    assert parsed.body.strip() == "We received your application."
    assert parsed.subject == "Thanks for applying"
    assert parsed.sender == "Acme Careers <jobs@acme.com>"
    assert parsed.sender_domain == "acme.com"
    assert parsed.message_id == "alt@acme.com"
    assert parsed.date == "2026-09-07T07:00:00Z"     # +0200 converted to UTC


def test_html_only_is_converted_to_text_without_scripts() -> None:
    parsed = parse_message(html_only(
        "Your application",
        "<html><head><style>p{color:red}</style><script>alert('x')</script></head>"
        "<body><p>Unfortunately, we have decided&nbsp;not to move forward.</p>"
        "<p>Best,<br>Bolt</p></body></html>"))
    assert "Unfortunately, we have decided not to move forward." in parsed.body
    assert "alert" not in parsed.body and "color" not in parsed.body and "<p>" not in parsed.body


def test_base64_and_quoted_printable_bodies_are_decoded() -> None:
    b64 = parse_message(base64_body("We would like to invite you to an interview. Grüße"))
    assert b64.body.strip() == "We would like to invite you to an interview. Grüße"
    qp_raw = plain("Hallo", "Viele Grüße aus Berlin — " * 4, cte="quoted-printable")
    assert b"=C3=BC" in qp_raw                        # it really is quoted-printable
    assert parse_message(qp_raw).body.strip() == ("Viele Grüße aus Berlin — " * 4).strip()


def test_unknown_charset_decodes_with_replacement() -> None:
    parsed = parse_message(unknown_charset(b"We would like to \xe9\xff invite you"))
    assert parsed.body.startswith("We would like to ")
    assert "invite you" in parsed.body
    assert "\ufffd" in parsed.body


def test_malformed_from_falls_back_instead_of_raising() -> None:
    raw = malformed_from("Please pick a time for your interview.")
    with pytest.raises(IndexError):                   # what policy.default does with it
        str(email.message_from_bytes(raw, policy=email.policy.default)["From"])
    parsed = parse_message(raw)
    assert parsed.sender_address == "jobs@dove.com"
    assert parsed.sender_domain == "dove.com"
    assert parsed.subject == "Interview invitation"
    assert parsed.message_id == "mf@dove.com"
    assert parsed.body.strip() == "Please pick a time for your interview."


def test_missing_message_id_gets_a_stable_hash_key_per_content() -> None:
    first = plain("Hello", "First body", message_id=None)
    second = plain("Hello", "Second body", message_id=None)
    assert parse_message(first).message_id == ""
    key1, key2 = parse_message(first).key, parse_message(second).key
    assert key1.startswith("hash:") and key2.startswith("hash:")
    assert key1 != key2
    assert parse_message(first).key == key1           # stable across parses


def test_control_characters_are_stripped_from_everything_taken_from_an_email() -> None:
    raw = plain("Offer \x1b[31mnow\x1b[0m\x07", "Body with \x1b]8;;http://x\x07link and \x00null",
                sender="Evil\u202e Corp <a@evil.test>")
    parsed = parse_message(raw)
    for text in (parsed.subject, parsed.body, parsed.sender):
        assert not any(ch in text for ch in "\x1b\x07\x00\u202e")
    assert parsed.subject == "Offer now"


def test_large_attachment_is_never_read_into_the_body() -> None:
    raw = with_attachment("Your offer", "Please find the offer attached.", TEN_MB)
    assert len(raw) > TEN_MB
    parsed = parse_message(raw)
    assert parsed.body.strip() == "Please find the offer attached."
    assert "ATTACHMENT" not in parsed.body and "QVRUQUNI" not in parsed.body   # nor its base64


def test_stored_body_is_bounded() -> None:
    parsed = parse_message(plain("Long", "word " * 50_000))
    assert len(parsed.body) == MAX_BODY_CHARS


async def test_sync_reads_new_and_cur_and_leaves_the_maildir_byte_identical(
        tmp_path: Path, conn: aiosqlite.Connection) -> None:
    maildir = build_maildir(tmp_path / "Mail", new=[
        alternative("Thanks for applying", "We received your application.", "<p>x</p>"),
        html_only("Update", "<p>Unfortunately, we have decided not to move forward.</p>"),
        with_attachment("Offer", "Offer attached.", TEN_MB),
        malformed_from("Please pick a time."),
        unknown_charset(b"caf\xe9"),
    ], cur=[base64_body("We would like to invite you to interview.")])
    before = fingerprint(maildir)
    report = await sync_maildir(conn, maildir, NOW)
    assert fingerprint(maildir) == before
    assert (report.files, report.read, report.added, report.errors) == (6, 6, 6, ())
    stored = await messages(conn)
    assert set(stored) == {"alt@acme.com", "html@bolt.io", "big@acme.com", "mf@dove.com",
                           "cs@crane.dev", "b64@crane.dev"}
    assert len(stored["big@acme.com"]["body"]) < 100
    assert all(row["state"] is None for row in stored.values())


async def test_second_sync_reads_nothing_and_changes_nothing(
        tmp_path: Path, conn: aiosqlite.Connection) -> None:
    maildir = build_maildir(tmp_path / "Mail", new=[plain("A", "a body")])
    await sync_maildir(conn, maildir, NOW)
    before = await messages(conn)
    again = await sync_maildir(conn, maildir, "2026-09-13T00:00:00Z")
    assert (again.files, again.read, again.added) == (1, 0, 0)
    assert await messages(conn) == before


async def test_a_message_moved_from_new_to_cur_by_the_mail_reader_is_not_new(
        tmp_path: Path, conn: aiosqlite.Connection) -> None:
    maildir = build_maildir(tmp_path / "Mail", new=[plain("A", "a body")])
    await sync_maildir(conn, maildir, NOW)
    (name,) = os.listdir(maildir / "new")
    os.rename(maildir / "new" / name, maildir / "cur" / f"{name}:2,S")   # what a reader does
    again = await sync_maildir(conn, maildir, NOW)
    assert (again.read, again.added) == (0, 0)


async def test_two_messages_without_message_id_stay_distinct(
        tmp_path: Path, conn: aiosqlite.Connection) -> None:
    maildir = build_maildir(tmp_path / "Mail", new=[
        plain("Hello", "First body", message_id=None),
        plain("Hello", "Second body", message_id=None, minute=5)])
    report = await sync_maildir(conn, maildir, NOW)
    keys = set(await messages(conn))
    assert report.added == 2 and len(keys) == 2
    assert all(key.startswith("hash:") and len(key) > len("hash:") for key in keys)


async def test_same_message_id_with_different_content_stays_distinct(
        tmp_path: Path, conn: aiosqlite.Connection) -> None:
    original = plain("Your application", "We received it.", message_id="<dup@acme.com>")
    other = plain("Your application", "We are not moving forward.",
                  message_id="<dup@acme.com>", minute=9)
    maildir = build_maildir(tmp_path / "Mail", new=[original, original, other])
    report = await sync_maildir(conn, maildir, NOW)
    stored = await messages(conn)
    assert report.added == 2                          # the exact copy is the same message
    assert "dup@acme.com" in stored
    (variant,) = set(stored) - {"dup@acme.com"}
    assert variant.startswith("dup@acme.com#")
    assert "not moving forward" in stored[variant]["body"]
    assert "received" in stored["dup@acme.com"]["body"]
    # A later sync that meets the variant again keeps its key.
    box = tmp_path / "Mail2"
    build_maildir(box, new=[other])
    await sync_maildir(conn, box, NOW)
    assert set(await messages(conn)) == set(stored)


async def test_missing_date_falls_back_to_the_file_time(
        tmp_path: Path, conn: aiosqlite.Connection) -> None:
    raw = b"From: a@acme.com\nSubject: no date\nMessage-ID: <nd@acme.com>\n\nbody\n"
    maildir = build_maildir(tmp_path / "Mail", new=[raw])
    (name,) = os.listdir(maildir / "new")
    os.utime(maildir / "new" / name, (1_700_000_000, 1_700_000_000))
    await sync_maildir(conn, maildir, NOW)
    assert (await messages(conn))["nd@acme.com"]["sent_at"] == "2023-11-14T22:13:20Z"


async def test_not_a_maildir_is_a_clear_error(tmp_path: Path,
                                              conn: aiosqlite.Connection) -> None:
    with pytest.raises(MailError, match="not a Maildir"):
        await sync_maildir(conn, tmp_path / "nowhere", NOW)


def test_parsing_never_raises_on_truncated_or_garbage_mail() -> None:
    samples = [alternative("a", "b", "<p>c</p>"), malformed_from("x"), unknown_charset(b"\xff"),
               base64_body("hello"), b"", b"\x00\xff\xfe garbage", b"Subject: =?x-bad?q?a?=\n\n"]
    for raw in samples:
        for cut in range(0, len(raw) + 1, 7):
            parsed = parse_message(raw[:cut])
            assert parsed.key                          # never an empty key
            assert parsed.date is None or parsed.date.endswith("Z")


def test_mail_is_listed_in_delivery_order_not_in_the_names_text_order(tmp_path: Path) -> None:
    """A unique name's microseconds and counter are not zero-padded (Python's mailbox:
    `SECONDS.M<usec>P<pid>Q<n>.host`), so text order put `M99999` after `M100000`: a
    fetch stopped by its byte budget then read a later mail before an earlier one (a
    test of that failed about one run in ten)."""
    delivered = ["1764650000.M99999P7Q1.host", "1764650000.M100000P7Q2.host",
                 "1764650000.M100000P7Q10.host", "1764650001.M5P7Q11.host:2,S"]
    for sub in ("new", "cur", "tmp"):
        (tmp_path / sub).mkdir()
    for index, name in enumerate(reversed(delivered)):
        (tmp_path / ("cur" if ":2," in name else "new") / name).write_bytes(b"x" * index)
    assert [f.name for f in list_maildir(tmp_path)] == [n.split(":")[0] for n in delivered]
