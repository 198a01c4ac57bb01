"""The run's intake, end to end through `jobtracker work`: new mail is brought in before
the queue is surveyed (so the run's queue counts it from the database), and an IMAP
account that cannot be read is reported in the queue as inbox's reason, the run going
on without it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from jobtracker import runner
from jobtracker.workspace import Workspace
from tests.run_world import dump, make_workspace, work
from tests.servers.imap_faults import FaultImap
from tests.unit.mail_samples import build_maildir, fingerprint, plain

# No model answers on this port: the run brings mail in, surveys, and stops there.
NO_MODEL = "http://127.0.0.1:9"
INBOX_ONLY = ("tasks: {level: false, judge: false, inbox: true, tailor: false, "
              "answer: false, coverletter: false}\n")


def configure(ws: Workspace, mail: str) -> None:
    (ws.home / "config.yaml").write_text(f"llm:\n  url: {NO_MODEL}\n  model: m\n{mail}")
    (ws.home / "plugins.yaml").write_text(INBOX_ONLY)


def messages(ws: Workspace) -> int:
    return sum(1 for line in dump(ws) if line.startswith('INSERT INTO "messages"'))


def test_mail_is_brought_in_before_the_survey(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    ws = make_workspace(tmp_path, None)
    maildir = build_maildir(tmp_path / "Mail", [plain("Your application", "Thanks!"),
                                                plain("Interview", "Can we talk Tuesday?")])
    configure(ws, f"maildir: {maildir}\n")
    before = fingerprint(maildir)
    assert messages(ws) == 0
    result = asyncio.run(runner.work(runner.load_setup(ws), runner.RunOptions()))
    # A run's survey counts only what is in the database (mail still outside is the
    # queue between runs' count): inbox's two pending mean the mail came in first.
    (inbox,) = result.states
    assert (inbox.name, inbox.pending) == ("inbox", 2)
    assert inbox.reason == "model server at http://127.0.0.1:9/v1 unreachable: ConnectError"
    assert messages(ws) == 2 and result.brought_in > 0
    assert fingerprint(maildir) == before

    capsys.readouterr()
    assert work(ws) == 0         # the second run finds nothing new: nothing changes
    assert capsys.readouterr().out.rstrip().endswith("Nothing was changed.")


def test_an_unreadable_imap_account_is_inbox_s_reason_in_the_queue(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JT_IMAP_PW", "pw")
    ws = make_workspace(tmp_path, None)
    with FaultImap({}) as server:
        port = server.port           # closed when the block ends: nothing listens there
    configure(ws, f"imap:\n  host: 127.0.0.1\n  port: {port}\n  user: ada\n"
                  "  password_env: JT_IMAP_PW\n  tls: false\n")
    capsys.readouterr()
    assert work(ws) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].startswith(
        "   40  inbox      unavailable — imap: connecting: ConnectionRefusedError"), lines
    assert lines[3] == "                  read replies from employers and propose updates"
    assert lines[-1].startswith("No model: model server at http://127.0.0.1:9/v1")
    assert lines[-1].endswith("Nothing was changed.")
