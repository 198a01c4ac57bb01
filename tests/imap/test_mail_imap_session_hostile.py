"""An IMAP server that drips, floods, lies about numbers or echoes the password: every
exchange ends by its deadline or its byte budget, a stopped run ends at once (its thread
never holds the process), numbers past 32 bits are refused, and the password is never
printed in any form it was sent in."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import aiosqlite
import pytest

from jobtracker.lease import Lease
from jobtracker.mail.imap import ImapError, check_login, session, sync_imap
from jobtracker.workspace import Workspace
from tests.conftest import run_cli
from tests.imap.conftest import NOW, account, message
from tests.servers.imap_faults import FaultImap

PHASES = ["greeting", "login", "examine", "search", "fetch"]


@pytest.fixture
def pw(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("JT_IMAP_PW", "pw")
    return "pw"


@pytest.fixture
def short(monkeypatch: pytest.MonkeyPatch) -> float:
    """Exchanges of 0.5 s (the default is 60 s), looked at every 0.05 s: the tests check
    that a dripped answer ends at the deadline, whatever its length (a byte every DRIP s,
    so the line is never quiet for a whole deadline)."""
    monkeypatch.setattr(session, "EXCHANGE_SECONDS", 0.5)
    monkeypatch.setattr(session, "POLL", 0.05)
    return 0.5


DRIP = 0.15


def imap_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "jobtracker-imap"]


async def rows(conn: aiosqlite.Connection) -> int:
    return (await (await conn.execute("SELECT COUNT(*) FROM messages")).fetchone())[0]


@pytest.mark.parametrize("phase", PHASES)
async def test_a_dripped_answer_ends_at_the_exchange_deadline(
        pw: str, short: float, conn: aiosqlite.Connection, phase: str) -> None:
    with FaultImap({1: message(1)}, fault="drip", drip_at=phase, drip_seconds=DRIP) as server:
        started = time.monotonic()
        with pytest.raises(ImapError, match=rf"within ({short:g}|{2 * short:g}) s"):
            await sync_imap(conn, account(server.port, "ada"), NOW)
        took = time.monotonic() - started
    assert took < 2 * short + 2.0, f"{phase}: {took:.1f} s"
    assert await rows(conn) == 0


@pytest.mark.parametrize("phase", ["greeting", "login", "examine"])
def test_check_ends_at_the_deadline_too(pw: str, short: float, phase: str) -> None:
    with FaultImap({1: message(1)}, fault="drip", drip_at=phase, drip_seconds=DRIP) as server:
        started = time.monotonic()
        with pytest.raises(ImapError, match=rf"within {short:g} s"):
            check_login(account(server.port, "ada"))
    assert time.monotonic() - started < short + 2.0


async def test_a_cancelled_sync_returns_at_once_and_its_thread_ends(
        pw: str, conn: aiosqlite.Connection, monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    monkeypatch.setattr(session, "POLL", 0.1)     # the 60 s exchange deadline stays
    with FaultImap({1: message(1)}, fault="drip", drip_at="greeting",
                   drip_seconds=1.0) as server:
        task = asyncio.create_task(sync_imap(conn, account(server.port, "ada"), NOW))
        while not server.dripping.is_set():
            await asyncio.sleep(0.02)
        started = time.monotonic()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert time.monotonic() - started < 0.5
        deadline = time.monotonic() + 3
        while imap_threads() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert imap_threads() == []


# `jobtracker work` with Ctrl-C working as on a terminal. A test run started in the
# background of a non-interactive shell has SIGINT ignored, its children inherit that and
# Python then leaves SIGINT ignored (the POSIX custom for `cmd &`, kept by jobtracker), so
# the SIGINT cases failed there; the handler a terminal's Python has is put back first.
AS_FROM_A_TERMINAL = ("import runpy, signal, sys; signal.signal(signal.SIGINT, "
                      "signal.default_int_handler); sys.argv[0] = 'jobtracker'; "
                      "runpy.run_module('jobtracker', run_name='__main__')")


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT])
@pytest.mark.parametrize("phase", ["greeting", "fetch"])
def test_a_signal_ends_a_run_hung_on_imap_and_frees_the_lock(
        ws: Workspace, how: signal.Signals, phase: str) -> None:
    messages = {1: message(1)}
    with FaultImap(messages, fault="drip", drip_at=phase, drip_seconds=1.0) as server:
        (ws.home / "config.yaml").write_text(
            f"imap: {{host: 127.0.0.1, port: {server.port}, user: ada, "
            "password_env: JT_IMAP_PW, tls: false}\n")
        env = {**os.environ, "JT_IMAP_PW": "pw", "JOBTRACKER_HOME": str(ws.home)}
        process = subprocess.Popen([sys.executable, "-c", AS_FROM_A_TERMINAL, "work"], env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert server.dripping.wait(30), "the run never reached the dripped answer"
            started = time.monotonic()
            process.send_signal(how)
            _, err = process.communicate(timeout=10)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
        assert time.monotonic() - started < 5
    assert process.returncode in (128 + how, 1, 0, -how), (process.returncode, err)
    assert "Traceback" not in err
    with Lease(ws.lock):      # the lock is free: the next nightly run can work
        pass


@pytest.mark.parametrize("fault", ["endless_literals", "endless_untagged"])
async def test_an_endless_answer_ends_at_the_exchange_byte_budget(
        pw: str, conn: aiosqlite.Connection, monkeypatch: pytest.MonkeyPatch,
        fault: str) -> None:
    monkeypatch.setattr(session, "EXCHANGE_BYTES", 2_000_000)
    with FaultImap({1: message(1)}, fault=fault) as server:
        started = time.monotonic()
        with pytest.raises(ImapError, match=r"more than .* bytes in one answer"):
            await sync_imap(conn, account(server.port, "ada"), NOW)
        assert time.monotonic() - started < 10
        time.sleep(0.2)
        sent = server.sent
    budget = (session.FETCH_BYTES + 2 * session.FETCH_SLACK if fault == "endless_literals"
              else 2_000_000)
    # What was sent past the budget is what sat in socket buffers when it stopped.
    assert sent < budget + 8_000_000
    assert await rows(conn) == 0


@pytest.mark.parametrize("words", [
    "18446744073709551616", "9223372036854775808", "4294967296", "99999999999999999999999",
    "²", "1 ²", "١٢", "１", "0", "-1", "1e3", "3:5", "1" * 5000])
async def test_a_uid_that_is_not_a_32_bit_number_is_an_imap_error(
        pw: str, conn: aiosqlite.Connection, words: str) -> None:
    with (FaultImap({1: message(1)}, fault="uid", uid_words=words) as server,
          pytest.raises(ImapError, match="not a list of UIDs")):
        await sync_imap(conn, account(server.port, "ada"), NOW)
    assert await rows(conn) == 0


@pytest.mark.parametrize("validity", [2**63, 2**64 + 5, 2**32])
async def test_a_uidvalidity_past_32_bits_is_an_imap_error(
        pw: str, conn: aiosqlite.Connection, validity: int) -> None:
    with (FaultImap({1: message(1)}, uidvalidity=validity) as server,
          pytest.raises(ImapError, match=r"UIDVALIDITY .* not a 32-bit number")):
        await sync_imap(conn, account(server.port, "ada"), NOW)


@pytest.mark.parametrize("password", ['pa"ss', "back\\slash", '"quoted"', 'a\\"b"c',
                                      'x"\\"y', "plain-but-long", "\\\\"])
def test_the_password_is_redacted_in_every_form_login_sends_it(
        monkeypatch: pytest.MonkeyPatch, password: str) -> None:
    monkeypatch.setenv("JT_IMAP_PW", password)
    escaped = password.replace("\\", "\\\\").replace('"', '\\"')
    with (FaultImap({1: message(1)}, fault="echo", password=password) as server,
          pytest.raises(ImapError) as caught):
        check_login(account(server.port, "ada"))
    text = str(caught.value)
    assert "unknown login" in text            # the echo came back, redacted
    for form in {password, escaped, f'"{escaped}"'}:
        if len(form) >= 4:
            assert form not in text, (form, text)


def test_a_cli_check_against_an_echoing_server_prints_no_form_of_the_password(
        ws: Workspace) -> None:
    password = 'se"cr\\et'
    with FaultImap({1: message(1)}, fault="echo", password=password) as server:
        (ws.home / "config.yaml").write_text(
            f"imap: {{host: 127.0.0.1, port: {server.port}, user: ada, "
            "password_env: JT_IMAP_PW, tls: false}\n")
        done = run_cli("--home", str(ws.home), "check", env={"JT_IMAP_PW": password})
    assert done.returncode == 2
    for form in (password, 'se\\"cr\\\\et', "cr\\et", 'se"cr'):
        assert form not in done.stdout + done.stderr


def test_lease_path_is_the_workspace_lock(ws: Workspace) -> None:
    assert Path(ws.lock).parent == ws.home
