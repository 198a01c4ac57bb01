"""What the tasks' canned answers read: the demo resume's lines, a prompt's words and
posting, a list said back in English; and every shipped task declares its answer."""

from __future__ import annotations

from jobtracker import tasks
from jobtracker.tasks.canned import Resume, closest, joined, posting_part, tokens

RESUME = """# Ada Example
Backend engineer who ships boring, reliable systems.

- Designed an event pipeline on Kafka for payments.
- Ran the PostgreSQL fleet and its backups.
- short
"""


def test_the_resume_keeps_its_bullets_and_prose_lines_and_each_keyword_once() -> None:
    resume = Resume(RESUME, ["Kafka", "Kafka", " ", "dbt"])
    assert resume.bullets == ["Designed an event pipeline on Kafka for payments.",
                              "Ran the PostgreSQL fleet and its backups."]
    assert resume.paragraphs == ["Backend engineer who ships boring, reliable systems."]
    assert resume.keywords == ["Kafka", "dbt"]


def test_words_keep_cplusplus_and_lists_read_as_english() -> None:
    assert tokens("C++ and Go, C#!") == ["c++", "and", "go", "c#"]
    assert [joined(w) for w in ([], ["a"], ["a", "b"], ["a", "b", "c"])] == [
        "", "a", "a and b", "a, b and c"]


def test_the_posting_is_between_its_tags_else_what_is_not_the_resume() -> None:
    resume = Resume(RESUME, [])
    assert posting_part("x <posting>We use Kafka</posting> y", resume.bullets) == "We use Kafka"
    assert posting_part("- Ran the PostgreSQL fleet and its backups.\nWe use Kafka",
                        resume.bullets) == "We use Kafka"
    assert closest(resume, "<posting>PostgreSQL backups</posting>", 1) == [
        "Ran the PostgreSQL fleet and its backups."]


def test_every_shipped_task_declares_a_canned_answer_and_fields_are_unique() -> None:
    demos = {task.name: task.demo for task in tasks.REGISTRY.values()}
    assert all(demo is not None for demo in demos.values()), demos
    fields = [demo.field for demo in demos.values() if demo is not None and demo.field]
    assert len(fields) == len(set(fields))
