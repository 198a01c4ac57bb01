"""Rendering in a pool of processes (jobtracker/render/pool.py) and the packets'
documents using it (jobtracker/prepare/documents.py).

What must hold: a document drawn by a worker is the same document, byte for byte,
with the same read-back, as one drawn in this process; a document that cannot be
rendered fails with the same words naming its file; a pool that breaks costs no
document (each is drawn here instead); a few documents use no pool at all."""

from __future__ import annotations

from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from jobtracker.config import RenderConfig
from jobtracker.prepare import documents as packets
from jobtracker.render import pool
from jobtracker.render.themes import find_theme
from tests.render_samples import RESUME

CLASSIC = find_theme("classic")
GLYPHLESS = RESUME + "\n- Ran the 日本 office.\n"


def texts(n: int) -> list[str]:
    return [f"{RESUME}\n- Tailored for posting {i}.\n" for i in range(n)]


def test_a_worker_draws_the_same_bytes_and_read_back_as_this_process() -> None:
    jobs = [pool.Job(text, "resume.md", fmt, CLASSIC, "a4")
            for text in texts(2) for fmt in ("pdf", "docx")]
    jobs.append(pool.Job(GLYPHLESS, "resume.md", "pdf", CLASSIC, "a4"))
    renderer = pool.Renderer(2, CLASSIC)
    try:
        drawn = [future.result(timeout=120) for future in renderer.submit_all(jobs)]
    finally:
        renderer.close()
    here = [pool.attempt(job) for job in jobs]
    for far, near in zip(drawn[:4], here[:4], strict=True):
        assert far.built is not None and near.built is not None
        assert far.built.data == near.built.data
        assert (far.built.pages, far.built.check) == (near.built.pages, near.built.check)
    assert drawn[0].built is not None and drawn[0].built.check is not None
    assert drawn[0].built.check.ok and drawn[0].built.pages == 2
    assert drawn[-1].built is None and drawn[-1].error == here[-1].error
    assert "resume.md:" in (drawn[-1].error or "") and "U+65E5" in (drawn[-1].error or "")


def test_packets_documents_render_in_a_pool_when_there_are_enough() -> None:
    settings = RenderConfig(formats=("pdf", "docx"))
    pooled, alone = packets.Documents(settings), packets.Documents(settings)
    wanted = [{"resume.md": text, "letter.md": None} for text in texts(3)]
    wanted.append({"resume.md": GLYPHLESS, "letter.md": "Dear team,\n\nHello.\n"})
    pooled.start(wanted)
    assert pooled._renderer is not None and len(pooled._pending) == 10
    got = [pooled.for_packet(one) for one in wanted]
    assert pooled._renderer is None and not pooled._pending, "the pool ends with its work"
    expected = [alone.for_packet(one) for one in wanted]
    assert alone._renderer is None, "no pool without start"
    assert got == expected
    broken = got[-1][0]
    assert not broken.ok and broken.line().startswith("✗ resume.pdf: not rendered: ")
    assert "U+65E5" in broken.line()
    assert [r.name for r in got[-1]] == ["resume.pdf", "resume.docx", "letter.pdf",
                                         "letter.docx"]


def test_a_few_documents_or_one_core_render_here_without_a_pool(
        monkeypatch: pytest.MonkeyPatch) -> None:
    settings = RenderConfig(formats=("pdf",))
    few = packets.Documents(settings)
    few.start([{"resume.md": text} for text in texts(pool.MIN_JOBS - 1)])
    assert few._renderer is None and not few._pending
    same = packets.Documents(settings)
    same.start([{"resume.md": RESUME} for _ in range(10)])
    assert same._renderer is None, "ten packets of one resume are one document"
    monkeypatch.setattr(pool, "cores", lambda: 1)
    single = packets.Documents(settings)
    single.start([{"resume.md": text} for text in texts(pool.MIN_JOBS + 2)])
    assert single._renderer is None


def test_a_document_the_pool_lost_is_drawn_here_instead() -> None:
    documents = packets.Documents(RenderConfig(formats=("pdf",)))
    text = texts(1)[0]
    lost: Future[pool.Outcome] = Future()
    lost.set_exception(BrokenProcessPool("a worker died"))
    documents._pending[("resume", text, "pdf")] = lost
    rendered = documents.render("resume", text, "pdf")
    assert rendered.ok and rendered.pages == 2 and rendered.data is not None
    assert rendered == packets.Documents(RenderConfig(formats=("pdf",))).render(
        "resume", text, "pdf")
    assert not documents._pending


def test_a_pool_that_cannot_start_costs_no_document(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_pool(*_: object) -> None:
        raise OSError("no semaphores here")

    monkeypatch.setattr(pool, "Renderer", no_pool)
    documents = packets.Documents(RenderConfig(formats=("pdf",)))
    wanted = [{"resume.md": text} for text in texts(pool.MIN_JOBS)]
    documents.start(wanted)
    assert documents._renderer is None and not documents._pending
    assert all(r.ok for one in wanted for r in documents.for_packet(one))


def test_a_theme_that_errs_in_a_worker_says_so_as_it_does_here(tmp_path: Path) -> None:
    (tmp_path / "mine.typ").write_text("#let data = json(bytes(sys.inputs.data))\n"
                                       "#data.no-such-field\n")
    theme = find_theme(str(tmp_path / "mine.typ"))
    job = pool.Job(RESUME, "resume.md", "pdf", theme, "a4")
    renderer = pool.Renderer(1, theme)
    try:
        (far,) = [f.result(timeout=120) for f in renderer.submit_all([job])]
    finally:
        renderer.close()
    assert far == pool.attempt(job)
    assert far.built is None and (far.error or "").startswith(f"theme error: {theme.path}:2: ")
