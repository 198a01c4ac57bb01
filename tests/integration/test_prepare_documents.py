"""Packets carry documents you can send: the resume and letter as PDF (and DOCX),
read back, named in answers.json; accepting an edit or a letter for a posting with
a packet renders its documents again; files the user edited are kept."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Iterator
from pathlib import Path

import docx
import pypdf
import pytest

from jobtracker import cli, proposals, store
from jobtracker.workspace import Workspace
from tests.prepare_world import ANSWERS, judge_everything, posting_id
from tests.servers.boards import BoardServer, lever_posting

NOW = "2026-11-30T06:00:00Z"
RESUME = ("# Ada Lovelace\nada@example.org · London\n\n## Experience\n\n"
          "- Built services in Python.\n- Led a team of three.\n")


@pytest.fixture
def server() -> Iterator[BoardServer]:
    with BoardServer() as running:
        running.set("/lv/kite", [lever_posting("k1", "Senior Backend Engineer", token="kite")])
        yield running


@pytest.fixture
def home(ws: Workspace, server: BoardServer) -> Workspace:
    (ws.home / "sources.yaml").write_text(
        f"boards:\n  - {{ats: lever, token: kite, company: Kite, "
        f"url: '{server.url('/lv/kite')}'}}\n")
    (ws.home / "profile.yaml").write_text("prose: Backend engineer\nlevels: [senior]\n")
    (ws.home / "answers.yaml").write_text(ANSWERS)
    (ws.home / "resume.md").write_text(RESUME)
    (ws.home / "config.yaml").write_text(
        "llm: {url: 'http://127.0.0.1:9', retries: 1, timeout: 2}\n"
        "render: {theme: compact, paper: us-letter, formats: [pdf, docx]}\n")
    assert cli.main(["--home", str(ws.home), "fetch"]) == 0
    judge_everything(ws)
    return ws


def pdf_text(path: Path) -> str:
    return " ".join(" ".join(p.extract_text() for p in pypdf.PdfReader(path).pages).split())


def prepare(ws: Workspace, capsys: pytest.CaptureFixture[str], code: int = 0) -> Path:
    assert cli.main(["--home", str(ws.home), "prepare", "--json"]) == code
    (item,) = json.loads(capsys.readouterr().out)
    return ws.home / item["path"]


def propose(ws: Workspace, kind: str, payload: dict, unit_key: str) -> int:
    pid = posting_id(ws, "Senior Backend Engineer")

    async def go() -> int:
        async with store.connect(ws.db) as conn, store.write(conn):
            return await proposals.create(
                conn, kind=kind, task="tailor", unit_key=unit_key, summary=kind, now=NOW,
                posting_id=pid, payload={"company": "Kite", "title": "Senior Backend Engineer",
                                         "posting_id": pid, **payload})
    return asyncio.run(go())


def test_a_packet_carries_the_documents_render_formats_names_read_back(
        home: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    folder = prepare(home, capsys)
    assert {"resume.md", "resume.pdf", "resume.docx"} <= {p.name for p in folder.iterdir()}
    assert "letter.pdf" not in {p.name for p in folder.iterdir()}, "no letter was accepted"
    pdf = pypdf.PdfReader(folder / "resume.pdf")
    assert pdf.pages[0].mediabox.width == pytest.approx(612), "render.paper: us-letter"
    assert "Built services in Python." in pdf_text(folder / "resume.pdf")
    assert "Led a team of three." in [p.text for p in docx.Document(folder / "resume.docx")
                                      .paragraphs]
    data = json.loads((folder / "answers.json").read_text())
    resume = next(f for f in data["fields"] if f["label"] == "Resume/CV")
    assert resume["answer"] == "resume.pdf"
    assert resume["files"] == ["resume.pdf", "resume.docx", "resume.md"]
    assert [d["file"] for d in data["documents"]] == ["resume.pdf", "resume.docx"]
    assert data["documents"][0]["check"] == {"ok": True, "missing": [], "ligatures": 0,
                                             "undecodable": 0, "outside": []}
    assert "✓ resume.pdf (1 page): read back" in (folder / "answers.md").read_text()


def test_accepting_an_edit_or_a_letter_renders_the_packets_documents_again(
        home: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    folder = prepare(home, capsys)
    before = (folder / "resume.pdf").read_bytes()
    edit = propose(home, "resume_edit", {"original": "Built services in Python.",
                                         "replacement": "Built payment services in Python."},
                   "e1")
    assert cli.main(["--home", str(home.home), "proposals", "accept", str(edit)]) == 0
    out = capsys.readouterr().out
    assert "resume.md, resume.pdf, resume.docx" in out and "brought up to date" in out
    assert "Built payment services in Python." in pdf_text(folder / "resume.pdf")
    assert (home.home / "resume.md").read_text() == RESUME, "the master is never written"

    letter = propose(home, "letter", {"text": "Dear Kite team,\n\nI build services.\n"}, "l1")
    assert cli.main(["--home", str(home.home), "proposals", "accept", str(letter)]) == 0
    capsys.readouterr()
    assert "I build services." in pdf_text(folder / "letter.pdf")
    data = json.loads((folder / "answers.json").read_text())
    cover = next(f for f in data["fields"] if f["label"] == "Cover letter")
    assert (cover["answer"], cover["source"]) == ("letter.pdf", "letter")

    assert cli.main(["--home", str(home.home), "proposals", "undo"]) == 0
    assert cli.main(["--home", str(home.home), "proposals", "undo"]) == 0
    capsys.readouterr()
    assert not (folder / "letter.pdf").exists(), "the letter's undo takes its files away"
    assert (folder / "resume.pdf").read_bytes() == before, "same text, same bytes"


def test_a_pdf_the_user_replaced_is_kept_and_the_new_one_goes_beside_it(
        home: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    folder = prepare(home, capsys)
    (folder / "resume.pdf").write_bytes(b"%PDF-1.7 my own export\n")
    (home.home / "resume.md").write_text(RESUME + "- Wrote the on-call guide.\n")
    assert cli.main(["--home", str(home.home), "prepare"]) == 0
    out = capsys.readouterr().out
    assert "resume.pdf was edited by you: it is kept, the new version is resume.pdf.new" in out
    assert (folder / "resume.pdf").read_bytes() == b"%PDF-1.7 my own export\n"
    assert "Wrote the on-call guide." in pdf_text(folder / "resume.pdf.new")


def test_a_resume_no_font_can_draw_gets_no_pdf_and_the_packet_says_why(
        home: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    (home.home / "resume.md").write_text(RESUME + "- Ran the 日本 office.\n")
    (home.home / "config.yaml").write_text("render: {formats: [pdf]}\n")
    folder = prepare(home, capsys, code=1)
    assert not (folder / "resume.pdf").exists()
    answers = (folder / "answers.md").read_text()
    assert "✗ resume.pdf: not rendered:" in answers and "U+65E5" in answers
    data = json.loads((folder / "answers.json").read_text())
    resume = next(f for f in data["fields"] if f["label"] == "Resume/CV")
    assert resume["answer"] is None and "not rendered" in resume["note"], \
        "the resume to send is missing: the field is the user's, with the reason"
    assert data["unresolved_required"] == ["Resume/CV"]


def test_docx_links_resolve_to_their_addresses(tmp_path: Path) -> None:
    source = tmp_path / "cv.md"
    source.write_text("# Ada\n[github.com/ada](https://github.com/ada) · ada@example.org\n\n"
                      "## Links\n\n- See [my site](https://ada.dev/?a=1&b=2).\n")
    assert cli.main(["--home", str(tmp_path / "none"), "render", str(source),
                     "--format", "docx"]) == 0
    document = docx.Document(io.BytesIO((tmp_path / "cv.docx").read_bytes()))
    links = [(link.text, link.url) for p in document.paragraphs for link in p.hyperlinks]
    assert links == [("github.com/ada", "https://github.com/ada"),
                     ("my site", "https://ada.dev/?a=1&b=2")]
    targets = {rel.target_ref for rel in document.part.rels.values() if rel.is_external}
    assert targets == {"https://github.com/ada", "https://ada.dev/?a=1&b=2"}
    styles = [p.style.name for p in document.paragraphs]
    assert styles[:2] == ["Title", "Normal"] and "Heading 1" in styles
    assert "List Bullet" in styles


def test_a_name_past_docxs_field_limit_still_gives_every_packet_its_documents(
        home: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    # python-docx refuses a core property (title, author) over 255 characters.
    name = "Ada " + "Augusta King Countess of Lovelace " * 9
    (home.home / "resume.md").write_text(RESUME.replace("Ada Lovelace", name.strip()))
    folder = prepare(home, capsys)
    made = docx.Document(folder / "resume.docx")
    title = made.core_properties.title
    assert len(title) <= 255 and title.endswith("…") and name.startswith(title[:-1])
    assert made.paragraphs[0].text == name.strip(), "the page itself keeps the whole name"
    assert (folder / "resume.pdf").exists()


def test_a_writer_that_fails_is_that_documents_result_not_an_error_out_of_prepare(
        home: Workspace, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from jobtracker.render import word

    def refuses(*_args: object) -> bytes:
        raise ValueError("a limit nobody foresaw")

    monkeypatch.setattr(word, "word", refuses)
    # The packet is made (a failed document may make the command's exit 1, §20).
    assert cli.main(["--home", str(home.home), "prepare", "--json"]) in (0, 1)
    (item,) = json.loads(capsys.readouterr().out)
    folder = home.home / item["path"]
    assert (folder / "resume.pdf").exists() and not (folder / "resume.docx").exists()
    answers = (folder / "answers.md").read_text()
    assert ("✗ resume.docx: not rendered: resume.md could not be rendered: ValueError: "
            "a limit nobody foresaw") in answers


def test_a_missing_resume_is_marked_and_prepare_says_which_packet_and_exits_1(
        home: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    """The PDF and DOCX rendered before stay (nothing is deleted without a new one in
    its place), the resume field is ✗ with the reason, the packet is named on stderr."""
    folder = prepare(home, capsys)
    rendered = {name: (folder / name).read_bytes()
                for name in ("resume.pdf", "resume.docx", "resume.md")}
    (home.home / "resume.md").unlink()
    assert cli.main(["--home", str(home.home), "prepare", "--json"]) == 1
    out = capsys.readouterr()
    (item,) = json.loads(out.out)
    assert f"packet {item['path']} (posting {item['posting']}) is not ready: resume.md: " \
        "missing" in out.err
    assert item["unresolved_required"] == ["Resume/CV"]
    for name, data in rendered.items():
        assert (folder / name).read_bytes() == data, f"{name} was kept"
    answers = (folder / "answers.md").read_text().replace("\\", "")   # as a viewer shows it
    assert "- ✗ Resume/CV (required): — resume.md: missing: the workspace has no resume.md" \
        in answers
    assert "✓ Resume/CV" not in answers and "- ✗ resume.md: missing:" in answers
    assert cli.main(["--home", str(home.home), "prepare"]) == 1
    out = capsys.readouterr()
    assert "not ready: resume.md: missing: the workspace has no resume.md" in out.out
    assert "jobtracker: prepare: packet applications/" in out.err


def test_a_pdf_that_failed_its_read_back_is_not_sent_as_if_it_were_fine(
        home: Workspace, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A text layer that lost the contact line (as a broken font table would): the PDF
    is written, said ✗ with what is missing, and the resume field is not ✓."""
    import dataclasses

    from jobtracker.render import check

    real = check.read

    def lossy(pdf: bytes) -> check.Layer:
        layer = real(pdf)
        return dataclasses.replace(layer, text=layer.text.replace("ada@example.org", ""))

    monkeypatch.setattr(check, "read", lossy)
    folder = prepare(home, capsys, code=1)
    answers = (folder / "answers.md").read_text()
    assert "- ✗ resume.pdf (1 page): read back, resume.md:" in answers
    assert "is missing from its text layer" in answers
    assert "✓ Resume/CV" not in answers and "✗ Resume/CV (required)" in answers
    data = json.loads((folder / "answers.json").read_text())
    resume = next(f for f in data["fields"] if f["label"] == "Resume/CV")
    assert resume["answer"] is None and "read back" in resume["note"]
    assert resume["files"][0] == "resume.pdf", "the file is there, to look at"
