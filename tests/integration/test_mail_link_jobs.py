"""The application a mail belongs to (jobtracker/mail/link.py), seen from the commands:
an employer's mail that names a posting's title, in its subject or body, exactly or
nearly, is about that posting; accepting its proposal makes the application for that
posting, and then `matches` shows its status while `prepare` and the digest leave the
job alone."""

from __future__ import annotations

import asyncio
import json

import pytest

from jobtracker import cli, store
from jobtracker.mail.maildir import sync_maildir
from jobtracker.ranking import scoring
from jobtracker.run.setup import config_of
from jobtracker.tasks.base import Context
from jobtracker.tasks.inbox import InboxTask
from jobtracker.workspace import Workspace
from tests import prepare_world
from tests.db import raw_connect
from tests.prepare_world import NOW, posting_id
from tests.unit.mail_samples import build_maildir, plain

home, server = prepare_world.home, prepare_world.server
TASK = InboxTask()


def _json(ws: Workspace, capsys: pytest.CaptureFixture[str], *args: str) -> object:
    capsys.readouterr()
    assert cli.main(["--home", str(ws.home), *args]) == 0
    return json.loads(capsys.readouterr().out)


def receive(ws: Workspace, subject: str, body: str) -> int:
    """The mail synced from a Maildir (linked as a sync links it), read by the inbox as
    an invitation; the id of the status proposal it made."""
    maildir = build_maildir(ws.home.parent / "Mail", [plain(
        subject, body, sender="Rita at Acme <talent@acme.com>", message_id="<i1@acme.com>")])

    async def run() -> int:
        async with store.connect(ws.db) as conn:
            await scoring.rescore(conn, ws.profile(), NOW)
            await sync_maildir(conn, maildir, NOW)
            ctx = Context(home=ws.home, config=config_of(ws), profile=ws.profile(), now=NOW)
            (unit,) = await TASK.pending(conn, ctx)
            answer = {"evidence": body[:200], "state": "interview_request",
                      "summary": "an invitation",
                      "interview": {"quote": "", "start": "", "end": "", "minutes": 0,
                                    "zone": "", "where": "", "cancelled": False}}
            async with store.write(conn):
                await TASK.apply(conn, unit, TASK.parse(unit, answer, ctx), ctx, "test-model")
            rows = await conn.execute_fetchall(
                "SELECT id FROM proposals WHERE kind = 'status' AND unit_key = ?",
                (unit.unit_key,))
        return int(rows[0][0])

    return asyncio.run(run())


def _digest(ws: Workspace, capsys: pytest.CaptureFixture[str]) -> list[int]:
    (ws.home / "config.yaml").write_text(
        (ws.home / "config.yaml").read_text() + "notify: {min_verdict: partial}\n")
    return [m["id"] for m in _json(ws, capsys, "digest", "--json")["matches"]]


@pytest.mark.parametrize(("subject", "body", "title"), [
    ("Interview: Senior Platform Engineer", "We would like to invite you to an interview.",
     "Senior Platform Engineer"),
    ("Next steps", "Thank you for applying for the senior data engineer - role at Acme. "
                   "We would like to invite you to an interview.", "Senior Data Engineer"),
])
def test_a_mail_naming_a_postings_title_is_about_that_posting(
        home: Workspace, capsys: pytest.CaptureFixture[str], subject: str, body: str,
        title: str) -> None:
    job = posting_id(home, title)
    proposal = receive(home, subject, body)
    with raw_connect(home.db) as conn:
        linked = conn.execute("SELECT posting_id, link_reason FROM messages").fetchone()
    assert linked[0] == job, linked
    code = cli.main(["--home", str(home.home), "proposals", "accept", str(proposal)])
    assert code == 0
    (application,) = _json(home, capsys, "applications", "--json")
    assert application["posting"] == job and application["title"] == title, application
    listed = {m["id"]: m["status"] for m in _json(home, capsys, "matches", "--json")}
    assert listed[job] == "interviewing"
    packed = [p["posting"] for p in _json(home, capsys, "prepare", "--json", "--top", "10")]
    assert job not in packed and job not in _digest(home, capsys)
