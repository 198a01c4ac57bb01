"""The mail intake step over IMAP: an account it cannot read is kept as this run's
failure in the run's own context, which makes inbox unavailable with the reason for that
run alone — the next run's context starts clean, and the task object keeps nothing."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import pytest

from jobtracker.config import Config, Profile
from jobtracker.intake.mail import STEP as MAIL
from jobtracker.tasks import Context
from jobtracker.tasks.inbox import TASK as INBOX
from tests.imap.conftest import NOW, account
from tests.servers.imap_faults import FaultImap


async def test_an_unreadable_account_fails_this_run_only(
        conn: aiosqlite.Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JT_IMAP_PW", "pw")
    with FaultImap({}) as server:
        port = server.port           # closed when the block ends: nothing listens there
    config = Config(imap=account(port, "ada"))
    first = Context(home=tmp_path, config=config, profile=Profile(), now=NOW)
    state_before = dict(vars(INBOX))

    await MAIL.bring_in(conn, first)

    reason = first.run.intake_failures[MAIL.name]
    assert reason.startswith("imap: connecting: ConnectionRefusedError")
    assert INBOX.unavailable_reason(first) == reason
    assert dict(vars(INBOX)) == state_before, "the task object keeps no run's state"
    second = Context(home=tmp_path, config=config, profile=Profile(), now=NOW)
    assert second.run is not first.run
    assert INBOX.unavailable_reason(second) is None


async def test_a_readable_account_clears_the_runs_earlier_failure(
        conn: aiosqlite.Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JT_IMAP_PW", "pw")
    with FaultImap({}) as server:
        ctx = Context(home=tmp_path, config=Config(imap=account(server.port, "ada")),
                      profile=Profile(), now=NOW)
        ctx.run.intake_failures[MAIL.name] = "imap: an earlier attempt"
        await MAIL.bring_in(conn, ctx)
    assert MAIL.name not in ctx.run.intake_failures
    assert INBOX.unavailable_reason(ctx) is None
