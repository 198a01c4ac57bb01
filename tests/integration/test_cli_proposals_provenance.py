"""`jobtracker proposals show` says which model answered, and with which prompt."""

from __future__ import annotations

import asyncio
import json

from conftest import run_cli

from jobtracker import proposals, store
from jobtracker.workspace import Workspace

NOW = "2026-09-01T00:00:00Z"


def test_proposals_show_says_which_model_answered(ws: Workspace) -> None:
    async def seed() -> None:
        async with store.connect(ws.db) as conn, store.write(conn):
            for unit, model, version in (("m:new", "qwen3:8b", "0123456789ab"),
                                         ("m:old", None, None)):
                await proposals.create(conn, kind="status", task="inbox", unit_key=unit,
                                       now=NOW, summary="Acme: → rejected",
                                       payload={"to_status": "rejected"}, model=model,
                                       prompt_version=version)
    asyncio.run(seed())
    shown = run_cli("proposals", "show", "1", "--home", str(ws.home))
    assert shown.returncode == 0, shown.stderr
    assert "  model        qwen3:8b (prompt 0123456789ab)" in shown.stdout.splitlines()
    old = run_cli("proposals", "show", "2", "--home", str(ws.home))
    assert "unknown (proposed before models were recorded)" in old.stdout
    as_json = json.loads(run_cli("proposals", "show", "1", "--json", "--home",
                                 str(ws.home)).stdout)
    assert (as_json["model"], as_json["prompt_version"]) == ("qwen3:8b", "0123456789ab")
