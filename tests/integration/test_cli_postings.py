"""`jobtracker postings group` and `split`: a group shown leader first, and a split that holds."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli
from postings_world import World, gh_job, rok_job
from servers.boards import BoardServer

from jobtracker.workspace import Workspace


def test_postings_command_shows_and_splits_a_group(server: BoardServer, tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "ws")
    assert run_cli("--home", str(ws.home), "init").returncode == 0
    world = World(server)
    world.serve(gh=[gh_job(11)], rok=[rok_job("901")])
    (ws / "sources.yaml").write_text(
        "boards:\n"
        f"  - {{ats: greenhouse, token: acme, company: Acme, url: '{server.url('/gh')}'}}\n"
        f"  - {{ats: remoteok, token: all, url: '{server.url('/rok')}'}}\n")
    assert run_cli("--home", str(ws.home), "fetch").returncode == 0
    shown = run_cli("--home", str(ws.home), "postings", "group", "2")
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert len(lines) == 2 and "leads" in lines[0] and "greenhouse:acme" in lines[0]
    assert "remoteok:all" in lines[1]
    split = run_cli("--home", str(ws.home), "postings", "split", "2")
    assert split.returncode == 0 and "now stands alone" in split.stdout
    missing = run_cli("--home", str(ws.home), "postings", "split", "99")
    assert missing.returncode == 2 and "no posting with id 99" in missing.stderr
