"""Adding a job-alert sender is one module and one registry entry: a toy sender,
written to a folder on sys.path, imported and put in `jobtracker.alerts.REGISTRY`
(what an entry in its tuple does), is read everywhere a sender is with no other edit:
`jobtracker fetch --source alerts` finds its mail in the Maildir (`sender_of` asks the
same tuple), cuts its cards and stores their postings under its own board."""

from __future__ import annotations

import importlib
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from alerts_samples import mail

from jobtracker import alerts, cli
from jobtracker.workspace import Workspace
from tests.unit.mail_samples import build_maildir

TOY_MODULE = '''
import re

from jobtracker.alerts.base import JobLink, Sender, pattern, posting

_JOB = re.compile(r"https://toyalerts\\.example/job/(\\d+)")


class ToyAlerts(Sender):
    name = "toyalerts"
    label = "Toy Alerts"
    domains = ("toyalerts.example",)
    subjects = pattern(r"^toy alert:")

    def job_link(self, href):
        found = _JOB.match(href)
        if not found:
            return None
        return JobLink(found.group(1), f"toyalerts:{found.group(1)}", found.group(0))

    def read(self, card):
        lines = [line for line in card.lines if not line.startswith("https://")]
        if len(lines) < 2:
            return None
        return posting(self.name, card, title=lines[0], company=lines[1],
                       location=lines[2] if len(lines) > 2 else "")


SENDER = ToyAlerts()
'''

TEXT = ("Backend Engineer\nAcme\nBerlin\nhttps://toyalerts.example/job/123\n\n"
        "Data Engineer\nBolt\nRemote\nhttps://toyalerts.example/job/456\n")


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "toy_sender.py").write_text(TOY_MODULE)
    monkeypatch.syspath_prepend(str(folder))
    module = importlib.import_module("toy_sender")
    with alerts.REGISTRY.extended(module.SENDER):   # the one registry entry
        yield module
    sys.modules.pop("toy_sender", None)


def fetch(tmp_path: Path) -> tuple[Workspace, int]:
    ws = Workspace(tmp_path / "home")
    ws.init()
    box = build_maildir(tmp_path / "Mail", [mail("Toy Alerts <jobs@toyalerts.example>",
                                                 "Toy alert: 2 new jobs", TEXT, None)])
    (ws.home / "config.yaml").write_text(
        f"maildir: {box}\nllm: {{url: null}}\nalerts: {{probe_companies: 0}}\n")
    (ws.home / "sources.yaml").write_text("boards: []\n")
    return ws, cli.main(["--home", str(ws.home), "fetch", "--source", "alerts"])


def test_a_toy_sender_s_alert_becomes_postings_through_fetch(
        toy: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws, code = fetch(tmp_path)
    assert code == 0
    assert "alerts:toyalerts  2 new, 0 seen again, 0 closed (1 mail)" in capsys.readouterr().out
    with sqlite3.connect(ws.db) as conn:
        stored = sorted(conn.execute("SELECT external_id, title, company, url FROM postings"))
        boards = list(conn.execute("SELECT source, token, company FROM boards"))
    assert stored == [
        ("toyalerts:123", "Backend Engineer", "Acme", "https://toyalerts.example/job/123"),
        ("toyalerts:456", "Data Engineer", "Bolt", "https://toyalerts.example/job/456")]
    assert boards == [("alert", "toyalerts", "Toy Alerts")]


def test_without_its_entry_the_same_mail_is_no_alert(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws, code = fetch(tmp_path)
    assert code == 0 and "toyalerts" not in capsys.readouterr().out
    with sqlite3.connect(ws.db) as conn:
        assert list(conn.execute("SELECT COUNT(*) FROM postings")) == [(0,)]
