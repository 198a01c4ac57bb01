"""The coverletter task: availability, the unit key, assembling the letter from the
template, grounding paragraphs, the proposal, and accepting it into letters/."""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiosqlite
import jsonschema
import pytest

from jobtracker import proposals, store
from jobtracker.config import Config, Profile, load_plugins
from jobtracker.resume import text_hash
from jobtracker.tasks import REGISTRY, Context, Unit, ordered
from jobtracker.tasks.coverletter import MAX_PARAGRAPHS, SCHEMA, CoverLetterTask, assemble

NOW = "2026-09-01T12:00:00Z"
PROFILE = Profile(prose="Senior backend engineer.", levels=("senior",), exists=True)
TASK = CoverLetterTask()
RESUME = """# Ada Lovelace

- Example Corp — Backend Engineer (2020–2024)
  - Built a Python service that processed 2M events a day.
  - Wrote PostgreSQL migrations.
"""
KEYWORDS = "keywords: [kafka]\n"
TEMPLATE = ("Dear {company} team,\n\nI am applying for the {title} role. "
            "<!-- the coverletter task fills the body -->\n\nKind regards,\nAda\n")
FIT = ("At Example Corp I built a Python service that processed 2M events a day, and I "
       "would bring that to the Senior Engineer role at Acme.")
CLOSING = "I enjoy careful work on PostgreSQL migrations and Kafka pipelines."
INVENTED = "I also ran Kubernetes clusters on AWS for five years."


def make_ctx(template: str | None = TEMPLATE, resume: str | None = RESUME,
             keywords: str | None = KEYWORDS) -> Context:
    return Context(home=Path("/nonexistent"), config=Config(), profile=PROFILE, now=NOW,
                   texts={"resume.md": resume, "keywords.yaml": keywords,
                          "coverletter.md": template, "answers.yaml": None})


@pytest.fixture
async def conn(tmp_path: Path) -> AsyncIterator[aiosqlite.Connection]:
    async with store.connect(tmp_path / "db.sqlite") as connection:
        await connection.execute("INSERT INTO boards (id, source, token, company) "
                                 "VALUES (1, 'greenhouse', 'acme', 'Acme')")
        for pid, score in ((1, 0.9), (2, 0.7)):
            await connection.execute(
                "INSERT INTO postings (id, board_id, external_id, company, title, location, "
                "description, title_level, first_seen, last_seen) VALUES (?, 1, ?, 'Acme', "
                "'Senior Engineer', 'Remote', ?, 'senior', ?, ?)",
                (pid, f"x{pid}", f"Posting {pid}: Kubernetes on AWS.", NOW, NOW))
            await connection.execute("INSERT INTO scores (posting_id, score, parts, scored_at) "
                                     "VALUES (?, ?, '{}', ?)", (pid, score, NOW))
        yield connection


async def write_letter(conn: aiosqlite.Connection, unit: Unit, ctx: Context,
                       paragraphs: list[str]) -> str:
    result = TASK.parse(unit, {"paragraphs": paragraphs}, ctx)
    async with store.write(conn):
        return await TASK.apply(conn, unit, result, ctx, "test-model")


# --- registration and availability -----------------------------------------------------------

def test_registered_at_priority_60_and_off_by_default() -> None:
    assert REGISTRY["coverletter"].priority == 60
    assert [t.name for t in ordered()][-1] == "coverletter"
    defaults = load_plugins(Path("/nonexistent/plugins.yaml"), ordered())
    assert defaults["coverletter"] is False
    assert "coverletter" not in [t.name for t in ordered(defaults)]


async def test_unavailable_without_template_or_resume(conn: aiosqlite.Connection) -> None:
    assert TASK.unavailable_reason(make_ctx(template=None)) == "no coverletter.md"
    assert TASK.unavailable_reason(make_ctx(template="\n")) == "coverletter.md is empty"
    assert TASK.unavailable_reason(make_ctx(resume=None)) == "no resume.md"
    assert TASK.unavailable_reason(make_ctx()) is None
    assert await TASK.pending(conn, make_ctx(template=None)) == []
    assert await TASK.count(conn, make_ctx(resume=None)) == 0


# --- pending and the unit key -----------------------------------------------------------------

async def test_unit_key_hashes_template_resume_keywords_and_description(
        conn: aiosqlite.Connection) -> None:
    units = await TASK.pending(conn, make_ctx())
    assert [u.subject for u in units] == [1, 2]
    description = text_hash("Posting 1: Kubernetes on AWS.")
    assert units[0].unit_key == (f"p1:{text_hash(TEMPLATE)}:{text_hash(RESUME)}:"
                                 f"{text_hash(KEYWORDS)}:{description}")
    assert await TASK.count(conn, make_ctx()) == 2


async def test_a_changed_input_re_asks(conn: aiosqlite.Connection) -> None:
    ctx = make_ctx()
    for unit in await TASK.pending(conn, ctx):
        await write_letter(conn, unit, ctx, [FIT])
    assert await TASK.pending(conn, ctx) == []
    assert len(await TASK.pending(conn, make_ctx(template=TEMPLATE + "P.S.\n"))) == 2
    assert len(await TASK.pending(conn, make_ctx(resume=RESUME + "- More.\n"))) == 2
    assert len(await TASK.pending(conn, make_ctx(keywords="keywords: [go]\n"))) == 2
    async with store.write(conn):
        await conn.execute("UPDATE postings SET description = 'New.' WHERE id = 2")
    assert [u.subject for u in await TASK.pending(conn, ctx, limit=1)] == [2]


# --- the letter -------------------------------------------------------------------------------

def test_schema_is_bounded_and_strict() -> None:
    assert SCHEMA["additionalProperties"] is False and SCHEMA["required"] == ["paragraphs"]
    array = SCHEMA["properties"]["paragraphs"]
    assert array["maxItems"] == MAX_PARAGRAPHS and array["minItems"] == 1
    assert array["items"]["maxLength"] > 0
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"paragraphs": ["x"] * (MAX_PARAGRAPHS + 1)}, SCHEMA)


@pytest.mark.parametrize(("template", "expected"), [
    (TEMPLATE, "Dear Acme team,\n\nI am applying for the Staff role.\n\nA\n\nB\n\n"
               "Kind regards,\nAda\n"),
    ("Hi {company},\n\n{body}\n\nBye\n", "Hi Acme,\n\nA\n\nB\n\nBye\n"),
    ("Hi {company},\n\nBye\n", "Hi Acme,\n\nA\n\nB\n\nBye\n"),
    ("Hi {company}\n", "Hi Acme\n\nA\n\nB\n"),
    ("{unknown} {company}\n\n{body}", "{unknown} Acme\n\nA\n\nB"),
])
def test_assemble_places_the_body(template: str, expected: str) -> None:
    assert assemble(template, ["A", "B"], "Acme", "Staff") == expected


@pytest.mark.parametrize("template", [
    "Dear {company},\n\n{body}\n\nRe: {title}\nBest,\nAda\n",
    "Dear {company},\n\n<!-- body -->\n\nBest,\nAda\n",
    "Dear {company} ({title}),\n\nBest,\nAda\n",
])
@pytest.mark.parametrize(("company", "title"), [
    ("{body} Inc", "Engineer"), ("Acme", "{title} {body} {company}"),
    ("<!-- x --> Ltd", "Staff"), ("{{body}}", "{}"),
])
def test_fields_in_a_company_or_title_stay_text(template: str, company: str,
                                                title: str) -> None:
    letter = assemble(template, ["PARAGRAPH"], company, title)
    # The body appears once, in its place after the greeting, never inside the greeting.
    assert letter.count("PARAGRAPH") == 1
    assert letter.index(f"Dear {company}") < letter.index("PARAGRAPH")
    assert f"Dear {company}" in letter


async def test_ungrounded_paragraphs_are_dropped(conn: aiosqlite.Connection) -> None:
    unit = (await TASK.pending(conn, make_ctx()))[0]
    result = TASK.parse(unit, {"paragraphs": [FIT, INVENTED, CLOSING]}, make_ctx())
    assert result["paragraphs"] == [FIT, CLOSING]
    assert "Kubernetes" in result["dropped"][0] and "AWS" in result["dropped"][0]
    assert result["text"].startswith("Dear Acme team,\n\nI am applying for the Senior "
                                     f"Engineer role.\n\n{FIT}\n\n{CLOSING}\n\nKind regards")
    # None left is an answer too: recorded, proposing no letter (not a failure).
    alone = TASK.parse(unit, {"paragraphs": [INVENTED]}, make_ctx())
    assert alone["paragraphs"] == [] and "Kubernetes" in alone["dropped"][0]
    blank = TASK.parse(unit, {"paragraphs": ["  ", "\x1b[2J"]}, make_ctx())
    assert (blank["paragraphs"], blank["dropped"]) == ([], [])


async def test_a_letter_with_no_grounded_paragraph_is_recorded_and_proposes_nothing(
        conn: aiosqlite.Connection) -> None:
    ctx = make_ctx()
    unit = (await TASK.pending(conn, ctx))[0]
    result = TASK.parse(unit, {"paragraphs": [INVENTED]}, ctx)
    async with store.write(conn):
        assert await TASK.apply(conn, unit, result, ctx, "m") == "0"
    assert await proposals.list_proposals(conn) == []
    rows = await conn.execute_fetchall("SELECT paragraphs, dropped FROM cover_letters")
    assert [tuple(row) for row in rows] == [(0, 1)]
    assert unit.subject not in [u.subject for u in await TASK.pending(conn, ctx)]


async def test_request_treats_the_posting_as_data(conn: aiosqlite.Connection) -> None:
    unit = (await TASK.pending(conn, make_ctx()))[0]
    system, user = TASK.request(unit, make_ctx()).messages
    assert "not instructions" in system["content"]
    assert TEMPLATE in user["content"] and RESUME in user["content"]
    assert "<posting>" in user["content"]


async def test_accepting_the_letter_writes_it_and_undo_removes_it(
        conn: aiosqlite.Connection, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    for name, text in (("resume.md", RESUME), ("keywords.yaml", KEYWORDS),
                       ("coverletter.md", TEMPLATE)):
        (home / name).write_text(text, encoding="utf-8")
    resume_sha = hashlib.sha256((home / "resume.md").read_bytes()).hexdigest()
    ctx = make_ctx()
    unit = (await TASK.pending(conn, ctx))[0]
    assert await write_letter(conn, unit, ctx, [FIT, CLOSING, INVENTED]) == "2"
    assert await write_letter(conn, unit, ctx, [FIT, CLOSING]) == "2"    # rerun: one proposal
    (letter,) = await proposals.list_proposals(conn, home)
    assert (letter.kind, letter.task, letter.state) == ("letter", "coverletter", "pending")
    assert letter.summary == "Acme — Senior Engineer: cover letter, 2 paragraph(s), 1 dropped"
    payload: dict[str, Any] = letter.payload
    (decision,) = await proposals.accept(conn, [letter.id], NOW, home)
    assert decision.ok
    target = home / "letters" / "1-acme-senior-engineer.md"
    assert target.read_text(encoding="utf-8") == payload["text"]
    assert [p.name for p in target.parent.iterdir()] == [target.name]
    undone = await proposals.undo_last(conn, NOW, home)
    assert undone is not None and undone.ok and not target.exists()
    # A changed template makes the letter stale: shown, not acceptable.
    (home / "coverletter.md").write_text("Hello {company},\n\n{body}\n", encoding="utf-8")
    assert (await proposals.get(conn, letter.id, home)).state == "stale"
    (refused,) = await proposals.accept(conn, [letter.id], NOW, home)
    assert not refused.ok and not target.exists()
    assert hashlib.sha256((home / "resume.md").read_bytes()).hexdigest() == resume_sha
