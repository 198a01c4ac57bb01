"""Prompts built for the server's prefix cache: in every task, what is the same for
every unit of a run (system prompt, profile, resume, keywords, template, the question)
comes first, byte-identical, and the unit's posting or email comes last.

A server (llama.cpp, vLLM) reuses the cached prefix of a prompt only up to the first
byte that differs, so each test builds two different units' requests and checks that
the prefix they share covers the whole unchanging part.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from jobtracker.config import Config, Profile
from jobtracker.resume import KEYWORDS, RESUME, TEMPLATE
from jobtracker.tasks import REGISTRY, Context, Request, Unit
from jobtracker.tasks.answer import unit_text
from jobtracker.tasks.base import posting_block, posting_unit, prompt_version_of
from jobtracker.tasks.inbox import PROMPT_BODY_CHARS

PROSE = "Senior backend engineer. Python, Kafka, payments. Remote in Europe."
RESUME_TEXT = ("# Ada Lovelace\n\n## Experience\n\n- Built payment ledgers in Python.\n"
               "- Ran Kafka clusters for 40 services.\n")
KEYWORDS_TEXT = "keywords: [kafka, postgres]\n"
TEMPLATE_TEXT = "Dear {company} team,\n\n<!-- body -->\n\nKind regards,\nAda\n"

CTX = Context(home=Path("/nonexistent"), config=Config(),
              profile=Profile(prose=PROSE, exists=True), now="2026-09-01T12:00:00Z",
              texts={RESUME: RESUME_TEXT, KEYWORDS: KEYWORDS_TEXT, TEMPLATE: TEMPLATE_TEXT})

# What each task must carry in its unchanging part, besides the system prompt.
FIXED_INPUTS = {
    "level": [],
    "judge": [PROSE],
    "inbox": [],
    "tailor": [RESUME_TEXT, "kafka, postgres"],
    "coverletter": [RESUME_TEXT, "kafka, postgres", TEMPLATE_TEXT],
    "answer": [RESUME_TEXT, "kafka, postgres"],
}


def posting(task: str, pid: int, title: str, company: str, text: str) -> Unit:
    row = {"id": pid, "company": company, "title": title, "text": text, "dhash": f"h{pid}"}
    return posting_unit(task, row, location="Berlin", description_source="ats",
                        prose_hash="p", resume_hash="r", keywords_hash="k",
                        template_hash="t", score=0.8,
                        # answer's units also carry their question
                        question=f"Why do you want to work at {company}?", name=f"q{pid}",
                        required=True, limit=150, char_limit=None)


def email(key: str, sender: str, subject: str, body: str, company: str | None) -> Unit:
    return Unit(task="inbox", unit_key=f"m:{key}", subject=key, label=subject,
                data={"key": key, "sender": sender, "subject": subject,
                      "date": "2026-09-01T09:00:00Z", "body": body[:PROMPT_BODY_CHARS],
                      "company": company, "posting_id": None, "title": "Engineer"})


def two_units(task: str) -> tuple[Unit, Unit]:
    if task == "inbox":
        return (email("a@x", "Acme <jobs@acme.com>", "Your application", "Thanks, we got it.",
                      "Acme"),
                email("b@y", "Globex <hr@globex.com>", "Interview", "Can you talk Tuesday?",
                      None))
    return (posting(task, 1, "Senior Engineer", "Acme", "Python and Kafka, remote."),
            posting(task, 2, "Backend Developer", "Globex", "Go and Postgres in Berlin."))


def rendered(request: Request) -> str:
    """The messages as one text, in order: how a chat template lays them out."""
    return "".join(f"<{m['role']}>{m['content']}</{m['role']}>" for m in request.messages)


def subject_text(task: str, unit: Unit) -> str:
    """The unit's own part of the prompt: the posting block, or the whole email."""
    if task == "inbox":
        return unit.data["body"]
    if task == "answer":        # the posting, then its question: both the unit's own
        return unit_text(unit.data)
    return posting_block(unit.data)


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_the_unchanging_part_comes_first_and_is_shared(name: str) -> None:
    task = REGISTRY[name]
    first, second = two_units(name)
    one, two = task.request(first, CTX), task.request(second, CTX)
    text_one, text_two = rendered(one), rendered(two)
    shared = os.path.commonprefix([text_one, text_two])  # noqa: RUF071 (characters)
    for unit, text, request in ((first, text_one, one), (second, text_two, two)):
        # The unit's own text is the very end of the prompt...
        own = subject_text(name, unit)
        assert request.messages[-1]["content"].endswith(own)
        # ...and everything before the user message's unit-specific part is shared.
        user = request.messages[-1]["content"]
        # (an email is the whole user message: only the system prompt is fixed)
        start = 0 if name == "inbox" else user.index(own)
        fixed = text[:text.index(user)] + user[:start]
        assert shared.startswith(fixed), f"{name}: the shared prefix stops inside the fixed part"
    # The unchanging part holds the system prompt and every fixed input, whole.
    assert task.system in shared
    for fixed_input in FIXED_INPUTS[name]:
        assert fixed_input.strip() in shared, f"{name}: {fixed_input[:30]!r} not in the prefix"


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_the_prompt_version_is_what_the_request_sends(name: str) -> None:
    """The version is computed from the declared system prompt and schema, and the
    request sends exactly those: a change to either is a new version."""
    task = REGISTRY[name]
    request = task.request(two_units(name)[0], CTX)
    assert request.messages[0] == {"role": "system", "content": task.system}
    assert request.schema == task.schema
    assert task.prompt_version == prompt_version_of(request.messages[0]["content"],
                                                    request.schema)
    assert len(task.prompt_version) == 12 and int(task.prompt_version, 16) >= 0
    edited = prompt_version_of(task.system + " Be brief.", task.schema)
    assert edited != task.prompt_version
    loosened = prompt_version_of(task.system, {**task.schema, "additionalProperties": True})
    assert loosened != task.prompt_version


def test_every_task_has_its_own_prompt_version() -> None:
    versions = {task.prompt_version for task in REGISTRY.values()}
    assert len(versions) == len(REGISTRY)
