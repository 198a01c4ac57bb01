"""Board credentials at rest: a board `url` with `user:password@` or a secret-named query
value is fetched and its forms read with them, but neither `boards.url` nor `forms.url`
(nor any other text in the database) keeps them."""

from __future__ import annotations

import json

import pytest
from servers.boards import BoardServer, greenhouse_board, greenhouse_form, greenhouse_job

from jobtracker.cli import main
from jobtracker.workspace import Workspace
from tests.db import raw_connect
from tests.integration.test_secrets_hostile import database_text

SECRET = "s3cr3t-Value-42xyz"


@pytest.mark.parametrize("shape", [
    "http://ada:{s}@{host}/gh/acme",
    "http://{host}/gh/acme?api_key={s}",
    "http://{host}/gh/acme?content=true&token={s}",
    "http://{host}/gh/acme?access_token={s}&x=1",
    "http://{s}@{host}/gh/acme",
    "http://ada:{s}@{host}/gh/acme?key={s}",
])
def test_board_credentials_never_reach_the_database(
        ws: Workspace, server: BoardServer, capsys: pytest.CaptureFixture[str],
        shape: str) -> None:
    host = server.url("/").split("//", 1)[1].rstrip("/")
    url = shape.format(s=SECRET, host=host)
    listing = url.split(host, 1)[1]
    server.set(listing, greenhouse_board([greenhouse_job(11, "Staff Engineer")]))
    server.set("/gh/acme/11?questions=true", greenhouse_form(11, "Staff Engineer"))
    (ws.home / "sources.yaml").write_text(
        f"boards:\n  - {{ats: greenhouse, token: acme, company: Acme, url: '{url}'}}\n")
    assert main(["--home", str(ws.home), "fetch"]) == 0
    with raw_connect(ws.db) as conn:
        [(posting,)] = conn.execute("SELECT id FROM postings").fetchall()
    capsys.readouterr()
    assert main(["--home", str(ws.home), "prepare", str(posting), "--json"]) == 0
    out = capsys.readouterr().out
    [packet] = json.loads(out)
    assert packet["form"] == "greenhouse"      # the form was read, through the real address
    with raw_connect(ws.db) as conn:
        stored = [r[0] for r in conn.execute("SELECT url FROM boards")]
        stored += [r[0] for r in conn.execute("SELECT url FROM forms")]
    assert stored and all(SECRET not in (u or "") for u in stored), stored
    assert SECRET not in database_text(ws)
    assert main(["--home", str(ws.home), "fetch"]) == 0    # a second fetch still works
