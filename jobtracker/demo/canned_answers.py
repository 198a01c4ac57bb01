"""What the demo model says: canned, plausible answers built from the question itself.

No model runs. Each answer is read off the request — the task named in its
`response_format`, the schema, the text of the prompt — so that it passes the
same grounding checks a real model's answer must pass:

- level: a level word in the title, else the years of experience asked for,
  else `unclear`;
- judge: the skills the profile and the posting share decide the verdict; the
  reasons and requirements use the posting's own words;
- inbox: the state whose phrases the email uses, with the sentence that shows it
  copied verbatim as evidence, and for an invitation the first sentence naming a date
  and a time, read as jobtracker/interviews/when.py reads it;
- tailor: edits whose original is a real line of the resume and whose
  replacement adds only terms from the resume or keywords.yaml that the posting
  asks for;
- coverletter: paragraphs made of the resume's own lines;
- answer: the resume's lines closest to the question and the posting, in the
  first person, and no quote (the posting is named only where quoted).

Any other task — a new one has nothing to add here — gets the smallest instance
of the schema it asked for (`instance_of`). Whatever a schema holds beyond the
fields understood here is filled the same way, so the answer always validates.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from jobtracker.config import LEVELS

# --- the smallest valid instance of a schema ----------------------------------------

_WORD_FILL = "example"


def instance_of(schema: Any, root: dict[str, Any]) -> Any:
    """The smallest plain instance of `schema`: first choices, minimum sizes."""
    if not isinstance(schema, dict):
        return None
    if "$ref" in schema:
        return instance_of(resolve_ref(schema["$ref"], root), root)
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    for combinator in ("anyOf", "oneOf", "allOf"):
        if schema.get(combinator):
            return instance_of(schema[combinator][0], root)
    kind = schema.get("type", "object" if "properties" in schema else "string")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object":
        return {name: instance_of(sub, root)
                for name, sub in (schema.get("properties") or {}).items()}
    if kind == "array":
        count = max(schema.get("minItems", 0), min(1, schema.get("maxItems", 1)))
        return [instance_of(schema.get("items", {}), root) for _ in range(count)]
    if kind == "string":
        text = _WORD_FILL * (1 + schema.get("minLength", 0) // len(_WORD_FILL))
        return text[:max(schema.get("minLength", 0),
                         min(len(_WORD_FILL), schema.get("maxLength", 99)))]
    if kind in ("integer", "number"):
        value = max(schema.get("minimum", 0), min(0, schema.get("maximum", 0)))
        return int(value) if kind == "integer" else float(value)
    if kind == "boolean":
        return False
    return None


def resolve_ref(ref: str, root: dict[str, Any]) -> Any:
    node: Any = root
    for part in ref.removeprefix("#/").split("/"):
        if part:
            node = node[part]
    return node


def requested_schema(body: dict[str, Any]) -> dict[str, Any]:
    """The answer schema of a chat request, nested (json_schema) or flat (json_object)."""
    fmt = body.get("response_format") or {}
    schema = (fmt.get("json_schema") or {}).get("schema") or fmt.get("schema") or {}
    return schema if isinstance(schema, dict) else {}


# --- filling a schema from what an answer means ---------------------------------------

# Names a schema might give the fields of a resume edit; the first is ours.
_SYNONYMS = {
    "original": ("original", "old", "before", "find", "from", "source", "text"),
    "replacement": ("replacement", "new", "after", "replace", "to", "suggestion", "revised"),
    "reason": ("reason", "why", "rationale", "because", "explanation"),
}


def _pick(value: dict[str, Any], name: str) -> Any:
    if name in value:
        return value[name]
    for ours, names in _SYNONYMS.items():
        if name in names and ours in value:
            return value[ours]
    return None


def fit(value: Any, schema: Any, root: dict[str, Any]) -> Any:
    """`value` shaped to `schema`: strings cut to maxLength, lists to maxItems, an enum
    value outside the enum replaced by the first, missing parts filled minimally."""
    if not isinstance(schema, dict):
        return value
    if "$ref" in schema:
        return fit(value, resolve_ref(schema["$ref"], root), root)
    if value is None:
        return instance_of(schema, root)
    if schema.get("enum") and value not in schema["enum"]:
        return schema["enum"][0]
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "string" or (kind is None and isinstance(value, str)):
        text = value if isinstance(value, str) else "\n\n".join(map(str, value))
        return text[:schema.get("maxLength", len(text))]
    if kind == "array":
        items = list(value) if isinstance(value, list | tuple) else [value]
        items = items[:schema.get("maxItems", len(items))]
        items = [fit(item, schema.get("items", {}), root) for item in items]
        while len(items) < schema.get("minItems", 0):
            items.append(instance_of(schema.get("items", {}), root))
        return items
    if kind == "object" or "properties" in schema:
        given = value if isinstance(value, dict) else {}
        return {name: fit(_pick(given, name), sub, root)
                for name, sub in (schema.get("properties") or {}).items()}
    return value


# --- reading the prompt -----------------------------------------------------------------

_TOKEN = re.compile(r"[a-z0-9][a-z0-9+#]*")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n")
_YEARS = re.compile(r"\b(\d{1,2})\+?\s*(?:or more\s+)?years?\b", re.I)

# Terms a posting asks for, as the judge compares them. Lower case.
SKILLS = frozenset({
    "python", "go", "golang", "rust", "java", "kotlin", "scala", "typescript",
    "javascript", "react", "ruby", "rails", "elixir", "c++", "postgresql", "postgres",
    "mysql", "sqlite", "redis", "kafka", "kubernetes", "docker", "terraform", "aws", "gcp",
    "azure", "linux", "grpc", "graphql", "spark", "airflow", "dbt", "django", "flask",
    "fastapi", "pytorch", "observability", "opentelemetry", "prometheus", "distributed",
    "pipelines", "asyncio", "sql", "ci", "swift", "ios", "android", "figma", "solidity",
})


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def user_text(body: dict[str, Any]) -> str:
    """The last user message's text."""
    for message in reversed(body.get("messages") or []):
        if isinstance(message, dict) and message.get("role") == "user":
            content = message.get("content")
            return content if isinstance(content, str) else str(content or "")
    return ""


# The flat response format carries no schema name: a field tells the hand-written
# answers' schemas apart. A task not told apart here gets the schema's instance.
_FIELD_OF_TASK = (("level", "level"), ("verdict", "judge"), ("state", "inbox"),
                  ("edits", "tailor"), ("paragraphs", "coverletter"))


def task_of(body: dict[str, Any]) -> str:
    """The task asked: the json_schema's name (the task's name), else a guess from its
    fields; '' when neither says."""
    name = ((body.get("response_format") or {}).get("json_schema") or {}).get("name")
    if isinstance(name, str) and name:
        return name
    props = set(requested_schema(body).get("properties") or {})
    return next((task for field, task in _FIELD_OF_TASK if field in props), "")


def _joined(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _as_written(word: str, text: str) -> str:
    """`word` as the text spells it (its first occurrence), for quoting it back."""
    found = re.search(rf"(?<![\w+#]){re.escape(word)}(?![\w+#])", text, re.I)
    return found.group(0) if found else word


# --- the tasks ----------------------------------------------------------------------------

def level_answer(text: str) -> dict[str, Any]:
    title, _, rest = text.partition("\n")
    named = [level for level in LEVELS if re.search(rf"\b{level}\b", title, re.I)]
    if named:
        return {"level": named[-1], "reason": f"The title says {named[-1]}."}
    years = _YEARS.search(rest)
    if years:
        count = int(years.group(1))
        level = ("staff" if count >= 8 else "senior" if count >= 5 else
                 "mid" if count >= 2 else "junior")
        return {"level": level, "reason": f"It asks for {years.group(0)} of experience."}
    # Not a level word in the prose: "clinic staff" or "senior engineers you will
    # join" would be misread, as small models do.
    return {"level": "unclear", "reason": "Neither the title nor the text names a level."}


def judge_answer(text: str) -> dict[str, Any]:
    profile, _, posting = text.partition("<posting>")
    posting = posting.split("</posting>", 1)[0] or text
    wanted = set(tokens(profile)) & SKILLS
    asked = list(dict.fromkeys(t for t in tokens(posting) if t in SKILLS))
    shared = [_as_written(t, posting) for t in asked if t in wanted]
    missing = [_as_written(t, posting) for t in asked if t not in wanted]
    verdict = ("strong" if len(shared) >= 4 else "good" if len(shared) == 3 else
               "partial" if shared else "poor")
    reasons = []
    if shared:
        reasons.append(f"Asks for {_joined(shared[:4])}, all in the profile.")
    else:
        reasons.append("Asks for nothing the profile names.")
    if missing:
        reasons.append(f"Also wants {_joined(missing[:3])}, which the profile does not name.")
    return {"verdict": verdict, "reasons": reasons, "meets": shared[:6], "misses": missing[:6]}


# Phrases that show each state, checked in this order (a rejection often thanks you
# for applying; an invitation to a take-home may mention the interview after it).
INBOX_RULES: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("rejection", ("unfortunately", "not to move forward", "not be moving forward",
                   "other candidates", "decided not to proceed"),
     "The employer will not move forward with the application."),
    ("offer", ("pleased to offer", "offer you the"), "The employer makes an offer."),
    ("assessment", ("take-home", "assessment", "coding exercise"),
     "The employer asks for a take-home exercise."),
    ("interview_request", ("invite you", "like to schedule", "interview with"),
     "The employer invites the candidate to interview."),
    ("scheduling", ("does that time", "confirm the time", "calendar invite", "see you on"),
     "The employer sets the time of the interview."),
    ("acknowledgement", ("received your application", "thank you for applying",
                         "thanks for applying"),
     "The employer confirms the application arrived."),
    ("not_application", ("unsubscribe", "newsletter", "webinar", "% off"),
     "Marketing, not about an application."),
)


def sentences(text: str) -> list[str]:
    return [part.strip() for part in _SENTENCE.split(text) if part.strip()]


_LINK = re.compile(r"https?://\S*(?:meet|zoom|teams|whereby|webex)\S*", re.I)


def interview_reading(head: str, lines: Sequence[str]) -> dict[str, Any]:
    """The first sentence that names a date and a time, read as the inbox asks: start
    as written, the zone as written, a video link from the mail."""
    from datetime import UTC, datetime
    from email.utils import parsedate_to_datetime

    from jobtracker.interviews.when import Refused, slots

    date_line = next((line[5:].strip() for line in head.splitlines()
                      if line.startswith("Date:")), "")
    try:
        sent = datetime.fromisoformat(date_line.replace("Z", "+00:00"))
    except ValueError:
        try:
            sent = parsedate_to_datetime(date_line)
        except (TypeError, ValueError):
            sent = datetime.now(UTC)
    link = next((m.group(0).rstrip(".,)") for line in lines for m in _LINK.finditer(line)),
                "")
    for line in lines:
        try:
            found = slots(line, sent, user_zone="UTC")
        except Refused:
            continue
        if found.local:
            zone = found.slots[0].written if found.slots else ""
            return {"quote": line, "start": found.local[0], "end": "", "minutes": 0,
                    "zone": zone, "where": link, "cancelled": False}
    return {"quote": "", "start": "", "end": "", "minutes": 0, "zone": "", "where": "",
            "cancelled": False}


def inbox_answer(text: str) -> dict[str, Any]:
    # The headers end at the first blank line; the evidence must come from the body.
    head, _, body = text.partition("\n\n")
    subject = next((line[len("Subject:"):].strip() for line in head.splitlines()
                    if line.startswith("Subject:")), "")
    lines = sentences(body) or [subject]
    for state, phrases, summary in INBOX_RULES:
        for line in lines:
            if any(phrase in line.lower() for phrase in phrases):
                answer = {"evidence": line, "state": state, "summary": summary}
                if state in ("interview_request", "scheduling"):
                    answer["interview"] = interview_reading(head, lines)
                return answer
    return {"evidence": lines[0], "state": "other", "summary": "About an application."}


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _article(text: str) -> str:
    return "an" if text[:1].lower() in "aeiou" else "a"


def posting_part(text: str, resume_lines: Sequence[str]) -> str:
    """The posting in a prompt: between <posting> tags, else every line that is not
    one of the resume's own (the prompt shows the resume too)."""
    if "<posting>" in text:
        return text.split("<posting>", 1)[1].split("</posting>", 1)[0]
    return "\n".join(line for line in text.splitlines()
                     if line.strip().lstrip("-* ").strip() not in resume_lines)


class Resume:
    """The demo resume and keywords: what tailor and coverletter may draw on."""

    def __init__(self, text: str, keywords: Iterable[str]) -> None:
        self.text = text
        self.keywords = [k for k in dict.fromkeys(keywords) if k.strip()]
        self.bullets = [line.strip()[2:].strip() for line in text.splitlines()
                        if line.strip()[:2] in ("- ", "* ") and len(line.strip()) > 12]
        self.paragraphs = [line.strip() for line in text.splitlines()
                           if line.strip() and line.strip()[0].isalpha()]

    def tailor_answer(self, text: str, limit: int = 2) -> dict[str, Any]:
        """Up to `limit` edits, each tagging the bullet closest to the posting with the
        keywords.yaml terms the posting asks for. Only keywords are added: a resume
        skill added to another bullet would claim that bullet used it."""
        asked = set(tokens(posting_part(text, self.bullets)))
        wanted = [term for term in self.keywords
                  if set(tokens(term)) <= asked and term.lower() not in self.text.lower()]
        ranked = sorted(self.bullets, key=lambda b: -len(set(tokens(b)) & asked))
        edits = []
        for bullet, start in zip(ranked, range(0, len(wanted), 2), strict=False):
            adds = wanted[start:start + 2]
            stem, period = (bullet[:-1], ".") if bullet.endswith(".") else (bullet, "")
            edits.append({
                "original": bullet,
                "replacement": f"{stem} ({', '.join(adds)}){period}",
                "reason": f"Adds {_joined(adds)}: the posting asks for it, keywords.yaml "
                          "lists it, and this line does not show it",
            })
            if len(edits) == limit:
                break
        return {"edits": edits}

    def coverletter_answer(self, text: str) -> dict[str, Any]:
        """Two first-person paragraphs: the resume's summary line, then the three
        bullets closest to the posting, in the resume's own words."""
        asked = set(tokens(posting_part(text, self.bullets)))
        best = sorted(self.bullets, key=lambda b: -len(set(tokens(b)) & asked))[:3]
        deeds = [_lower_first(b.rstrip(".")) for b in best]
        paragraphs = [f"I am {_article(summary)} {_lower_first(summary)}"
                      for summary in self.paragraphs[:1]]
        if deeds:
            paragraphs.append(f"In my recent roles I {_joined(deeds)}.")
        return {"paragraphs": paragraphs, "body": "\n\n".join(paragraphs),
                "letter": "\n\n".join(paragraphs), "text": "\n\n".join(paragraphs)}


    def answer_answer(self, text: str) -> dict[str, Any]:
        """A form question's draft: the two bullets closest to the question and the
        posting, in the resume's own words."""
        asked = set(tokens(posting_part(text, self.bullets)))
        best = sorted(self.bullets, key=lambda b: -len(set(tokens(b)) & asked))[:2]
        sentences = [f"I {_lower_first(b.rstrip('.'))}." for b in best]
        return {"answer": " ".join(sentences) or "I would be glad to talk about it.",
                "quotes": []}


def _level_answer(text: str) -> dict[str, Any]:
    return level_answer(text.removeprefix("Title: "))


class DemoAnswers:
    """The demo model's answer to one chat request, as a schema-valid object: the
    hand-written answer for the task asked when there is one, else the smallest
    instance of its schema."""

    def __init__(self, resume: Resume) -> None:
        self.resume = resume
        self.hand_written: dict[str, Callable[[str], dict[str, Any]]] = {
            "level": _level_answer, "judge": judge_answer, "inbox": inbox_answer,
            "tailor": resume.tailor_answer, "coverletter": resume.coverletter_answer,
            "answer": resume.answer_answer,
        }

    def __call__(self, body: dict[str, Any]) -> Any:
        schema = requested_schema(body)
        answer = self.hand_written.get(task_of(body))
        meaning = answer(user_text(body)) if answer is not None else None
        return fit(meaning, schema, schema)   # fit(None, ...) is the schema's instance


__all__ = ["DemoAnswers", "Resume", "fit", "instance_of", "requested_schema", "task_of"]
