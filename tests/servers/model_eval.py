"""Answers to `jobtracker model check`'s evaluation items, right or wrong on purpose.

    server = ModelServer(answer=EvalAnswers(wrong={"level-intern-1", "judge-fit-2"}))

Each chat request is matched to its item by the item's text in the prompt (a
posting's description, an email's body), and answered in the task's schema with
a label the check counts as right, or — for the items named in `wrong` — one it
counts as wrong. Inbox evidence quotes the email's subject, so it always grounds.
`replies` maps an email body's text to the state to answer (for replayed messages).
A request that matches no item gets the schema's default answer.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from jobtracker.modelcheck import evalset
from jobtracker.tasks import ordered
from tests.servers.model import schema_answer

WRONG_LABEL = {"level": {"director": "intern"}, "judge": {"fit": "poor", "misfit": "strong"},
               "inbox": {"not_application": "rejection"}}


def _wrong(item: evalset.EvalItem) -> str:
    table = WRONG_LABEL[item.task]
    if item.expect in table:
        return table[item.expect]
    return {"level": "director", "inbox": "not_application"}[item.task]


def _prompt(body: dict[str, Any]) -> str:
    return "\n".join(str(m.get("content", "")) for m in body.get("messages") or ()
                     if isinstance(m, dict))


def _task(body: dict[str, Any]) -> str | None:
    fmt = body.get("response_format") or {}
    schema = (fmt.get("json_schema") or {}).get("schema") or fmt.get("schema") or {}
    props = schema.get("properties") or {}
    for name, key in (("level", "level"), ("judge", "verdict"), ("inbox", "state")):
        if key in props:
            return name
    return None


def answer_for(task: str, label: str, quote: str = "") -> dict[str, Any]:
    if task == "level":
        return {"level": label, "reason": "stated in the description"}
    if task == "judge":
        return {"verdict": label, "reasons": ["read against the profile"], "meets": [],
                "misses": []}
    return {"evidence": quote, "state": label, "summary": "what the email means",
            "interview": {"quote": "", "start": "", "end": "", "minutes": 0, "zone": "",
                          "where": "", "cancelled": False}}


class EvalAnswers:
    """The `answer` callable of a ModelServer that knows the evaluation set."""

    def __init__(self, wrong: Iterable[str] = (), replies: dict[str, str] | None = None) -> None:
        self.items = evalset.load(ordered()).items
        self.wrong = set(wrong)
        self.replies = replies or {}
        self.asked: list[str] = []      # item ids, in the order they were asked

    def __call__(self, body: dict[str, Any]) -> Any:
        task, prompt = _task(body), _prompt(body)
        for text, state in self.replies.items():
            if text in prompt:
                return answer_for("inbox", state, _subject(prompt))
        for item in self.items:
            key = item.fields.get("description") or item.fields.get("body")
            if item.task == task and key and key in prompt:
                self.asked.append(item.id)
                label = _wrong(item) if item.id in self.wrong else item.accepted[0]
                return answer_for(task, label, str(item.fields.get("subject", "")))
        return schema_answer(body)


def _subject(prompt: str) -> str:
    for line in prompt.splitlines():
        if line.startswith("Subject: "):
            return line[len("Subject: "):]
    return ""
