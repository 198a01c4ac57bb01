"""The answer task: which questions of prepared packets it drafts, its bounds, the
grounding (claims in the resume, the posting only where quoted), the proposal, and
accepting it into the packet (source "proposal")."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import jsonschema
import pytest

from jobtracker import proposals, store
from jobtracker.config import Config, Profile
from jobtracker.prepare.forms import Field, Form
from jobtracker.prepare.resolve import free_text
from jobtracker.tasks import REGISTRY, Context, NoAnswer, ordered
from jobtracker.tasks.answer import MAX_WORDS, SCHEMA, TASK, bounded, limits

NOW = "2026-09-01T12:00:00Z"
RESUME = ("# Ada Lovelace\n\n## Experience\n\n- Built a Python service that processed 2M "
          "events a day.\n- Led a team of three engineers through an on-call rotation.\n")
DESCRIPTION = ("Acme builds payment infrastructure for small shops. We are hiring a Senior "
               "Engineer to own our Ledgerline settlement engine. You will work in Python.")
QUESTIONS = [
    Field("First Name", "first_name", "input_text", True),
    Field("LinkedIn Profile", "q_linkedin", "input_text"),
    Field("Why do you want to work at Acme?", "q_why", "textarea", True),
    Field("Describe a project you led (in 50 words)", "q_led", "textarea"),
    Field("How did you hear about this job?", "q_hear", "input_text"),
    Field("Gender", "gender", "multi_value_single_select", options=("Decline",),
          section="demographic"),
    Field("Resume/CV", "resume", "input_file", True),
]
ANSWERS = ("identity: {first_name: Ada}\nquestions:\n"
           "  - {match: \"how did you hear\", answer: \"Your careers page\"}\n")


def make_ctx(resume: str = RESUME, answers: str | None = ANSWERS) -> Context:
    return Context(home=Path("/nonexistent"), config=Config(),
                   profile=Profile(prose="x", exists=True), now=NOW,
                   texts={"resume.md": resume, "keywords.yaml": "keywords: [kafka]\n",
                          "coverletter.md": None, "answers.yaml": answers})


@pytest.fixture
async def conn(tmp_path: Path) -> AsyncIterator[aiosqlite.Connection]:
    async with store.connect(tmp_path / "db.sqlite") as connection:
        await connection.execute("INSERT INTO boards (id, source, token, company) "
                                 "VALUES (1, 'greenhouse', 'acme', 'Acme')")
        for pid in (1, 2, 3):
            await connection.execute(
                "INSERT INTO postings (id, board_id, external_id, company, title, location, "
                "description, first_seen, last_seen) VALUES (?, 1, ?, 'Acme', "
                "'Senior Engineer', 'Remote', ?, ?, ?)", (pid, f"x{pid}", DESCRIPTION, NOW, NOW))
            row = await (await connection.execute(
                "SELECT description_hash FROM postings WHERE id = ?", (pid,))).fetchone()
            await connection.execute(
                "INSERT INTO forms (posting_id, description_hash, url, form, error, fetched_at) "
                "VALUES (?, ?, 'u', ?, NULL, ?)",
                (pid, row[0], json.dumps(Form("greenhouse", tuple(QUESTIONS)).to_json()), NOW))
        # Postings 1 and 2 have packets; 3 was never prepared. 2 is closed.
        for pid in (1, 2):
            await connection.execute(
                "INSERT INTO written_files (path, posting_id, content_hash, written_at) "
                "VALUES (?, ?, 'h', ?)", (f"applications/{pid}-acme/answers.json", pid, NOW))
        await connection.execute("UPDATE postings SET closed_at = ? WHERE id = 2", (NOW,))
        await connection.commit()
        yield connection


def test_the_task_is_registered_after_tailor_with_priority_55() -> None:
    assert REGISTRY["answer"] is TASK and TASK.priority == 55
    names = [t.name for t in ordered()]
    assert names.index("tailor") < names.index("answer") < names.index("coverletter")


def test_only_free_text_questions_no_answers_yaml_key_is_for_count() -> None:
    assert [f.name for f in QUESTIONS if free_text(f)] == ["q_why", "q_led", "q_hear"]


async def test_units_are_the_unresolved_free_text_questions_of_open_prepared_packets(
        conn: aiosqlite.Connection) -> None:
    units = await TASK.pending(conn, make_ctx())
    assert [(u.subject, u.data["name"]) for u in units] == [(1, "q_why"), (1, "q_led")]
    why, led = units
    assert (why.data["limit"], led.data["limit"]) == (MAX_WORDS, 50)
    assert why.unit_key.startswith("p1:q") and why.unit_key != led.unit_key
    assert await TASK.count(conn, make_ctx()) == 2
    assert await TASK.pending(conn, make_ctx(), limit=1) == [why]
    other = (await TASK.pending(conn, make_ctx(resume=RESUME + "- Wrote docs.\n")))[0]
    assert other.unit_key != why.unit_key, "a resume change is a new question"


async def test_a_question_answers_yaml_now_answers_is_not_asked(
        conn: aiosqlite.Connection) -> None:
    ctx = make_ctx(answers=ANSWERS + "  - {match: \"why work acme\", answer: \"The product.\"}\n")
    assert [u.data["name"] for u in await TASK.pending(conn, ctx)] == ["q_led"]


async def test_a_question_with_a_proposal_is_not_asked_again(
        conn: aiosqlite.Connection) -> None:
    ctx = make_ctx()
    why = (await TASK.pending(conn, ctx))[0]
    async with store.write(conn):
        await TASK.apply(conn, why, TASK.parse(why, {"answer": "I built a Python service.",
                                                     "quotes": []}, ctx), ctx, "m")
    assert [u.data["name"] for u in await TASK.pending(conn, ctx)] == ["q_led"]


def test_a_bad_answers_yaml_makes_the_task_unavailable() -> None:
    reason = TASK.unavailable_reason(make_ctx(answers="eeo: male\n"))
    assert reason is not None and reason.startswith("answers.yaml:")


async def test_a_grounded_draft_becomes_one_answer_proposal(conn: aiosqlite.Connection) -> None:
    ctx = make_ctx()
    why = (await TASK.pending(conn, ctx))[0]
    quote = "We are hiring a Senior Engineer to own our Ledgerline settlement engine."
    answer = {"answer": "I want to own the Ledgerline settlement engine at Acme. I built a "
                        "Python service that processed 2M events a day.",
              "quotes": [quote, "A sentence the posting never wrote."]}
    jsonschema.validate(answer, SCHEMA)
    result = TASK.parse(why, answer, ctx)
    assert result["quotes"] == [quote], "only what the posting says is kept as a quote"
    async with store.write(conn):
        assert await TASK.apply(conn, why, result, ctx, "m") == "drafted"
    (proposal,) = await proposals.list_proposals(conn)
    assert (proposal.kind, proposal.posting_id) == ("answer", 1)
    assert proposal.payload["question"] == "Why do you want to work at Acme?"
    assert proposal.payload["name"] == "q_why" and proposal.payload["words"] == 21
    assert "answer to “Why do you want to work at Acme?”" in proposal.summary
    detail = [line.plain for line in await proposals.detail(conn, proposal)]
    assert detail[0] == "Why do you want to work at Acme?"
    assert any(quote in line for line in detail), "the posting's words it used are shown"


@pytest.mark.parametrize(("draft", "quotes", "why"), [
    ("I ran Kubernetes clusters on AWS for five years.", [], "Kubernetes"),
    ("I want to own the Ledgerline engine.", [], "Ledgerline"),
    ("I want to own the Ledgerline engine.", ["Ledgerline is great."], "not in the posting"),
    ("", [], "no draft"),
], ids=["invented skill", "unquoted posting name", "made-up quote", "empty"])
async def test_a_draft_that_claims_what_the_resume_does_not_hold_is_not_proposed(
        conn: aiosqlite.Connection, draft: str, quotes: list[str], why: str) -> None:
    ctx = make_ctx()
    unit = (await TASK.pending(conn, ctx))[0]
    with pytest.raises(NoAnswer, match=why):
        TASK.parse(unit, {"answer": draft, "quotes": quotes}, ctx)


def test_limits_come_from_the_label_and_a_long_draft_is_cut_at_a_sentence() -> None:
    assert limits(Field("Why us?", "q", "textarea")) == (MAX_WORDS, None)
    assert limits(Field("Tell us about you in 80 words", "q", "textarea")) == (80, None)
    assert limits(Field("Tell us (300 words max)", "q", "textarea")) == (MAX_WORDS, None)
    assert limits(Field("Summary", "q", "textarea", description="max 200 characters")) == (
        MAX_WORDS, 200)
    text = "One two three. Four five six seven. Eight."
    assert bounded(text, 5, None) == "One two three."
    assert bounded(text, 2, None) == ""
    assert bounded(text, 100, 20) == "One two three."


async def test_accepting_a_draft_puts_it_into_the_packet_as_source_proposal(
        tmp_path: Path) -> None:
    from jobtracker.prepare.answer_bank import parse_answers
    from jobtracker.prepare.run import packet_for, posting_rows

    home = tmp_path / "home"
    home.mkdir()
    (home / "resume.md").write_text(RESUME)
    async with store.connect(tmp_path / "db.sqlite") as db:
        await db.execute("INSERT INTO boards (id, source, token, company) "
                         "VALUES (1, 'greenhouse', 'acme', 'Acme')")
        await db.execute("INSERT INTO postings (id, board_id, external_id, company, title, "
                         "location, description, first_seen, last_seen) VALUES (1, 1, 'x', "
                         "'Acme', 'Senior Engineer', 'Remote', ?, ?, ?)", (DESCRIPTION, NOW, NOW))
        await db.commit()
        form = Form("greenhouse", tuple(QUESTIONS))
        bank = parse_answers(home / "answers.yaml", ANSWERS)
        from jobtracker.prepare.documents import Documents
        (row,) = await posting_rows(db, [1])
        async with store.write(db):
            pid = await proposals.create(
                db, kind="answer", task="answer", unit_key="k", summary="s", now=NOW,
                posting_id=1, payload={"question": "Why do you want to work at Acme?",
                                       "name": "q_why", "text": "I built a Python service."})
        await proposals.accept(db, [pid], NOW, home)
        done = await packet_for(db, home, row, bank, form, NOW, Documents())
    why = next(r for r in done.resolution.fields if r.field.name == "q_why")
    assert (why.answer, why.source) == ("I built a Python service.", "proposal")
    data = json.loads((done.written.folder / "answers.json").read_text())
    field = next(f for f in data["fields"] if f["name"] == "q_why")
    assert (field["answer"], field["source"], field["resolved"]) == (
        "I built a Python service.", "proposal", True)
    # answers.md writes the user's own words as they are, in a code span, and escapes
    # its own Markdown (docs/prepare.md): `\[proposal\]` reads "[proposal]".
    assert "`I built a Python service.`  \\[proposal\\]" in (
        done.written.folder / "answers.md").read_text()
