"""`jobtracker prepare` whose picks hold many distinct documents (a tailored resume per
posting, PDF and DOCX) draws them in a pool of processes (jobtracker/render/pool.py):
the packets hold the same bytes a render in this process gives, each PDF read back,
and a resume that cannot be rendered still says why, naming its posting and file."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from jobtracker import cli, proposals, store
from jobtracker.config import RenderConfig
from jobtracker.prepare.documents import Documents
from jobtracker.render import build, pool
from jobtracker.render.themes import find_theme
from jobtracker.workspace import Workspace
from tests import prepare_world
from tests.prepare_world import NOW, posting_id

home, server = prepare_world.home, prepare_world.server
EDITS = {"Staff Engineer": "Built distributed services in Python.",
         "Senior Platform Engineer": "Built platform services in Python.",
         "Senior Data Engineer": "Built services in Python for the 日本 office.",
         "Senior Backend Engineer": "Built backend services in Python."}


def tailor(ws: Workspace) -> None:
    """An accepted resume edit per posting: four resumes, one no font can draw."""
    async def go() -> None:
        async with store.connect(ws.db) as conn:
            for title, replacement in EDITS.items():
                pid = posting_id(ws, title)
                async with store.write(conn):
                    proposal = await proposals.create(
                        conn, kind="resume_edit", task="tailor", unit_key=f"t{pid}",
                        summary="edit", now=NOW, posting_id=pid,
                        payload={"original": "Built services in Python.",
                                 "replacement": replacement, "company": "Acme",
                                 "title": title, "posting_id": pid})
                await proposals.accept(conn, [proposal], NOW, ws.home)
    asyncio.run(go())


def test_tailored_resumes_are_drawn_by_the_pool_as_they_are_drawn_here(
        home: Workspace, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    (home.home / "config.yaml").write_text("llm: {url: 'http://127.0.0.1:9', retries: 1, "
                                           "timeout: 2}\nrender: {formats: [pdf, docx]}\n")
    tailor(home)
    capsys.readouterr()
    given: list[pool.Job] = []

    class Counted(pool.Renderer):
        def submit_all(self, jobs: list[pool.Job]) -> list:
            given.extend(jobs)
            return super().submit_all(jobs)

    monkeypatch.setattr(pool, "Renderer", Counted)
    code = cli.main(["--home", str(home.home), "prepare", "--json"])
    out, err = capsys.readouterr()
    assert len(given) == 8, "four resumes, PDF and DOCX, all to the pool"
    done = {item["title"]: item for item in json.loads(out)}
    assert set(done) == set(EDITS)
    theme, here = find_theme("classic"), Documents(RenderConfig(formats=("pdf", "docx")))
    for title, item in done.items():
        folder = home.home / item["path"]
        text = (folder / "resume.md").read_text()
        assert EDITS[title] in text
        docs = {d["file"]: d for d in item["documents"]}
        if "日本" in text:
            assert not (folder / "resume.pdf").exists()
            line = here.render("resume", text, "pdf").line()
            assert line.startswith("✗ resume.pdf: not rendered: no font of the theme")
            assert "resume.md:" in line and "U+65E5" in line
            assert f"- {line}" in (folder / "answers.md").read_text()
            assert docs["resume.pdf"]["written"] is False
            continue
        for fmt in ("pdf", "docx"):
            data = (folder / f"resume.{fmt}").read_bytes()
            assert data == build.build(text, "resume.md", fmt, theme, "a4").data, (title, fmt)
        assert docs["resume.pdf"]["check"]["ok"] is True and docs["resume.pdf"]["pages"] == 1
    broken = done["Senior Data Engineer"]
    assert code == 1
    assert (f"jobtracker: prepare: packet {broken['path']} (posting {broken['posting']}) "
            "is not ready: ") in err and "U+65E5" in err


def test_a_packet_prepared_again_keeps_its_bytes(
        home: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    (home.home / "config.yaml").write_text("render: {formats: [pdf, docx]}\n")
    tailor(home)
    cli.main(["--home", str(home.home), "prepare", "--json"])
    first = {p: p.read_bytes() for p in sorted(home.home.glob("applications/*/resume.*"))}
    cli.main(["--home", str(home.home), "prepare", "--json"])
    capsys.readouterr()
    again = {p: p.read_bytes() for p in sorted(home.home.glob("applications/*/resume.*"))}
    assert again == first and len([p for p in first if Path(p).suffix == ".pdf"]) == 3
