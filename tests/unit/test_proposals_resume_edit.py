"""The resume_edit kind: accepting writes the tailored file, undo rewrites or removes
it, a hand-edited file is never overwritten, and an edit goes stale with its inputs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiosqlite
import tailoring_samples
from tailoring_samples import NOW, RESUME, accept, hashes, sha

from jobtracker import proposals, store

# The shared fixtures, bound here by name so that pytest finds them in this file.
home, conn = tailoring_samples.home, tailoring_samples.conn


async def propose_edit(conn: aiosqlite.Connection, home: Path, item: int, original: str,
                       replacement: str, **extra: Any) -> int:
    async with store.write(conn):
        return await proposals.create(
            conn, kind="resume_edit", task="tailor", unit_key="p7:k", item=item, now=NOW,
            posting_id=7, summary=f"edit {item}",
            payload={"original": original, "replacement": replacement, "reason": "fit",
                     "company": "Acme", "title": "Senior Engineer", "posting_id": 7,
                     **hashes(home), **extra})


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


async def test_an_edit_whose_own_line_is_unchanged_stays_acceptable_after_a_resume_edit(
        conn: aiosqlite.Connection, home: Path) -> None:
    pid = await propose_edit(conn, home, 0, "Cut costs in half.", "Halved costs.")
    changed = RESUME + "\nA new line.\n"
    (home / "resume.md").write_text(changed, encoding="utf-8")
    kept = await proposals.get(conn, pid, home)
    assert kept.state == "pending", kept.stale_reason
    detail = await proposals.detail(conn, kept, home)
    assert any("resume.md changed since this edit was made" in line.plain for line in detail)
    assert (await accept(conn, home, pid)).ok
    assert (home / TAILORED).read_text(encoding="utf-8") == changed.replace(
        "Cut costs in half.", "Halved costs.")


async def test_an_edit_is_stale_once_the_resume_changes_its_own_line(
        conn: aiosqlite.Connection, home: Path) -> None:
    pid = await propose_edit(conn, home, 0, "Cut costs in half.", "Halved costs.")
    (home / "resume.md").write_text(RESUME.replace("Cut costs in half.", "Cut costs by 40%."),
                                    encoding="utf-8")
    stale = await proposals.get(conn, pid, home)
    assert stale.state == "stale"
    assert stale.stale_reason.startswith("resume.md changed since it was made: the original "
                                         "is not a line, bullet or sentence")
    refused = await accept(conn, home, pid)
    assert not refused.ok and "stale" in refused.message
    assert not (home / "tailored").exists() or list((home / "tailored").iterdir()) == []
    (home / "resume.md").unlink()
    assert (await proposals.get(conn, pid, home)).stale_reason == "resume.md is missing"


async def test_an_edit_is_stale_once_the_new_resume_no_longer_grounds_its_replacement(
        conn: aiosqlite.Connection, home: Path) -> None:
    pid = await propose_edit(conn, home, 0, "Cut costs in half.",
                             "Cut costs in half with PostgreSQL.")
    assert (await proposals.get(conn, pid, home)).state == "pending"
    (home / "resume.md").write_text(RESUME.replace("  - Wrote PostgreSQL migrations.\n", "")
                                    .replace("Python, PostgreSQL, distributed", "Python, "
                                             "distributed"), encoding="utf-8")
    stale = await proposals.get(conn, pid, home)
    assert stale.state == "stale" and "PostgreSQL" in stale.stale_reason


async def test_a_newer_tailor_answer_for_the_posting_supersedes_a_pending_edit(
        conn: aiosqlite.Connection, home: Path) -> None:
    pid = await propose_edit(conn, home, 0, "Cut costs in half.", "Halved costs.")
    (home / "resume.md").write_text(RESUME + "\nA new line.\n", encoding="utf-8")
    assert (await proposals.get(conn, pid, home)).state == "pending"
    async with store.write(conn):      # tailor answered again, for the new resume
        await conn.execute(
            "INSERT INTO resume_suggestions (posting_id, unit_key, resume_hash, keywords_hash, "
            "description_hash, edits, dropped, model, prompt_version, tailored_at) "
            "VALUES (7, 'p7:new', 'r', 'k', 'd', 1, 0, 'm', 'v', ?)", (NOW,))
    stale = await proposals.get(conn, pid, home)
    assert stale.state == "stale" and "newer tailor answer" in stale.stale_reason


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
