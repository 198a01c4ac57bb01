"""jobtracker.resume (the resume's pieces, grounding, applying edits, keywords),
jobtracker.files (slugs, atomic files), and the 'resume_edit' and 'letter' proposal
kinds (accept, undo, staleness)."""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from jobtracker import proposals, store
from jobtracker.files import slug, write_atomic
from jobtracker.resume import text_hash
from jobtracker.resume.grounding import (
    Edit,
    Grounding,
    Ungrounded,
    apply_edits,
    ground_edit,
    locate,
    pieces,
    proper_terms,
)
from jobtracker.resume.keywords import KeywordsError, keyword_terms

NOW = "2026-09-01T12:00:00Z"
RESUME = """# Ada Lovelace

## Experience

- Example Corp — Backend Engineer (2020–2024)
  - Built a Python service that processed 2M events a day. Cut costs in half.
  - Ran the on-call rotation for the payments team.
  - Wrote PostgreSQL migrations.

## Skills

Python, PostgreSQL, distributed systems
"""
POSTING = ("We run Kubernetes on AWS. You will own services written in Go.\n"
           "About the Team\nOur team ships weekly.")


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# --- pieces and locating an original ---------------------------------------------------------

def test_pieces_are_lines_bullets_and_sentences() -> None:
    found = pieces(RESUME)
    assert "## Experience" in found and "Experience" in found          # a heading, unmarked
    assert "- Wrote PostgreSQL migrations." in found                   # the line
    assert "Wrote PostgreSQL migrations." in found                     # the bullet
    assert "Cut costs in half." in found                               # a sentence
    assert "Built a Python service that processed 2M events a day." in found
    assert "Python service" not in found                               # a fragment is not


def test_locate_finds_a_piece_that_occurs_once() -> None:
    start, end = locate(RESUME, "  Wrote PostgreSQL migrations.\n")
    assert RESUME[start:end] == "Wrote PostgreSQL migrations."


@pytest.mark.parametrize(("original", "why"), [
    ("Led the Kubernetes migration.", "not a line, bullet or sentence"),   # invented
    ("Python service", "not a line, bullet or sentence"),                   # a fragment
    ("Wrote PostgreSQL  migrations.", "not a line, bullet or sentence"),    # not verbatim
    ("", "empty"),
])
def test_locate_refuses_what_is_not_a_piece(original: str, why: str) -> None:
    with pytest.raises(Ungrounded, match=why):
        locate(RESUME, original)


def test_locate_refuses_an_ambiguous_original() -> None:
    resume = "- Python\n- Go\n- Python\n"
    with pytest.raises(Ungrounded, match="more than once"):
        locate(resume, "Python")


# --- grounding --------------------------------------------------------------------------------

GROUNDING = Grounding.build([RESUME, "kafka", "event sourcing"], POSTING)


@pytest.mark.parametrize(("replacement", "invented"), [
    # rewording with ordinary words, and names the resume or keywords already hold
    ("Designed and built a Python service handling 2M events a day.", []),
    ("Built a Python-based event pipeline on PostgreSQL and Kafka.", []),
    ("built scalable python services with postgresql", []),
    ("I led the payments team's on-call rotation, e.g. incident reviews.", []),
    ("Worked at Example Corp on event sourcing.", []),
    # a sentence-initial capital says nothing: an ordinary new verb passes
    ("Spearheaded the on-call rotation.", []),
    # names the resume and keywords do not hold
    ("Built a Python service on Kubernetes.", ["Kubernetes"]),
    ("Ran services on kubernetes.", ["kubernetes"]),       # the posting's name, lower-cased
    ("Kubernetes operator for the payments team.", ["Kubernetes"]),   # the posting's, initial
    ("Wrote services in C++ and C# with Node.js.", ["C++", "C#", "Node.js"]),
    ("Shipped on AWS and GitHub Actions.", ["AWS", "GitHub", "Actions"]),
    ("Worked at Google on payments.", ["Google"]),
    ("Cut latency by 40% for 3M users.", ["40", "3M"]),
    ("Ran a k8s cluster.", ["k8s"]),
])
def test_grounding_flags_names_absent_from_resume_and_keywords(
        replacement: str, invented: list[str]) -> None:
    assert GROUNDING.invented(replacement) == invented


def test_a_posting_word_it_also_writes_in_lower_case_is_not_a_name() -> None:
    # "Team" is capitalized in a heading but "team" appears too: an ordinary word.
    assert proper_terms(POSTING) >= {"kubernetes", "aws", "go"}
    assert "team" not in proper_terms(POSTING)
    assert "about" not in proper_terms(POSTING)


def test_ground_edit_keeps_a_grounded_edit_and_strips_a_copied_marker() -> None:
    edit = ground_edit(RESUME, GROUNDING, "  - Wrote PostgreSQL migrations.",
                       "- Wrote and reviewed PostgreSQL schema migrations.")
    assert edit.original == "Wrote PostgreSQL migrations."
    assert edit.replacement == "Wrote and reviewed PostgreSQL schema migrations."
    assert RESUME[edit.start:edit.end] == edit.original


@pytest.mark.parametrize(("original", "replacement", "why"), [
    ("Led the platform team.", "Led the platform team well.", "not a line"),
    ("Wrote PostgreSQL migrations.", "Wrote PostgreSQL migrations on AWS.", "AWS"),
    ("Wrote PostgreSQL migrations.", "   ", "empty"),
    ("Wrote PostgreSQL migrations.", "Wrote PostgreSQL migrations.", "changes nothing"),
])
def test_ground_edit_drops_what_does_not_ground(original: str, replacement: str,
                                                why: str) -> None:
    with pytest.raises(Ungrounded, match=why):
        ground_edit(RESUME, GROUNDING, original, replacement)


# --- applying edits ---------------------------------------------------------------------------

def edit(resume: str, original: str, replacement: str) -> Edit:
    start, end = locate(resume, original)
    return Edit(original, replacement, start, end)


def test_edits_apply_in_document_order_whatever_order_given() -> None:
    first = edit(RESUME, "Cut costs in half.", "Halved hosting costs.")
    second = edit(RESUME, "Wrote PostgreSQL migrations.", "Owned PostgreSQL migrations.")
    expected = (RESUME.replace("Cut costs in half.", "Halved hosting costs.")
                .replace("Wrote PostgreSQL migrations.", "Owned PostgreSQL migrations."))
    assert apply_edits(RESUME, [second, first]) == expected
    assert apply_edits(RESUME, [first, second]) == expected
    # A longer replacement early on does not shift where a later edit lands.
    longer = Edit(first.original, "Halved hosting costs " * 10, first.start, first.end)
    assert "Owned PostgreSQL migrations." in apply_edits(RESUME, [second, longer])
    assert apply_edits(RESUME, []) == RESUME


def test_overlapping_edits_are_refused() -> None:
    line = edit(RESUME, "Built a Python service that processed 2M events a day. Cut costs in "
                        "half.", "x")
    sentence = edit(RESUME, "Cut costs in half.", "y")
    with pytest.raises(ValueError, match="overlap"):
        apply_edits(RESUME, [line, sentence])


# --- keywords.yaml, slugs ---------------------------------------------------------------------

def test_keyword_terms_from_any_nesting() -> None:
    assert keyword_terms("keywords: [python, postgresql, kubernetes]\n") == [
        "python", "postgresql", "kubernetes"]
    assert keyword_terms("languages: [Go, 'C++']\ntools:\n  cloud: [AWS]\n  db: sqlite\n") == [
        "Go", "C++", "AWS", "sqlite"]
    assert keyword_terms(None) == [] and keyword_terms("# only a comment\n") == []


def test_keyword_terms_name_the_line_of_bad_yaml() -> None:
    with pytest.raises(KeywordsError, match=r"keywords.yaml: line 2: invalid YAML"):
        keyword_terms("keywords: [python,\n  : oops: ]\n")


@pytest.mark.parametrize(("parts", "expected"), [
    (("Acme", "Senior Engineer"), "acme-senior-engineer"),
    (("Zürich Labs", "Sr. Engineer (Payments) / API"), "zurich-labs-sr-engineer-payments-api"),
    (("../../etc", "passwd"), "etc-passwd"),
    (("", None), "posting"),
    (("日本",), "posting"),
])
def test_slug(parts: tuple[str | None, ...], expected: str) -> None:
    assert slug(*parts) == expected


def test_slug_is_bounded() -> None:
    assert len(slug("a" * 50, "b" * 50)) <= 60


# --- atomic files -----------------------------------------------------------------------------

def test_write_atomic_replaces_the_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "tailored" / "1-acme.md"
    write_atomic(target, "first\n")
    write_atomic(target, "second\n")
    assert target.read_text(encoding="utf-8") == "second\n"
    assert [p.name for p in target.parent.iterdir()] == ["1-acme.md"]


def test_write_atomic_failure_keeps_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "1-acme.md"
    write_atomic(target, "old\n")
    with pytest.raises(UnicodeEncodeError):
        write_atomic(target, "new \ud800 text")      # cannot be encoded: fails mid-write
    assert target.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["1-acme.md"]


# --- the proposal kinds -----------------------------------------------------------------------

@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    (folder / "resume.md").write_text(RESUME, encoding="utf-8")
    (folder / "keywords.yaml").write_text("keywords: [kafka]\n", encoding="utf-8")
    (folder / "coverletter.md").write_text("Dear {company},\n\n{body}\n\nAda\n",
                                           encoding="utf-8")
    return folder


@pytest.fixture
async def conn(tmp_path: Path) -> AsyncIterator[aiosqlite.Connection]:
    async with store.connect(tmp_path / "db.sqlite") as connection:
        await connection.execute("INSERT INTO boards (id, source, token, company) "
                                 "VALUES (1, 'greenhouse', 'acme', 'Acme')")
        await connection.execute(
            "INSERT INTO postings (id, board_id, external_id, company, title, first_seen, "
            "last_seen, description) VALUES (7, 1, 'x7', 'Acme', 'Senior Engineer', ?, ?, ?)",
            (NOW, NOW, POSTING))
        yield connection


def hashes(home: Path) -> dict[str, str]:
    return {"resume_hash": text_hash((home / "resume.md").read_text(encoding="utf-8")),
            "keywords_hash": text_hash((home / "keywords.yaml").read_text(encoding="utf-8")),
            "description_hash": text_hash(POSTING)}


async def propose_edit(conn: aiosqlite.Connection, home: Path, item: int, original: str,
                       replacement: str, **extra: Any) -> int:
    async with store.write(conn):
        return await proposals.create(
            conn, kind="resume_edit", task="tailor", unit_key="p7:k", item=item, now=NOW,
            posting_id=7, summary=f"edit {item}",
            payload={"original": original, "replacement": replacement, "reason": "fit",
                     "company": "Acme", "title": "Senior Engineer", "posting_id": 7,
                     **hashes(home), **extra})


async def accept(conn: aiosqlite.Connection, home: Path, pid: int) -> proposals.Decision:
    (decision,) = await proposals.accept(conn, [pid], NOW, home)
    return decision


TAILORED = "tailored/7-acme-senior-engineer.md"


async def test_accepting_edits_writes_and_rewrites_the_tailored_file(
        conn: aiosqlite.Connection, home: Path) -> None:
    before = sha(home / "resume.md")
    late = await propose_edit(conn, home, 0, "Wrote PostgreSQL migrations.",
                              "Owned PostgreSQL schema migrations.")
    early = await propose_edit(conn, home, 1, "Cut costs in half.", "Halved hosting costs.")
    assert (await accept(conn, home, late)).ok
    target = home / TAILORED
    assert target.read_text(encoding="utf-8") == RESUME.replace(
        "Wrote PostgreSQL migrations.", "Owned PostgreSQL schema migrations.")
    assert (await accept(conn, home, early)).ok          # more later: the file is rewritten
    assert target.read_text(encoding="utf-8") == (
        RESUME.replace("Wrote PostgreSQL migrations.", "Owned PostgreSQL schema migrations.")
        .replace("Cut costs in half.", "Halved hosting costs."))
    assert [p.name for p in (home / "tailored").iterdir()] == [target.name]   # no temp left
    assert sha(home / "resume.md") == before


async def test_an_edit_overlapping_an_accepted_one_is_refused(
        conn: aiosqlite.Connection, home: Path) -> None:
    sentence = await propose_edit(conn, home, 0, "Cut costs in half.", "Halved costs.")
    line = await propose_edit(
        conn, home, 1, "Built a Python service that processed 2M events a day. Cut costs in "
                       "half.", "Built a lean Python service.")
    assert (await accept(conn, home, sentence)).ok
    written = (home / TAILORED).read_text(encoding="utf-8")
    refused = await accept(conn, home, line)
    assert not refused.ok
    assert f"accepted proposal {sentence} already changes" in refused.message
    assert (await proposals.get(conn, line, home)).state == "pending"
    assert (home / TAILORED).read_text(encoding="utf-8") == written


async def test_undo_rewrites_then_removes_the_tailored_file(
        conn: aiosqlite.Connection, home: Path) -> None:
    before = sha(home / "resume.md")
    first = await propose_edit(conn, home, 0, "Cut costs in half.", "Halved costs.")
    second = await propose_edit(conn, home, 1, "Wrote PostgreSQL migrations.", "Owned them.")
    await accept(conn, home, first)
    await accept(conn, home, second)
    undone = await proposals.undo_last(conn, NOW, home)
    assert undone is not None and undone.ok and undone.id == second
    assert (home / TAILORED).read_text(encoding="utf-8") == RESUME.replace(
        "Cut costs in half.", "Halved costs.")
    undone = await proposals.undo_last(conn, NOW, home)
    assert undone is not None and undone.ok and undone.id == first
    assert not (home / TAILORED).exists()
    assert list((home / "tailored").iterdir()) == []
    assert (await proposals.get(conn, first, home)).state == "pending"
    assert sha(home / "resume.md") == before


async def test_a_hand_edited_tailored_file_is_never_overwritten(
        conn: aiosqlite.Connection, home: Path) -> None:
    first = await propose_edit(conn, home, 0, "Cut costs in half.", "Halved costs.")
    second = await propose_edit(conn, home, 1, "Wrote PostgreSQL migrations.", "Owned them.")
    await accept(conn, home, first)
    (home / TAILORED).write_text("my own version\n", encoding="utf-8")
    refused = await accept(conn, home, second)
    assert not refused.ok and "changed or made by hand" in refused.message
    assert (home / TAILORED).read_text(encoding="utf-8") == "my own version\n"


async def test_an_edit_is_stale_once_the_resume_changes(
        conn: aiosqlite.Connection, home: Path) -> None:
    pid = await propose_edit(conn, home, 0, "Cut costs in half.", "Halved costs.")
    assert (await proposals.get(conn, pid, home)).state == "pending"
    (home / "resume.md").write_text(RESUME + "\nA new line.\n", encoding="utf-8")
    stale = await proposals.get(conn, pid, home)
    assert stale.state == "stale" and stale.stale_reason == "resume.md changed since it was made"
    refused = await accept(conn, home, pid)
    assert not refused.ok and "stale" in refused.message
    assert not (home / "tailored").exists() or list((home / "tailored").iterdir()) == []
    (home / "resume.md").unlink()
    assert (await proposals.get(conn, pid, home)).stale_reason == "resume.md is missing"


async def test_an_edit_is_stale_once_keywords_or_the_description_change(
        conn: aiosqlite.Connection, home: Path) -> None:
    pid = await propose_edit(conn, home, 0, "Cut costs in half.", "Halved costs.")
    (home / "keywords.yaml").write_text("keywords: [kafka, go]\n", encoding="utf-8")
    assert (await proposals.get(conn, pid, home)).stale_reason == (
        "keywords.yaml changed since it was made")
    (home / "keywords.yaml").write_text("keywords: [kafka]\n", encoding="utf-8")
    assert (await proposals.get(conn, pid, home)).state == "pending"
    async with store.write(conn):
        await conn.execute("UPDATE postings SET description = 'New text.' WHERE id = 7")
    assert (await proposals.get(conn, pid, home)).stale_reason == (
        "the posting's description changed since it was made")


async def test_accept_without_a_workspace_folder_is_refused(conn: aiosqlite.Connection,
                                                            home: Path) -> None:
    pid = await propose_edit(conn, home, 0, "Cut costs in half.", "Halved costs.")
    (decision,) = await proposals.accept(conn, [pid], NOW, None)
    assert not decision.ok and "no workspace folder" in decision.message


async def propose_letter(conn: aiosqlite.Connection, home: Path, text: str,
                         unit_key: str = "p7:l") -> int:
    async with store.write(conn):
        return await proposals.create(
            conn, kind="letter", task="coverletter", unit_key=unit_key, now=NOW, posting_id=7,
            summary="letter", payload={
                "text": text, "company": "Acme", "title": "Senior Engineer", "posting_id": 7,
                "template_hash": text_hash((home / "coverletter.md").read_text()),
                **hashes(home)})


async def test_letters_are_written_on_accept_and_taken_back_on_undo(
        conn: aiosqlite.Connection, home: Path) -> None:
    before = sha(home / "resume.md")
    first = await propose_letter(conn, home, "Dear Acme,\n\nFirst.\n")
    second = await propose_letter(conn, home, "Dear Acme,\n\nSecond.\n", unit_key="p7:m")
    target = home / "letters" / "7-acme-senior-engineer.md"
    assert (await accept(conn, home, first)).ok
    assert target.read_text(encoding="utf-8") == "Dear Acme,\n\nFirst.\n"
    assert (await accept(conn, home, second)).ok
    assert target.read_text(encoding="utf-8") == "Dear Acme,\n\nSecond.\n"
    assert (await proposals.undo_last(conn, NOW, home)).ok
    assert target.read_text(encoding="utf-8") == "Dear Acme,\n\nFirst.\n"   # the one before
    assert (await proposals.undo_last(conn, NOW, home)).ok
    assert not target.exists() and list(target.parent.iterdir()) == []
    assert sha(home / "resume.md") == before


async def test_a_letter_is_stale_once_the_template_changes(
        conn: aiosqlite.Connection, home: Path) -> None:
    pid = await propose_letter(conn, home, "Dear Acme,\n")
    (home / "coverletter.md").write_text("Hello {company},\n\n{body}\n", encoding="utf-8")
    assert (await proposals.get(conn, pid, home)).stale_reason == (
        "coverletter.md changed since it was made")
    assert not (await accept(conn, home, pid)).ok
    assert not (home / "letters").exists()
