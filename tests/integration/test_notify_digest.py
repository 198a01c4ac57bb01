"""`jobtracker digest --send` against real loopback servers: aiosmtpd for email, an
HTTP server speaking ntfy's publish API, and one that never answers."""

from __future__ import annotations

import json
import time
from email.message import EmailMessage
from pathlib import Path

import pytest

from jobtracker.cli import main
from jobtracker.workspace import Workspace
from tests.db import raw_connect
from tests.notify_seed import add_matches, email_settings, ntfy_settings, workspace
from tests.servers.ntfy import NtfyServer
from tests.servers.smtp import SilentServer, SmtpServer
from tui.cli import main as tui_main

TOKEN = "tk_s3cret-ntfy-token-4711"


def notify(*channels: str, body: str, deadline: float | None = None) -> str:
    limit = f"  deadline: {deadline}\n" if deadline else ""
    return f"notify:\n  to: [{', '.join(channels)}]\n{limit}{body}"


def send(ws: Workspace, capsys: pytest.CaptureFixture[str], *more: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["--home", str(ws.home), "digest", "--send", *more])
    out = capsys.readouterr()
    return code, out.out, out.err


def parts(mail: EmailMessage) -> dict[str, str]:
    return {part.get_content_type(): part.get_content() for part in mail.iter_parts()}


def test_a_digest_reaches_email_ntfy_and_the_archive_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JT_NTFY", TOKEN)
    with SmtpServer() as smtp, NtfyServer(token=TOKEN) as ntfy:
        ws = workspace(tmp_path, notify("file", "email", "ntfy", body=email_settings(smtp.port)
                                        + ntfy_settings(ntfy.url("/ada-jobs"), "JT_NTFY")))
        add_matches(ws, 3, title="Senior <b>Engineer</b> {n} [x](http://evil.example)")
        code, out, err = send(ws, capsys)
        assert code == 0, err
        mail = smtp.wait_for(1)[0]
        pushed = ntfy.wait_for(1)[0]
        code, out_again, _ = send(ws, capsys)

    assert code == 0 and "nothing new; no digest sent" in out_again, "a job is told once"
    assert mail.rcpt_tos == ["ada@example.org"]
    message = mail.message
    assert message.get_content_type() == "multipart/alternative"
    forms = parts(message)
    assert list(forms) == ["text/plain", "text/html"]
    assert "Senior <b>Engineer</b> 1" in forms["text/plain"], "plain text is the text"
    assert "Senior &lt;b&gt;Engineer&lt;/b&gt; 1" in forms["text/html"]
    assert "<b>Engineer" not in forms["text/html"] and "<img" not in forms["text/html"]
    assert 'href="http://evil.example' not in forms["text/html"]
    assert message["Subject"] == "jobtracker: 3 new matches"
    assert pushed.topic == "ada-jobs" and pushed.title == "jobtracker: 3 new matches"
    assert pushed.markdown and "briefcase" in pushed.tags
    assert pushed.headers["authorization"] == f"Bearer {TOKEN}"
    assert "Senior <b>Engineer</b>" not in pushed.message   # Markdown-escaped
    assert "Senior \\<b\\>Engineer\\</b\\> 1" in pushed.message
    day = next((ws.home / "digests").glob("*.md"))
    assert day.with_suffix(".html").is_file()
    archived = day.read_text()
    assert "delivered to email" in archived and "delivered to ntfy" in archived
    assert TOKEN not in out + err + archived


def test_a_failed_channel_is_named_and_gets_the_same_jobs_next_time(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JT_NTFY", "tk_wrong-token-0000")
    with SmtpServer() as smtp, NtfyServer(token=TOKEN) as ntfy:
        ws = workspace(tmp_path, notify("email", "ntfy", body=email_settings(smtp.port)
                                        + ntfy_settings(ntfy.url("/jobs"), "JT_NTFY")))
        add_matches(ws, 2)
        code, out, err = send(ws, capsys)
        assert code == 1
        assert "ntfy: FAILED: HTTP 401" in out and "ntfy did not take it" in err
        assert "tk_wrong-token-0000" not in out + err
        add_matches(ws, 1, start=10)
        monkeypatch.setenv("JT_NTFY", TOKEN)
        code, out, err = send(ws, capsys, "--json")
        assert code == 0, err
        pushed = ntfy.wait_for(1)
        mails = smtp.wait_for(2)
    report = json.loads(out)
    assert set(report["delivered"]) == {"email", "ntfy"}
    assert "3 new matches" in pushed[0].title, "ntfy gets what it missed, and the new one"
    assert "1 new match" in mails[1].message["Subject"], "email is told only the new one"


def test_a_channel_that_never_answers_is_cut_off_at_the_deadline(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with SilentServer() as silent_smtp, SilentServer() as silent_http:
        ws = workspace(tmp_path, notify(
            "file", "email", "ntfy", deadline=0.5,
            body=email_settings(silent_smtp.port)
            + ntfy_settings(f"http://127.0.0.1:{silent_http.port}/jobs")))
        add_matches(ws, 1)
        started = time.monotonic()
        code, out, _ = send(ws, capsys)
        took = time.monotonic() - started
    assert code == 1
    assert took < 5, f"two hanging channels took {took:.1f} s"
    assert "email: FAILED: did not finish within 0.5 s" in out
    assert "ntfy: FAILED: did not finish within 0.5 s" in out
    assert "file: sent to digests/" in out


def test_a_job_is_announced_once_across_its_postings(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = workspace(tmp_path, notify("file", body=""))
    add_matches(ws, 1, start=5)
    assert send(ws, capsys)[0] == 0
    # The same job turns up earlier on another board: posting 3 leads the group now.
    add_matches(ws, 1, start=3)
    with raw_connect(ws.db) as conn:
        conn.execute("UPDATE postings SET lead_id = 3 WHERE id = 5")
    capsys.readouterr()
    assert main(["--home", str(ws.home), "digest", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["matches"] == []


def test_ten_thousand_matches_make_a_small_mail_with_a_count(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with SmtpServer() as smtp, NtfyServer() as ntfy:
        ws = workspace(tmp_path, notify("email", "ntfy", body=email_settings(smtp.port)
                                        + ntfy_settings(ntfy.url("/jobs"))))
        add_matches(ws, 10_000)
        code, _, err = send(ws, capsys)
        assert code == 0, err
        mail = smtp.wait_for(1)[0]
        pushed = ntfy.wait_for(1)[0]
    assert len(mail.raw) < 100_000, f"{len(mail.raw):,} bytes"
    assert "... and 9,975 more (jobtracker matches)" in parts(mail.message)["text/plain"]
    assert len(pushed.message.encode()) < 4096 and "9,995 more" in pushed.message


def test_starttls_with_a_login_from_a_command(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    with SmtpServer(tls="starttls", user="ada", password="pw-9f8e7d") as smtp:
        assert smtp.cert is not None
        monkeypatch.setenv("SSL_CERT_FILE", str(smtp.cert))
        body = (f"  email: {{to: [ada@example.org], host: 127.0.0.1, port: {smtp.port}, "
                "tls: starttls, user: ada, password_command: 'printf pw-9f8e7d'}\n")
        ws = workspace(tmp_path, notify("email", body=body))
        add_matches(ws, 1)
        code, out, err = send(ws, capsys)
        assert code == 0, err
        assert smtp.wait_for(1)[0].login == "ada"
        monkeypatch.delenv("SSL_CERT_FILE")
        add_matches(ws, 1, start=7)
        code, out, err = send(ws, capsys)
    assert code == 1 and "certificate verify failed" in out.lower(), out


def test_the_nightly_run_ends_by_delivering_the_digest(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with SmtpServer() as smtp, NtfyServer() as ntfy:
        ws = workspace(tmp_path, notify("email", "ntfy", body=email_settings(smtp.port)
                                        + ntfy_settings(ntfy.url("/jobs"))),
                       extra="prepare: {top: 0}\n")
        add_matches(ws, 2)
        capsys.readouterr()
        assert tui_main(["--home", str(ws.home), "--run"]) == 0
        out = capsys.readouterr().out
        assert "2 new matches" in smtp.wait_for(1)[0].message["Subject"]
        assert "2 new matches" in ntfy.wait_for(1)[0].title
    assert "digest email: sent to ada@example.org via 127.0.0.1" in out
    assert out.rstrip().splitlines()[-1].startswith("No model: "), "the run's close stays last"


def test_check_send_test_tries_every_channel(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with SmtpServer() as smtp, NtfyServer() as ntfy:
        ws = workspace(tmp_path, notify("file", "email", "ntfy", body=email_settings(smtp.port)
                                        + ntfy_settings(ntfy.url("/jobs"))))
        capsys.readouterr()
        assert main(["--home", str(ws.home), "check", "--send-test"]) == 0
        assert "test message" in smtp.wait_for(1)[0].message["Subject"]
        assert ntfy.wait_for(1)[0].title == "jobtracker: test message"
    out = capsys.readouterr().out
    assert "notify: email: test message sent to ada@example.org" in out
    assert main(["--home", str(ws.home), "check", "--send-test"]) == 1, "servers are gone"
    assert "notify: email: " in capsys.readouterr().err


def test_a_webhook_gets_the_digest_as_json_with_its_token(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JT_HOOK", TOKEN)
    with NtfyServer() as server:
        ws = workspace(tmp_path, notify("webhook", body=(
            f"  webhook: {{url: '{server.url('/hooks/jobs')}', token_env: JT_HOOK}}\n")))
        add_matches(ws, 150)
        code, _, err = send(ws, capsys)
        assert code == 0, err
    post = next(p for p in server.posts if p.path == "/hooks/jobs")
    body = post.json()
    assert post.headers["authorization"] == f"Bearer {TOKEN}"
    assert body["subject"] == "jobtracker: 150 new matches"
    assert len(body["digest"]["matches"]) == 100 and body["digest"]["totals"]["matches"] == 150
    assert body["digest"]["matches"][0]["url"] == "https://jobs.example/1"


# What "the channel announced this job" means, as one SQL test per job: the posting
# itself, or a posting now in its group (the digest reads it as sets, one read).
_TOLD_SQL = """SELECT p.id FROM postings AS p WHERE
    EXISTS (SELECT 1 FROM digest_announced AS d WHERE d.channel = ? AND d.posting_id = p.id)
    OR EXISTS (SELECT 1 FROM postings AS m JOIN digest_announced AS d
               ON d.posting_id = m.id AND d.channel = ? WHERE m.lead_id = p.id)"""


def test_the_jobs_a_channel_announced_are_its_postings_and_their_leaders_now(
        tmp_path: Path) -> None:
    import asyncio
    import random

    from jobtracker import store
    from jobtracker.notify.digest import _announced

    ws = workspace(tmp_path, notify("file", body=""))
    add_matches(ws, 60)
    rng = random.Random(41)
    with raw_connect(ws.db) as conn:
        ids = [int(r[0]) for r in conn.execute("SELECT id FROM postings")]
        conn.execute("INSERT INTO digests (id, sent_at, delivered) "
                     "VALUES (1, '2026-11-29T07:00:00Z', '[]')")
        for member in rng.sample(ids, 20):       # groups, some of them led by a member
            conn.execute("UPDATE postings SET lead_id = ? WHERE id = ?",
                         (rng.choice([i for i in ids if i != member]), member))
        for channel in ("file", "email"):
            conn.executemany("INSERT INTO digest_announced (channel, posting_id, digest_id) "
                             "VALUES (?, ?, 1)", [(channel, i) for i in rng.sample(ids, 25)])
        expected = {c: {int(r[0]) for r in conn.execute(_TOLD_SQL, (c, c))}
                    for c in ("file", "email", "ntfy")}

    async def read() -> dict[str, set[int]]:
        async with store.connect(ws.db) as conn:
            return await _announced(conn, ("file", "email", "ntfy"))

    found = asyncio.run(read())
    assert found == expected and found["ntfy"] == set() and found["file"]
