"""Finding an alert company's board: probed on loopback, bounded and cached, proposed as a
`source`, accepted into sources.yaml as `jobtracker add` writes it, undone byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest
from alerts_samples import SAMPLES
from servers.boards import BoardServer, greenhouse_board, greenhouse_job

from jobtracker import cli, proposals, store
from jobtracker.config import Board, load_sources
from jobtracker.postings.alerts import AlertSettings
from jobtracker.postings.fetch import fetch_all, make_client
from jobtracker.postings.probe import MAX_TOKENS, PROBE_ATS, find_boards, tokens
from jobtracker.run.setup import config_of, sources_of
from jobtracker.sources import REGISTRY
from jobtracker.workspace import Workspace
from tests.unit.mail_samples import build_maildir

NOW = "2026-12-01T08:00:00Z"
WEEK_LATER = "2026-12-09T08:00:00Z"
SOURCES_TEXT = ("# my boards\r\nboards:\r\n  - {ats: lever, token: plaid, company: Plaid}"
                "   # fintech\r\n\r\nfeeds: []\r\n")


@pytest.fixture
def world(tmp_path: Path, server: BoardServer) -> tuple[Workspace, BoardServer, AlertSettings]:
    ws = Workspace(tmp_path / "home")
    ws.init()
    (ws.home / "sources.yaml").write_bytes(SOURCES_TEXT.encode())
    server.set("/probe/greenhouse/acme", greenhouse_board(
        [greenhouse_job(71, "Senior Backend Engineer", location="Berlin, Germany"),
         greenhouse_job(72, "Office Manager")]))
    box = build_maildir(tmp_path / "Mail", [SAMPLES["linkedin saved search"].raw])
    settings = AlertSettings(maildir=box, probe_companies=5,
                             probe_address=lambda ats, token: server.url(f"/probe/{ats}/{token}"))
    return ws, server, settings


async def fetch(ws: Workspace, settings: AlertSettings, now: str) -> list[object]:
    said: list[object] = []
    async with store.connect(ws.db) as conn, make_client() as client:
        await fetch_all(conn, sources_of(ws), client, clock=lambda: now, alert_mail=settings,
                        on_board_done=said.append)
    return said


def test_a_companys_board_names_are_guessed_from_its_name() -> None:
    assert tokens("Acme") == ["acme"]
    assert tokens("Acme Robotics, Inc.") == ["acmerobotics", "acme-robotics"]
    assert tokens("Société Générale") == ["societegenerale", "societe-generale"]
    assert tokens("!!!") == []


async def test_a_board_listing_an_alert_title_is_proposed_once_and_looked_up_once_a_week(
        world: tuple[Workspace, BoardServer, AlertSettings]) -> None:
    ws, server, settings = world
    said = await fetch(ws, settings, NOW)
    line = said[-1].line()  # type: ignore[attr-defined]
    assert line == ("alerts:boards  1 proposed (greenhouse:acme); 3 companies looked up, "
                    "7 requests")
    # Acme was found at its first address; Globex and Initech were asked at most
    # PROBE_ATS x MAX_TOKENS addresses each; Plaid has a board, so nobody asked for it.
    probes = [r.path for r in server.requests if r.path.startswith("/probe/")]
    assert len(probes) == 7 <= 3 * len(PROBE_ATS) * MAX_TOKENS
    assert not [p for p in probes if "plaid" in p]
    async with store.connect(ws.db) as conn:
        (found,) = await proposals.list_proposals(conn, ws.home)
    assert (found.kind, found.task, found.state) == ("source", "alerts", "pending")
    assert found.summary == ("add greenhouse:acme — it lists 'Senior Backend Engineer', "
                             "seen in 1 LinkedIn alert")
    assert found.payload["board"]["url"] == server.url("/probe/greenhouse/acme")
    # Again the same day, and a day later: no company is asked again within a week.
    before = len(server.requests)
    said = await fetch(ws, settings, "2026-12-02T08:00:00Z")
    assert len([r for r in server.requests[before:] if r.path.startswith("/probe/")]) == 0
    assert not [s for s in said if getattr(s, "name", "") == "alerts:boards"]
    # A week later the companies without a board are asked again; Acme, proposed, is not.
    before = len(server.requests)
    await fetch(ws, settings, WEEK_LATER)
    again = [r.path for r in server.requests[before:] if r.path.startswith("/probe/")]
    assert again and not [p for p in again if p.endswith("/acme")]
    async with store.connect(ws.db) as conn:
        assert len(await proposals.list_proposals(conn, ws.home)) == 1


async def test_accepting_appends_the_board_as_add_does_and_undo_restores_every_byte(
        world: tuple[Workspace, BoardServer, AlertSettings]) -> None:
    ws, server, settings = world
    await fetch(ws, settings, NOW)
    path = ws.home / "sources.yaml"
    async with store.connect(ws.db) as conn:
        (found,) = await proposals.list_proposals(conn, ws.home)
        detail = await proposals.detail(conn, found, ws.home)
        (accepted,) = await proposals.accept(conn, [found.id], NOW, ws.home)
    assert accepted.ok, accepted.message
    assert any(line.role == "added" and "greenhouse" in line.plain for line in detail)
    url = server.url("/probe/greenhouse/acme")
    assert path.read_bytes() == (
        "# my boards\r\nboards:\r\n  - {ats: lever, token: plaid, company: Plaid}   # fintech\r\n"
        f'  - {{ats: greenhouse, token: acme, company: Acme, url: "{url}"}}\r\n'
        "\r\nfeeds: []\r\n").encode()
    assert Board("greenhouse", "acme", "Acme", url) in load_sources(path, REGISTRY).boards
    # The next fetch reads the new board: the alert card and the board's posting are one job.
    await fetch(ws, settings, "2026-12-02T08:00:00Z")
    async with store.connect(ws.db) as conn:
        rows = await conn.execute_fetchall(
            "SELECT external_id, lead_id, description_source FROM postings "
            "WHERE company = 'Acme' ORDER BY id")
        card, posting = [tuple(r) for r in rows if r[0] in ("linkedin:4317109784", "71")]
        assert posting[1] is not None and card[2] == "ats"     # one job, the board's text
        undone = await proposals.undo_last(conn, NOW, ws.home)
    assert undone is not None and undone.ok, undone
    assert path.read_bytes() == SOURCES_TEXT.encode()


async def test_a_board_added_by_hand_makes_the_proposal_stale(
        world: tuple[Workspace, BoardServer, AlertSettings]) -> None:
    ws, _server, settings = world
    await fetch(ws, settings, NOW)
    assert cli.main(["--home", str(ws.home), "add", "https://boards.greenhouse.io/acme"]) == 0
    async with store.connect(ws.db) as conn:
        (found,) = await proposals.list_proposals(conn, ws.home)
        assert found.state == "stale" and "lists greenhouse:acme already" in found.stale_reason
        (refused,) = await proposals.accept(conn, [found.id], NOW, ws.home)
    assert not refused.ok


async def test_a_rejected_board_is_not_proposed_again(
        world: tuple[Workspace, BoardServer, AlertSettings]) -> None:
    ws, _server, settings = world
    await fetch(ws, settings, NOW)
    async with store.connect(ws.db) as conn:
        (found,) = await proposals.list_proposals(conn, ws.home)
        await proposals.reject(conn, [found.id], NOW, ws.home)
    async with store.connect(ws.db) as conn, make_client() as client:
        result = await find_boards(conn, client, sources_of(ws), "2026-12-20T08:00:00Z", limit=5,
                                   address=settings.probe_address)  # type: ignore[arg-type]
        assert result is not None and result.proposed == []
        assert [p.state for p in await proposals.list_proposals(conn, ws.home)] == ["rejected"]


async def test_no_probe_without_a_limit_and_a_dead_server_is_no_board(
        world: tuple[Workspace, BoardServer, AlertSettings], tmp_path: Path) -> None:
    ws, server, settings = world
    quiet = AlertSettings(maildir=settings.maildir)             # probe_companies 0
    await fetch(ws, quiet, NOW)
    assert not [r for r in server.requests if r.path.startswith("/probe/")]
    dead = AlertSettings(maildir=settings.maildir, probe_companies=5,
                         probe_address=lambda ats, token: f"http://127.0.0.1:9/{ats}/{token}")
    said = await fetch(ws, dead, NOW)
    assert said[-1].line().startswith("alerts:boards  none found")  # type: ignore[attr-defined]


async def test_only_a_definite_no_is_kept_and_a_failed_probe_is_asked_again_next_fetch(
        world: tuple[Workspace, BoardServer, AlertSettings]) -> None:
    """Greenhouse answers 503 for Globex: that says nothing about Globex, so nothing is
    kept, the line counts the failure, and the next fetch (the same day) asks again;
    once every ATS says 404, "none found" is kept for a week."""
    ws, server, settings = world
    server.set("/probe/greenhouse/globex", "busy", status=503)
    said = await fetch(ws, settings, NOW)
    line = said[-1].line()  # type: ignore[attr-defined]
    assert line.endswith(", 1 failed (asked again next fetch)"), line
    async with store.connect(ws.db) as conn:
        kept = {row[0] for row in await conn.execute_fetchall(
            "SELECT company_key FROM board_probes")}
    assert "globex" not in kept and "initech" in kept, "a 404 everywhere is an answer"
    before = len(server.requests)
    server.set("/probe/greenhouse/globex", "gone", status=404)
    said = await fetch(ws, settings, "2026-12-01T09:00:00Z")
    again = [r.path for r in server.requests[before:] if r.path.startswith("/probe/")]
    assert again and all("globex" in p for p in again), again
    assert not said[-1].line().endswith("next fetch)")  # type: ignore[attr-defined]
    before = len(server.requests)
    await fetch(ws, settings, "2026-12-02T08:00:00Z")
    assert not [r for r in server.requests[before:] if r.path.startswith("/probe/")]


def test_the_docs_say_what_probing_reveals_and_config_turns_it_off(tmp_path: Path) -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "alerts.md").read_text()
    assert "**What probing tells others.**" in docs
    assert all(vendor in docs for vendor in ("Greenhouse, Lever and Ashby",
                                             "which companies you are looking at"))
    assert "set `alerts.probe_companies: 0` in config.yaml" in docs
    ws = Workspace(tmp_path / "home")
    ws.init()
    (ws.home / "config.yaml").write_text("alerts: {probe_companies: 0}\n")
    assert config_of(ws).alerts.probe_companies == 0
