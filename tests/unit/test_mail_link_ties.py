"""Linking mail when several known companies fit: the mail's own evidence decides.

Two companies whose names normalise the same, a parent and a subsidiary, a
recruiting agency's domain, short ATS ids and Lever slugs in links; and when
nothing decides, the link (and the proposal made from it) says the company is
uncertain instead of guessing one.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import jsonschema
import pytest
from mail_samples import NOW, add_application, add_posting, application_status, build_maildir, plain

from jobtracker import proposals, store
from jobtracker.config import Config, Profile
from jobtracker.mail.link import uncertain_companies
from jobtracker.mail.maildir import sync_maildir
from jobtracker.tasks import Context
from jobtracker.tasks.inbox import InboxTask, scheduling

TASK = InboxTask()


@pytest.fixture
async def conn(tmp_path: Path) -> AsyncIterator[aiosqlite.Connection]:
    async with store.connect(tmp_path / "db.sqlite") as connection:
        yield connection


async def link_of(conn: aiosqlite.Connection, tmp_path: Path, raw: bytes,
                  key: str) -> tuple[str | None, int | None, str]:
    maildir = build_maildir(tmp_path / "Mail", new=[raw])
    await sync_maildir(conn, maildir, NOW)
    row = await (await conn.execute(
        "SELECT company, posting_id, link_reason FROM messages WHERE key = ?",
        (key,))).fetchone()
    return row[0], row[1], row[2]


async def namesakes(conn: aiosqlite.Connection) -> dict[str, int]:
    """Acme (the user applied to its Senior Backend Engineer) and Acme GmbH, another
    known company whose name normalises the same."""
    acme = await add_posting(conn, "Acme", "Senior Backend Engineer", "4012345")
    gmbh = await add_posting(conn, "Acme GmbH", "Werkstudent Marketing", "77",
                             token="acmegmbh")
    application = await add_application(conn, acme, "applied")
    return {"acme": acme, "gmbh": gmbh, "application": application}


INVITE = ("Hi,\n\nWe would like to invite you to a first interview. "
          "Please pick a time that suits you.\n\nDana")


async def test_an_application_title_in_the_subject_beats_a_namesake_chosen_by_domain(
        tmp_path: Path, conn: aiosqlite.Connection) -> None:
    world = await namesakes(conn)
    raw = plain("Interview: Senior Backend Engineer", INVITE,
                sender="Dana <dana@acme.example>", message_id="<t@acme.example>")
    company, posting, reason = await link_of(conn, tmp_path, raw, "t@acme.example")
    assert (company, posting, reason) == ("Acme", world["acme"], "application title")


async def test_the_invitation_proposes_moving_the_real_application_and_accept_moves_it(
        tmp_path: Path, conn: aiosqlite.Connection) -> None:
    world = await namesakes(conn)
    maildir = build_maildir(tmp_path / "Mail", new=[plain(
        "Interview: Senior Backend Engineer", INVITE, sender="Dana <dana@acme.example>",
        message_id="<t@acme.example>")])
    await sync_maildir(conn, maildir, NOW)
    proposal = await interview_proposal(conn, tmp_path, maildir, "t@acme.example")
    assert proposal.summary.startswith("Acme: applied → interviewing")
    assert proposal.application_id == world["application"]
    (decision,) = await proposals.accept(conn, [proposal.id], NOW)
    assert decision.ok
    assert await application_status(conn, world["application"]) == "interviewing"
    count = await conn.execute_fetchall("SELECT COUNT(*) FROM applications")
    assert count[0][0] == 1


async def interview_proposal(conn: aiosqlite.Connection, tmp_path: Path, maildir: Path,
                             key: str) -> proposals.Proposal:
    ctx = Context(home=tmp_path, config=Config(maildir=maildir), profile=Profile(), now=NOW)
    (unit,) = await TASK.pending(conn, ctx, subject=key)
    answer = {"evidence": "We would like to invite you to a first interview",
              "state": "interview_request", "summary": "an interview",
              "interview": dict(scheduling.NO_TIME)}
    jsonschema.validate(answer, TASK.request(unit, ctx).schema)
    async with store.write(conn):
        await TASK.apply(conn, unit, TASK.parse(unit, answer, ctx), ctx, "m")
    (proposal,) = await proposals.list_proposals(conn)
    return proposal


async def test_namesakes_with_nothing_to_tell_them_apart_are_uncertain_never_guessed(
        tmp_path: Path, conn: aiosqlite.Connection) -> None:
    world = await namesakes(conn)
    maildir = build_maildir(tmp_path / "Mail", new=[plain(
        "Next steps", INVITE, sender="Dana <dana@acme.example>",
        message_id="<u@acme.example>")])
    await sync_maildir(conn, maildir, NOW)
    company, posting, reason = (await conn.execute_fetchall(
        "SELECT company, posting_id, link_reason FROM messages"))[0]
    assert (company, posting) == (None, None)
    assert sorted(uncertain_companies(reason)) == ["Acme", "Acme GmbH"]
    proposal = await interview_proposal(conn, tmp_path, maildir, "u@acme.example")
    assert "company uncertain" in proposal.summary
    assert "(Acme GmbH or Acme)" in proposal.summary
    (decision,) = await proposals.accept(conn, [proposal.id], NOW)
    assert not decision.ok
    assert "uncertain" in decision.message and "jobtracker status" in decision.message
    assert await application_status(conn, world["application"]) == "applied"
    count = await conn.execute_fetchall("SELECT COUNT(*) FROM applications")
    assert count[0][0] == 1


async def test_a_parent_domain_mailing_about_the_subsidiarys_application(
        tmp_path: Path, conn: aiosqlite.Connection) -> None:
    await add_posting(conn, "Acme", "Office Manager", "5000001")
    robotics = await add_posting(conn, "Acme Robotics", "Robotics Engineer", "5000002")
    await add_application(conn, robotics, "applied")
    raw = plain("Your Robotics Engineer interview", INVITE,
                sender="Talent <talent@acme.example>", message_id="<p@acme.example>")
    company, posting, _ = await link_of(conn, tmp_path, raw, "p@acme.example")
    assert (company, posting) == ("Acme Robotics", robotics)


async def test_a_recruiting_agency_domain_does_not_shadow_the_application_it_names(
        tmp_path: Path, conn: aiosqlite.Connection) -> None:
    await add_posting(conn, "Hays", "Recruitment Consultant", "6000001")
    acme = await add_posting(conn, "Acme", "Platform Engineer", "6000002")
    await add_application(conn, acme, "applied")
    raw = plain("Platform Engineer at Acme: interview", INVITE,
                sender="Anna <anna@hays.example>", message_id="<a@hays.example>")
    company, posting, _ = await link_of(conn, tmp_path, raw, "a@hays.example")
    assert (company, posting) == ("Acme", acme)


async def test_a_short_ats_id_in_a_job_link_names_the_posting(
        tmp_path: Path, conn: aiosqlite.Connection) -> None:
    world = await namesakes(conn)
    raw = plain("Next steps", INVITE + "\nhttps://boards.greenhouse.io/acmegmbh/jobs/77",
                sender="Dana <dana@acme.example>", message_id="<s@acme.example>")
    company, posting, reason = await link_of(conn, tmp_path, raw, "s@acme.example")
    assert (company, posting, reason) == ("Acme GmbH", world["gmbh"], "posting link")


async def test_a_short_job_id_on_the_companys_own_site_decides_between_namesakes(
        tmp_path: Path, conn: aiosqlite.Connection) -> None:
    world = await namesakes(conn)
    raw = plain("Next steps", INVITE + "\nDetails: https://acme.example/careers/job/77",
                sender="Dana <dana@acme.example>", message_id="<j@acme.example>")
    company, posting, reason = await link_of(conn, tmp_path, raw, "j@acme.example")
    assert company == "Acme GmbH"
    assert reason == "job id"
    assert posting is None or posting == world["gmbh"]


async def test_a_lever_slug_in_a_link_decides_between_namesakes(
        tmp_path: Path, conn: aiosqlite.Connection) -> None:
    await namesakes(conn)
    await conn.execute("INSERT INTO boards (source, token, company) "
                       "VALUES ('lever', 'acme-gmbh', 'Acme GmbH')")
    raw = plain("Next steps", INVITE + "\nAll roles: https://jobs.lever.co/acme-gmbh",
                sender="Dana <dana@acme.example>", message_id="<l@acme.example>")
    company, _, reason = await link_of(conn, tmp_path, raw, "l@acme.example")
    assert (company, reason) == ("Acme GmbH", "link")


async def test_one_company_by_domain_still_links_as_before(
        tmp_path: Path, conn: aiosqlite.Connection) -> None:
    bolt = await add_posting(conn, "Bolt", "Backend Engineer", "77")
    await add_application(conn, bolt, "applied")
    raw = plain("Update", "Hello", sender="Bolt <jobs@bolt.io>", message_id="<b@bolt.io>")
    assert await link_of(conn, tmp_path, raw, "b@bolt.io") == (
        "Bolt", bolt, "sender domain, application")
