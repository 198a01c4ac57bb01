"""Job alerts through `fetch`: a Maildir read read-only into postings with canonical pages,
a repeated job one posting, a board's copy one match, cards closed when unseen, alert
mail never the inbox's."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path

import aiosqlite
import pytest
from alerts_samples import NOT_ALERTS, SAMPLES, mail
from servers.boards import BoardServer, greenhouse_board, greenhouse_job

from jobtracker import cli, store
from jobtracker.config import Board, Config, Profile, Sources
from jobtracker.intake.mail import alert_of
from jobtracker.mail.maildir import sync_maildir
from jobtracker.postings.alerts import AlertSettings, read_alerts
from jobtracker.postings.fetch import fetch_all, make_client
from jobtracker.ranking.matches import load_matches
from jobtracker.tasks import Context
from jobtracker.tasks.inbox import InboxTask
from jobtracker.tasks.judge import JudgeTask
from jobtracker.workspace import Workspace
from tests.unit.mail_samples import build_maildir, fingerprint

NOW = "2026-12-01T08:00:00Z"
PROFILE = Profile(prose="Senior backend engineer.", levels=("senior", "staff"), exists=True)
ACME_TEXT = ("<p>Acme builds billing software for small shops. You will design our ledger "
             "service in Python and PostgreSQL, run it in production, and mentor two "
             "engineers. We work in small teams and ship every week.</p>")


def redated(raw: bytes, when: datetime, message_id: str) -> bytes:
    """The same mail sent again on another day (a new Message-ID and Date)."""
    raw = re.sub(rb"(?m)^Date: .*\r$", f"Date: {format_datetime(when)}\r".encode(), raw)
    return re.sub(rb"(?m)^Message-ID: .*\r$", f"Message-ID: <{message_id}>\r".encode(), raw)


def later(days: int) -> str:
    moment = datetime(2026, 12, 1, 8, tzinfo=UTC) + timedelta(days=days)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


async def rows(conn: aiosqlite.Connection, sql: str, *params: object) -> list[tuple]:
    return [tuple(row) for row in await conn.execute_fetchall(sql, params)]


async def test_alerts_in_a_maildir_become_postings_and_the_maildir_is_untouched(
        tmp_path: Path, conn: aiosqlite.Connection) -> None:
    box = build_maildir(tmp_path / "Mail", [s.raw for s in SAMPLES.values()],
                        cur=list(NOT_ALERTS.values()))
    before = fingerprint(box)
    results = await read_alerts(conn, AlertSettings(maildir=box), NOW)
    assert fingerprint(box) == before                 # nothing moved, flagged or written
    lines = {r.name: r for r in results}
    # Each job once: the French and German mails repeat the English ones' jobs.
    jobs = {(s.sender, e.title, e.company, e.location) for s in SAMPLES.values()
            for e in s.expected}
    assert sum(r.new for r in results) == await _count(conn) == len(jobs) == 25
    assert lines["alerts:linkedin"].mails == 5 and lines["alerts:linkedin"].new == 10
    assert lines["alerts:linkedin"].line().startswith("alerts:linkedin  10 new, 0 seen again")
    stored = {row[0]: row[1] for row in await rows(
        conn, "SELECT external_id, url FROM postings")}
    assert stored["linkedin:4317109784"] == "https://www.linkedin.com/jobs/view/4317109784/"
    assert stored["indeed:99aa88bb77cc66dd"] == "https://uk.indeed.com/viewjob?jk=99aa88bb77cc66dd"
    for url in stored.values():
        assert not re.search(r"trackingId|otpToken|midToken|tsid|/ekm/|ls/click|redirect", url)
    assert not await rows(conn, "SELECT 1 FROM postings WHERE url LIKE '%linkedin.com.example%'")
    boards = await rows(conn, "SELECT source, token, company FROM boards ORDER BY id")
    assert ("alert", "linkedin", "LinkedIn") in boards
    # Read again: nothing new is read, nothing changes.
    again = await read_alerts(conn, AlertSettings(maildir=box), NOW)
    assert [r.line() for r in again] == ["alerts  no new alert mail (0 messages looked at)"]


async def _count(conn: aiosqlite.Connection) -> int:
    return int((await rows(conn, "SELECT COUNT(*) FROM postings"))[0][0])


async def test_the_same_job_in_the_next_days_alert_is_the_same_posting(
        tmp_path: Path, conn: aiosqlite.Connection) -> None:
    raw = SAMPLES["linkedin saved search"].raw
    box = build_maildir(tmp_path / "Mail", [raw])
    await read_alerts(conn, AlertSettings(maildir=box), NOW)
    first = await rows(conn, "SELECT id, first_seen, last_seen FROM postings ORDER BY id")
    build_maildir(box, [redated(raw, datetime(2026, 12, 1, 7, tzinfo=UTC), "next@li")])
    (result,) = await read_alerts(conn, AlertSettings(maildir=box), later(0))
    assert (result.new, result.unchanged, result.mails) == (0, 3, 1)
    second = await rows(conn, "SELECT id, first_seen, last_seen FROM postings ORDER BY id")
    assert [r[0] for r in second] == [r[0] for r in first]              # the same postings
    assert [r[1] for r in second] == [r[1] for r in first]              # first seen kept
    assert {r[2] for r in second} == {"2026-12-01T07:00:00Z"}           # last seen moved
    sightings = await rows(conn, "SELECT posting_id, COUNT(*) FROM alert_sightings "
                                 "GROUP BY posting_id")
    assert {count for _, count in sightings} == {2}


async def test_a_card_not_seen_for_close_after_days_is_closed_and_comes_back(
        tmp_path: Path, conn: aiosqlite.Connection) -> None:
    raw = SAMPLES["glassdoor"].raw        # sent 2026-11-30
    box = build_maildir(tmp_path / "Mail", [raw])
    settings = AlertSettings(maildir=box, close_after_days=14)
    await read_alerts(conn, settings, NOW)
    assert await rows(conn, "SELECT COUNT(*) FROM postings WHERE closed_at IS NULL") == [(3,)]
    (result,) = await read_alerts(conn, settings, later(15))
    assert result.closed == 3 and result.line().startswith("alerts:glassdoor  0 new")
    assert await rows(conn, "SELECT COUNT(*) FROM postings WHERE closed_at IS NULL") == [(0,)]
    # An older mail read late reopens nothing; a newer one brings the job back.
    build_maildir(box, [redated(raw, datetime(2026, 11, 29, tzinfo=UTC), "old@gd")])
    await read_alerts(conn, settings, later(15))
    assert await rows(conn, "SELECT COUNT(*) FROM postings WHERE closed_at IS NULL") == [(0,)]
    build_maildir(box, [redated(raw, datetime(2026, 12, 16, 12, tzinfo=UTC), "new@gd")])
    (back,) = await read_alerts(conn, settings, later(16))
    assert back.reopened == 3
    assert await rows(conn, "SELECT COUNT(*) FROM postings WHERE closed_at IS NULL") == [(3,)]


async def test_a_known_senders_mail_with_no_card_is_named_not_understood(
        tmp_path: Path, conn: aiosqlite.Connection) -> None:
    odd = mail("LinkedIn <jobalerts-noreply@linkedin.com>", "Backend Engineer at Acme",
               "Your job alert for backend\nSomething new we cannot read.", None)
    box = build_maildir(tmp_path / "Mail", [odd, SAMPLES["linkedin similar jobs"].raw])
    (result,) = await read_alerts(conn, AlertSettings(maildir=box), NOW)
    assert result.mails == 2 and result.not_understood == ["Backend Engineer at Acme"]
    assert '1 not understood: "Backend Engineer at Acme"' in result.line()
    assert await rows(conn, "SELECT cards FROM alert_mails ORDER BY cards") == [(0,), (2,)]


def acme_board(server: BoardServer, *jobs: tuple[int, str]) -> Sources:
    server.set("/gh", greenhouse_board([greenhouse_job(n, title, content_html=ACME_TEXT,
                                                       location="Berlin, Germany")
                                        for n, title in jobs]))
    return Sources(boards=(Board("greenhouse", "acme", "Acme", server.url("/gh")),))


def ctx(now: str = NOW) -> Context:
    return Context(home=Path("/nonexistent"), config=Config(), profile=PROFILE, now=now)


async def test_a_board_posting_fetched_first_is_the_one_match_the_card_joins(
        tmp_path: Path, db: Path, server: BoardServer) -> None:
    sources = acme_board(server, (11, "Senior Backend Engineer"))
    box = build_maildir(tmp_path / "Mail", [SAMPLES["linkedin saved search"].raw])
    async with store.connect(db) as conn, make_client() as client:
        results = await fetch_all(conn, sources, client, clock=lambda: NOW,
                                  alert_mail=AlertSettings(maildir=box))
        assert [r.name for r in results] == ["greenhouse:acme", "alerts:linkedin"]
        board_id, card_id = [r[0] for r in await rows(
            conn, "SELECT id FROM postings WHERE company = 'Acme' ORDER BY id")]
        lead = await rows(conn, "SELECT lead_id FROM postings WHERE id = ?", card_id)
        units = await JudgeTask().pending(conn, ctx())
    assert lead == [(board_id,)]
    assert [u.subject for u in units if u.data["title"] == "Senior Backend Engineer"] == [
        board_id]                                     # judged once, on the board's text
    listed = await load_matches(db, PROFILE, undescribed=True)
    assert [m.id for m in listed if m.company == "Acme"] == []      # no verdict yet, no card


async def test_a_card_seen_before_its_board_takes_the_boards_text_and_is_judged_once(
        tmp_path: Path, db: Path, server: BoardServer) -> None:
    box = build_maildir(tmp_path / "Mail", [SAMPLES["linkedin saved search"].raw])
    settings = AlertSettings(maildir=box)
    async with store.connect(db) as conn:
        await read_alerts(conn, settings, NOW)
        assert await JudgeTask().pending(conn, ctx()) == []       # a card alone: not judged
    listed = await load_matches(db, PROFILE, undescribed=True)
    card = next(m for m in listed if m.company == "Acme")
    assert (card.described, card.score, card.verdict) == (False, None, None)
    assert card.url == "https://www.linkedin.com/jobs/view/4317109784/"
    assert await load_matches(db, PROFILE) == []                  # the scored list: none yet
    sources = acme_board(server, (11, "Senior Backend Engineer"), (12, "Office Manager"))
    async with store.connect(db) as conn, make_client() as client:
        await fetch_all(conn, sources, client, clock=lambda: later(1))
        (card_row,) = await rows(conn, "SELECT id, description_source, description FROM "
                                       "postings WHERE external_id = 'linkedin:4317109784'")
        member = await rows(conn, "SELECT lead_id FROM postings WHERE external_id = '11'")
        units = await JudgeTask().pending(conn, ctx(later(1)))
    assert member == [(card_row[0],)]                 # the board's posting joined the card
    assert card_row[1] == "ats" and "ledger service" in card_row[2]   # and gave its text
    assert card_row[0] in [u.subject for u in units]
    assert len([u for u in units if "Backend" in u.data["title"]]) == 1
    listed = await load_matches(db, PROFILE, undescribed=True)
    assert not [m for m in listed if m.company == "Acme" and not m.described]


async def test_alert_mail_is_marked_and_never_reaches_the_inbox_task(
        tmp_path: Path, conn: aiosqlite.Connection) -> None:
    reply = mail("Acme Careers <jobs@acme.com>", "Your application",
                 "Thank you for applying to Acme.", None)
    box = build_maildir(tmp_path / "Mail", [SAMPLES["linkedin saved search"].raw,
                                            SAMPLES["indeed digest"].raw, reply])
    await sync_maildir(conn, box, NOW, alert_of)
    marked = await rows(conn, "SELECT subject, alert, company, posting_id, link_reason "
                              "FROM messages ORDER BY alert")
    assert [row[1] for row in marked] == [None, "indeed", "linkedin"]
    assert [row[2:] for row in marked[1:]] == [(None, None, "job alert")] * 2
    config = Config(maildir=box)
    context = Context(home=tmp_path, config=config, profile=PROFILE, now=NOW)
    units = await InboxTask().pending(conn, context)
    assert [u.data["subject"] for u in units] == ["Your application"]
    assert await InboxTask().count(conn, context) == 1


async def test_a_fetch_marks_alert_mail_the_inbox_stored_before_it_knew_alerts(
        tmp_path: Path, conn: aiosqlite.Connection) -> None:
    box = build_maildir(tmp_path / "Mail", [SAMPLES["linkedin saved search"].raw])
    await sync_maildir(conn, box, NOW)                  # no alert_of: an older sync
    assert await rows(conn, "SELECT alert FROM messages") == [(None,)]
    await read_alerts(conn, AlertSettings(maildir=box), NOW)
    assert await rows(conn, "SELECT alert, company, posting_id FROM messages") == [
        ("linkedin", None, None)]


def test_fetch_prints_a_line_per_sender_and_takes_source_alerts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = Workspace(tmp_path / "home")
    ws.init()
    box = build_maildir(tmp_path / "Mail", [SAMPLES["indeed digest"].raw,
                                            SAMPLES["wellfound"].raw])
    (ws.home / "config.yaml").write_text(
        f"maildir: {box}\nllm: {{url: null}}\nalerts: {{probe_companies: 0}}\n")
    (ws.home / "sources.yaml").write_text("boards: []\n")
    assert cli.main(["--home", str(ws.home), "fetch", "--source", "alerts"]) == 0
    out = capsys.readouterr().out
    assert "alerts:indeed  3 new, 0 seen again, 0 closed (1 mail)" in out
    assert "alerts:wellfound  2 new" in out
    assert re.search(r"alerts:indeed\s+3\s+0\s+0\s+no", out)       # the summary table
    assert cli.main(["--home", str(ws.home), "fetch", "--source", "alerts"]) == 0
    assert "alerts  no new alert mail" in capsys.readouterr().out


def test_fetch_source_alerts_without_a_mailbox_is_a_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = Workspace(tmp_path / "home")
    ws.init()
    (ws.home / "config.yaml").write_text("llm: {url: null}\n")
    assert cli.main(["--home", str(ws.home), "fetch", "--source", "alerts"]) == 2
    assert "no maildir or imap to read job alerts from" in capsys.readouterr().err


async def test_a_spent_budget_stops_the_read_says_so_and_leaves_the_rest_for_next_time(
        tmp_path: Path, conn: aiosqlite.Connection) -> None:
    """The bytes a fetch reads are bounded (as its CPU time and fetch.deadline are): past
    the budget the read stops, its `alerts` line names the budget, and the mail it did
    not reach is read by the next fetch, none of it lost."""
    raws = [s.raw for s in SAMPLES.values()]
    box = build_maildir(tmp_path / "Mail", raws)
    small = AlertSettings(maildir=box, max_bytes=len(raws[0]) + 1)
    first = await read_alerts(conn, small, NOW)
    lines = [r.line() for r in first]
    assert lines[-1].startswith("alerts  stopped at the byte budget") and \
        "the rest is read by the next fetch" in lines[-1]
    assert sum(r.mails for r in first) == 2           # the budget is checked before each
    rest = await read_alerts(conn, AlertSettings(maildir=box), NOW)
    assert sum(r.mails for r in first) + sum(r.mails for r in rest) == len(raws)
    assert not any(r.cut for r in rest)
    fresh = build_maildir(tmp_path / "Other", [redated(raws[0], datetime(2026, 12, 1, tzinfo=UTC),
                                                       "again@x")])
    spent = await read_alerts(conn, AlertSettings(maildir=fresh), NOW, deadline=0.0)
    assert [r.line() for r in spent] == [
        "alerts  stopped at fetch.deadline (0 s) (0 messages looked at; the rest is read "
        "by the next fetch)"]
