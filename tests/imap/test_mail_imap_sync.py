"""Syncing IMAP against the loopback fault server: a drop mid-literal keeps what was
stored, huge messages are capped or refused, garbage is an IMAP error, an unreachable
server is a reason."""

from __future__ import annotations

import time
from pathlib import Path

import aiosqlite
import pytest

from jobtracker.config import Config, Profile
from jobtracker.intake.mail import STEP as MAIL
from jobtracker.mail.imap import FETCH_BYTES, ImapError, sync_imap
from jobtracker.mail.imap import sync as imap_sync
from jobtracker.tasks import Context
from jobtracker.tasks.inbox import InboxTask
from tests.imap.conftest import NOW, account, message
from tests.servers.imap_faults import HUGE, FaultImap


@pytest.fixture
def pw(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("JT_IMAP_PW", "pw")
    return "pw"


async def rows(conn: aiosqlite.Connection) -> list[str]:
    return [r[0] for r in await conn.execute_fetchall("SELECT key FROM messages ORDER BY key")]


async def test_a_drop_mid_literal_keeps_what_was_stored_and_the_next_sync_goes_on(
        pw: str, conn: aiosqlite.Connection, monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    monkeypatch.setattr(imap_sync, "BATCH", 2)
    messages = {uid: message(uid) for uid in range(1, 6)}
    with FaultImap(messages, fault="drop", drop_at_uid=4) as server:
        ctx = Context(home=tmp_path, config=Config(imap=account(server.port, "ada")),
                      profile=Profile(), now=NOW)
        task = InboxTask()
        await MAIL.bring_in(conn, ctx)      # the run goes on: no exception
        reason = task.unavailable_reason(ctx)
        port = server.port
    assert reason is not None and reason.startswith("imap: fetching mail: ")
    assert await rows(conn) == ["m1@acme.example", "m2@acme.example"]
    last = await conn.execute_fetchall("SELECT last_uid FROM imap_folders")
    assert [tuple(r) for r in last] == [(2,)]
    with FaultImap(messages, port=port) as server:     # the same account, back up
        report = await sync_imap(conn, account(port, "ada"), NOW)
        fetches = [c for c in server.commands if " UID FETCH " in c.upper()]
    assert (report.fetched, report.added) == (3, 3)
    assert fetches and all(c.split()[3].split(",")[0] in ("3", "5") for c in fetches)
    assert len(await rows(conn)) == 5


async def test_a_30_mb_message_is_fetched_only_up_to_the_cap_and_stored_partial(
        pw: str, conn: aiosqlite.Connection) -> None:
    big = message(1) + b"A" * (30 * 1024 * 1024)
    with FaultImap({1: big, 2: message(2)}) as server:
        report = await sync_imap(conn, account(server.port, "ada"), NOW)
        sent = server.sent
    assert report.added == 2
    assert sent <= FETCH_BYTES + len(message(2))
    partial = await conn.execute_fetchall("SELECT key, partial FROM messages ORDER BY key")
    assert [tuple(r) for r in partial] == [("m1@acme.example", 1), ("m2@acme.example", 0)]


async def test_a_server_announcing_a_30_mb_literal_is_refused_before_reading_it(
        pw: str, conn: aiosqlite.Connection) -> None:
    with FaultImap({1: message(1)}, fault="huge") as server:
        started = time.monotonic()
        with pytest.raises(ImapError, match=f"at most {FETCH_BYTES:,} are read"):
            await sync_imap(conn, account(server.port, "ada"), NOW)
        assert time.monotonic() - started < 10
        assert server.sent < HUGE
    assert await rows(conn) == []


@pytest.mark.parametrize("fault", ["garbage", "garbage_greeting"])
async def test_garbage_responses_are_an_imap_error_not_a_crash(
        pw: str, conn: aiosqlite.Connection, fault: str) -> None:
    with FaultImap({1: message(1)}, fault=fault) as server, pytest.raises(ImapError) as caught:
        await sync_imap(conn, account(server.port, "ada"), NOW)
    assert "\x1b" not in str(caught.value) and "\n" not in str(caught.value)
    assert await rows(conn) == []


async def test_unreachable_server_is_a_reason(pw: str, conn: aiosqlite.Connection) -> None:
    with FaultImap({}) as server:
        port = server.port
    with pytest.raises(ImapError, match="connecting: ConnectionRefusedError"):
        await sync_imap(conn, account(port, "ada"), NOW)
