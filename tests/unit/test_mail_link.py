"""Linking mail to postings and applications: company and domain normalization, ids
in ATS links, and the links the sync makes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import pytest
from mail_samples import (
    NOW,
    add_application,
    add_posting,
    build_maildir,
    html_only,
    messages,
    plain,
)

from jobtracker import store
from jobtracker.mail.link import candidate_ids, domain_names, normalize_company
from jobtracker.mail.maildir import sync_maildir


@pytest.fixture
async def conn(tmp_path: Path) -> AsyncIterator[aiosqlite.Connection]:
    async with store.connect(tmp_path / "db.sqlite") as connection:
        yield connection


def test_company_and_domain_normalization() -> None:
    assert normalize_company("Acme Robotics, Inc.") == "acmerobotics"
    assert domain_names("careers.acme-robotics.co.uk") == ["acmerobotics"]
    assert domain_names("us.greenhouse-mail.io") == []
    assert domain_names("gmail.com") == []


def test_candidate_ids_from_ats_links_and_job_id_phrases() -> None:
    text = ("See https://boards.greenhouse.io/acme/jobs/4012345?gh_jid=4012345 and "
            "https://jobs.lever.co/plaid/0f5a2b3c-1d2e-4f5a-8b9c-0d1e2f3a4b5c/apply. "
            "Job ID: R-2026-17. Call 12345 (too short).")
    ids = candidate_ids(text)
    assert "4012345" in ids
    assert "0f5a2b3c-1d2e-4f5a-8b9c-0d1e2f3a4b5c" in ids
    assert "R-2026-17" in ids
    assert "12345" not in ids


async def test_links_by_ats_job_id_in_a_posting_link(tmp_path: Path,
                                                     conn: aiosqlite.Connection) -> None:
    posting = await add_posting(conn, "Acme", "Staff Engineer", "4012345")
    await add_posting(conn, "Acme", "Designer", "4099999")
    maildir = build_maildir(tmp_path / "Mail", new=[plain(
        "Thanks!", "Your application for https://boards.greenhouse.io/acme/jobs/4012345 "
        "was received.", sender="no-reply@us.greenhouse-mail.io")])
    await sync_maildir(conn, maildir, NOW)
    row = (await messages(conn))["m1@acme.com"]
    assert (row["company"], row["posting_id"], row["link_reason"]) == (
        "Acme", posting, "posting link")


async def test_links_company_by_sender_domain_and_posting_by_its_one_application(
        tmp_path: Path, conn: aiosqlite.Connection) -> None:
    posting = await add_posting(conn, "Bolt", "Backend Engineer", "77")
    await add_application(conn, posting, "applied")
    maildir = build_maildir(tmp_path / "Mail", new=[html_only("Update", "<p>Hello</p>")])
    await sync_maildir(conn, maildir, NOW)
    row = (await messages(conn))["html@bolt.io"]
    assert (row["company"], row["posting_id"]) == ("Bolt", posting)
    assert row["link_reason"] == "sender domain, application"


async def test_company_named_in_the_subject_with_two_applications_picks_by_title(
        tmp_path: Path, conn: aiosqlite.Connection) -> None:
    first = await add_posting(conn, "Crane", "Platform Engineer", "1")
    second = await add_posting(conn, "Crane", "Data Engineer", "2")
    await add_application(conn, first, "applied")
    await add_application(conn, second, "applied")
    maildir = build_maildir(tmp_path / "Mail", new=[
        plain("Crane: your Data Engineer application", "Hi there",
              sender="Talent Team <talent@ats.example>", message_id="<t@x>"),
        plain("Crane: news", "Hi there", sender="Talent <talent@ats.example>",
              message_id="<u@x>")])
    await sync_maildir(conn, maildir, NOW)
    stored = await messages(conn)
    assert (stored["t@x"]["company"], stored["t@x"]["posting_id"]) == ("Crane", second)
    assert (stored["u@x"]["company"], stored["u@x"]["posting_id"]) == ("Crane", None)


async def test_unread_messages_are_linked_again_once_postings_arrive(
        tmp_path: Path, conn: aiosqlite.Connection) -> None:
    maildir = build_maildir(tmp_path / "Mail", new=[plain(
        "Application received", "Re https://boards.greenhouse.io/dove/jobs/5550001",
        sender="jobs@dove.com", message_id="<late@dove.com>")])
    await sync_maildir(conn, maildir, NOW)
    assert (await messages(conn))["late@dove.com"]["posting_id"] is None
    posting = await add_posting(conn, "Dove", "SRE", "5550001")
    report = await sync_maildir(conn, maildir, NOW)
    assert report.relinked == 1
    assert (await messages(conn))["late@dove.com"]["posting_id"] == posting


async def test_a_company_mentioned_among_others_in_a_body_is_not_guessed(
        tmp_path: Path, conn: aiosqlite.Connection) -> None:
    await add_posting(conn, "Acme", "Engineer", "1")
    await add_posting(conn, "Bolt", "Engineer", "2")
    maildir = build_maildir(tmp_path / "Mail", new=[plain(
        "This week in tech", "Acme raised money; Bolt hired a CEO.",
        sender="news@newsletter.example", message_id="<n@x>")])
    await sync_maildir(conn, maildir, NOW)
    row = (await messages(conn))["n@x"]
    assert (row["company"], row["posting_id"]) == (None, None)
