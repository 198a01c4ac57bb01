"""The digest names who the user knows at each new match: the mail the loopback SMTP
server received, in its plain and HTML parts (a contact's name is text, never markup)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobtracker.cli import main
from tests.notify_seed import add_matches, email_settings, workspace
from tests.servers.smtp import SmtpServer


def test_the_digest_says_who_you_know_at_a_match(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with SmtpServer() as smtp:
        ws = workspace(tmp_path, f"notify:\n  to: [email]\n{email_settings(smtp.port)}")
        add_matches(ws, 1, company="Acme")
        add_matches(ws, 1, start=2, company="Bolt")
        sheet = tmp_path / "people.csv"
        sheet.write_text('Name,Company,Position\n"Dana <b>Lee</b>","Acme, Inc.",Staff Engineer\n')
        assert main(["--home", str(ws.home), "contacts", "import", str(sheet)]) == 0
        capsys.readouterr()
        assert main(["--home", str(ws.home), "digest", "--send"]) == 0
        (received,) = smtp.wait_for(1)
    forms = {part.get_content_type(): part.get_content()
             for part in received.message.iter_parts()}
    plain, html = forms["text/plain"], forms["text/html"]
    assert "you know 1 person at Acme (Dana <b>Lee</b>, Staff Engineer)" in plain
    assert "Dana &lt;b&gt;Lee&lt;/b&gt;" in html and "<b>Lee" not in html
    assert plain.count("you know") == 1          # nobody at Bolt
