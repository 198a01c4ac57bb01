"""The demo model's answers, built from the question: levels from title and years,
verdicts from shared skills, replies with grounded evidence, tailor edits, answers
fitted to any schema."""

from __future__ import annotations

import email
from importlib import resources

import jsonschema
import pytest

from jobtracker.demo import data_text
from jobtracker.demo.canned_answers import fit
from jobtracker.demo.model import DemoModelServer, demo_resume, keywords_from
from jobtracker.tasks import inbox, judge, level
from jobtracker.tasks.base import Unit
from jobtracker.tasks.inbox import demo_reading as inbox_answer
from jobtracker.tasks.judge import demo_verdict as judge_answer
from jobtracker.tasks.level import demo_level as level_answer
from jobtracker.tasks.tailor import demo_edits
from tests.unit import test_demo_model as demo_model_tests


@pytest.mark.parametrize(("text", "expected"), [
    ("Senior Engineer\n\nLead things.", "senior"),
    ("Engineer\n\nYou bring 5+ years of Python.", "senior"),
    ("Engineer\n\nAbout 3 years of experience.", "mid"),
    # A level word in the prose is not read as the role's level.
    ("Product Designer\n\nDesign tools clinic staff use.", "unclear"),
])
def test_level_comes_from_the_title_then_the_years(text: str, expected: str) -> None:
    assert level_answer(text)["level"] == expected


def test_the_judge_verdict_follows_shared_skills_and_quotes_the_posting() -> None:
    question = ("What I am looking for:\nPython, PostgreSQL, Kafka and Kubernetes.\n\n"
                "<posting>\nTitle: X\nDescription:\nWe use Python, PostgreSQL, Kafka, "
                "Kubernetes and Terraform.\n</posting>")
    answer = judge_answer(question)
    assert answer["verdict"] == "strong"
    assert answer["meets"] == ["Python", "PostgreSQL", "Kafka", "Kubernetes"]
    assert answer["misses"] == ["Terraform"]
    assert judge_answer(question.replace("Python, PostgreSQL, Kafka and Kubernetes",
                                         "Swift"))["verdict"] == "poor"


@pytest.mark.parametrize(("name", "state"), [
    ("01-acknowledgement.eml", "acknowledgement"),
    ("02-interview.eml", "interview_request"),
    ("03-rejection.eml", "rejection"),
    ("04-assessment.eml", "assessment"),
    ("05-newsletter.eml", "not_application"),
])
def test_each_demo_reply_gets_its_state_with_evidence_the_inbox_task_accepts(
        name: str, state: str) -> None:
    raw = resources.files("jobtracker.demo").joinpath("data", "mail", name).read_bytes()
    message = email.message_from_bytes(raw)
    body = message.get_payload()
    unit = Unit("inbox", f"m:{name}", name, name, {
        "key": name, "sender": message["From"], "subject": message["Subject"],
        "date": message["Date"], "body": body, "company": None, "posting_id": None,
        "title": ""})
    task = inbox.InboxTask()     # request() and parse() read nothing from the context
    request = task.request(unit, None)  # type: ignore[arg-type]
    answer = fit(inbox_answer(request.messages[-1]["content"]), inbox.SCHEMA, inbox.SCHEMA)
    jsonschema.validate(answer, inbox.SCHEMA)
    assert answer["state"] == state
    parsed = task.parse(unit, answer, None)  # type: ignore[arg-type]
    assert parsed["state"] == state


def test_fit_bounds_strings_lists_and_enums_to_the_schema() -> None:
    shaped = fit({"verdict": "excellent", "reasons": ["x" * 500] * 9, "meets": None},
                 judge.SCHEMA, judge.SCHEMA)
    jsonschema.validate(shaped, judge.SCHEMA)
    assert shaped["verdict"] == judge.VERDICTS[0]
    assert len(shaped["reasons"]) == judge.MAX_REASONS
    assert len(shaped["reasons"][0]) == judge.MAX_REASON_CHARS


def test_tailor_edits_quote_a_resume_line_and_add_only_keywords() -> None:
    resume = demo_resume()
    question = ("<resume>\n" + resume.text + "\n</resume>\n\n<posting>\nTitle: X\n"
                "Description:\nKafka event pipelines; distributed systems; Airflow; Swift.\n"
                "</posting>")
    edits = demo_edits(resume, question)["edits"]
    assert edits, "the posting asks for keywords the resume lacks"
    keywords = keywords_from(data_text("keywords.yaml"))
    for edit in edits:
        assert edit["original"] in resume.text
        added = edit["replacement"].removeprefix(edit["original"].rstrip("."))
        assert "Swift" not in added
        assert any(k in added for k in keywords)
    assert edits[0]["original"].startswith("Designed an event pipeline on Kafka")


TOY_SCHEMA = demo_model_tests.TOY_SCHEMA    # a task the demo does not know


def test_the_flat_format_tells_tasks_apart_by_a_field_and_knows_no_other() -> None:
    answers = DemoModelServer(latency=0).answers
    flat = {"messages": [{"role": "user", "content": "Title: Staff Engineer"}],
            "response_format": {"type": "json_object", "schema": level.SCHEMA}}
    assert answers(flat)["level"] == "staff"
    flat["response_format"]["schema"] = TOY_SCHEMA
    jsonschema.validate(answers(flat), TOY_SCHEMA)
