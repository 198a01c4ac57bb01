"""What a task is: one bounded question for the model, and the code around it.

A task module is pure. It reads (never writes outside `apply` and its hooks)
through the connection it is handed, builds a request, parses and grounds the
answer, and describes what to write. It opens no connection or socket and reads
no clock: the runner (`jobtracker/run/`) owns those, and hands the time in as
`ctx.now`.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from jobtracker.config import Config, Profile, Setting
from jobtracker.store import description_hash
from jobtracker.tasks.canned import DemoAnswer
from jobtracker.text import one_line

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

    import aiosqlite


@dataclass(frozen=True)
class Unit:
    """One question, as plain JSON-safe data (it is the job the loop runs).

    `unit_key` identifies the question within its task: it names the subject
    (posting or message) and hashes every input that, changed, makes it a new
    question. The failure ledger and the Idempotency-Key derive from it.
    """

    task: str
    unit_key: str
    label: str
    subject: int | str          # posting id, or a message's key
    data: dict[str, Any] = field(default_factory=dict)   # what the prompt needs

    @property
    def kind(self) -> str:
        """The job loop's name for the task: which handler runs the unit."""
        return self.task

    @property
    def key(self) -> str:
        return self.unit_key

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Unit:
        return cls(**raw)


LABEL_CHARS = 80


def posting_label(company: str | None, title: str) -> str:
    """How a posting's unit is named for people (event lines, the in-flight pane):
    `Company — Title`, one clean line, bounded. Terminals that need ASCII get it
    from their reporter."""
    return one_line(f"{company} — {title}" if company else title, LABEL_CHARS)


# How much of a description the model is shown: requirements and level come early,
# and small models need a bounded prompt. Rows are read one character longer, so a
# unit can say that the text was cut.
DESCRIPTION_CHARS = 6000

# Select these (with `postings AS p`) to build units with posting_unit().
POSTING_COLUMNS = (f"p.id AS id, p.company AS company, p.title AS title, "
                   f"substr(p.description, 1, {DESCRIPTION_CHARS + 1}) AS text, "
                   f"p.description_hash AS dhash")


def posting_unit(task: str, row: Mapping[str, Any] | sqlite3.Row, inputs: str = "",
                 **data: Any) -> Unit:
    """A unit about one posting, from a row read with POSTING_COLUMNS.

    Its key is `p{id}:{inputs}:{description hash}`, where `inputs` joins the hashes of
    the task's other inputs (empty for a task that has none); `data` adds to what the
    prompt gets: the posting's id, company, title and (bounded) description."""
    text = row["text"] or ""
    key = ":".join(part for part in (f"p{row['id']}", inputs, row["dhash"]) if part)
    return Unit(task=task, unit_key=key, label=posting_label(row["company"], row["title"]),
                subject=row["id"],
                data={"posting_id": row["id"], "company": row["company"],
                      "title": row["title"], "description": text[:DESCRIPTION_CHARS],
                      "truncated": len(text) > DESCRIPTION_CHARS,
                      "description_hash": row["dhash"], **data})


def eval_posting(number: int, fields: Mapping[str, Any]) -> dict[str, Any]:
    """An evaluation item about a posting as the row `posting_unit` reads (its id far
    above any real posting's, so no answer is ever mistaken for one about a real one)."""
    text = str(fields.get("description", ""))
    return {"id": 900_000 + number, "company": fields.get("company"),
            "title": fields.get("title", ""), "text": text, "dhash": description_hash(text)}


def posting_block(data: Mapping[str, Any]) -> str:
    """A posting unit's text as the model sees it, inside <posting> tags that the text
    itself cannot close (a posting is data, never instructions)."""
    lines = [f"Title: {data['title']}", f"Company: {data['company']}"]
    if "location" in data:
        lines.append(f"Location: {data['location'] or 'not stated'}")
    lines += ["Description:",
              data["description"] + ("\n[description cut here]" if data["truncated"] else "")]
    body = _POSTING_TAG.sub(r"‹\1›", "\n".join(lines))
    return f"<posting>\n{body}\n</posting>"


# Any tag the text could close or open the block with, however written: `</POSTING>`,
# `</posting >`, `< / posting>`. Its angle brackets become ‹ › so it reads as text.
_POSTING_TAG = re.compile(r"<(\s*/?\s*posting\b[^<>]*)>", re.IGNORECASE)


@dataclass(frozen=True)
class Request:
    """What to ask the model: chat messages and the JSON schema of the answer."""

    messages: list[dict[str, str]]
    schema: dict[str, Any]


@dataclass
class RunState:
    """What one run keeps across its units and stages: made fresh with every context
    (`Setup.context()`, once per run), so nothing of one run outlives it. Task objects
    and modules keep none of this themselves: they are shared by every run."""

    # Intake step (jobtracker/intake) → why it could not bring its input in this run
    # ("imap: login: ..."); the task that reads that input is unavailable with it.
    intake_failures: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Context:
    """Everything a task may read besides the database. Built by the runner."""

    home: Path
    config: Config
    profile: Profile
    now: str                          # ISO 8601 UTC, read once by the runner
    texts: dict[str, str | None] = field(default_factory=dict)  # resume.md, ... (None: missing)
    # `work --reask-stale-prompts`: answers written under another prompt version (or an
    # unknown one) are pending again. Off, a new prompt version re-asks nothing.
    reask_stale_prompts: bool = False
    run: RunState = field(default_factory=RunState)   # this run's own state


@dataclass(frozen=True)
class Evaluation:
    """How `jobtracker model check` tests a model on this task: labelled items, asked
    through the task's own `request()` and `parse()` like real units.

    `items` is a YAML file: `items:`, a list of mappings, each with an `id`, the label it
    `expect`s and the fields `Task.eval_unit` builds a unit from; and, optionally,
    `profile:`, the profile prose the items were labelled for, which stands in for the
    user's while they are asked. An answer is right when its `answer_field` holds the
    label, or one of `accepts[label]` for a label that stands for several answers.

    `replays` names the kind of proposal the task makes whose decisions the check asks
    again (`Task.decided`, `Task.proposes`); None: it replays nothing."""

    items: Traversable | Path
    answer_field: str
    accepts: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    replays: str | None = None

    def accepted(self, label: str) -> tuple[str, ...]:
        """The answers that count as right for an item labelled `label`."""
        return tuple(self.accepts.get(label, (label,)))


@dataclass(frozen=True)
class Decided:
    """A unit whose proposal the user decided: the check asks it again and counts
    whether the answer agrees with the decision (`Task.decided`)."""

    unit: Unit
    proposed: str            # what the proposal proposed (the status, say)
    accepted: bool           # accepted; else rejected


class NoAnswer(Exception):
    """The model's answer parsed but did not ground (a quote not in the text, say).

    Counted as a failed unit, exactly like a transport failure: nothing is written.
    """


def prompt_version_of(system: str, schema: Mapping[str, Any]) -> str:
    """12 hex digits naming a prompt: the system message and the answer schema, hashed
    together (canonical JSON, so key order in the source does not matter)."""
    blob = json.dumps({"system": system, "schema": schema}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()[:12]


class Task:
    """Base class for a model task. Subclasses set the class attributes and override.

    The runner names no task: it calls every method here for every task. What is
    particular to one — the outside input it reads (brought in by an intake step,
    named in `intake`), data it derives from its answers, the settings it needs — is
    one of these methods or declarations, overridden in the task's own module. A task
    asks and proposes: it opens no mailbox, socket or download (pyproject's purity
    contract).
    """

    name: ClassVar[str]               # also the answer schema's name the model server sees
    priority: ClassVar[int]
    summary: ClassVar[str]
    # What configuration needs from the task (config.py is given the registry):
    enabled_by_default: ClassVar[bool] = True   # when plugins.yaml does not say
    max_tokens: ClassVar[int | None] = None     # answer bound; None: llm.max_tokens.default
    # config.yaml's `<name>:` section, each key checked as its Setting says (`setting()`).
    settings: ClassVar[Mapping[str, Setting]] = {}
    # What `model check` asks of a model for this task (None: the task has no items).
    evaluation: ClassVar[Evaluation | None] = None
    # The subcommand that is `work --task <name>` (`resolve`, `rank`), when the task has
    # one: the command line finds its task by this, never by the task's name.
    command: ClassVar[str | None] = None
    # What the bundled demo model answers this task's questions (tasks/canned.py);
    # None: the smallest instance of the task's schema.
    demo: ClassVar[DemoAnswer | None] = None
    # The prompt, declared once: `build_request()` sends exactly these, so the
    # `prompt_version` stored with every answer changes whenever they do.
    system: ClassVar[str]
    schema: ClassVar[dict[str, Any]]
    # The intake steps (jobtracker/intake's registry, by name) that bring this task's
    # outside input into the database: a run brings them in before the survey when the
    # task is on, and the queue between runs counts what they would bring as pending.
    intake: ClassVar[tuple[str, ...]] = ()

    @property
    def prompt_version(self) -> str:
        """A hash of the system prompt and the answer schema this task sends."""
        return prompt_version_of(self.system, self.schema)

    def build_request(self, fixed: str, subject: str) -> Request:
        """The request, laid out for the server's prefix cache: the system prompt, then
        the user message's `fixed` part (what is the same for every unit of a run: the
        profile, resume, keywords, template, the question), then the unit's own
        `subject` (the posting or the email) last. A server reuses a prompt's prefix
        only when it is byte-identical, so nothing unit-specific may come before
        `subject`."""
        user = f"{fixed}\n\n{subject}" if fixed else subject
        return Request(messages=[{"role": "system", "content": self.system},
                                 {"role": "user", "content": user}],
                       schema=self.schema)

    def stale_prompt(self, ctx: Context, column: str) -> tuple[str, list[Any]]:
        """SQL (with its parameters) true for a stored answer whose `column` holds another
        prompt version than this task's, or none (written before versions were
        recorded) — only under `--reask-stale-prompts`; otherwise always false."""
        if not ctx.reask_stale_prompts:
            return "0", []
        return f"({column} IS NULL OR {column} != ?)", [self.prompt_version]

    def reask_key(self, ctx: Context, key: str, stored_version: str | None,
                  answered: bool) -> str:
        """The unit key of a question asked again, under `--reask-stale-prompts`, for an
        answer written with another prompt: the prompt version is added, so its
        Idempotency-Key and proposals are new (a router must not hand back the old
        answer; a proposal is made once per unit key)."""
        if ctx.reask_stale_prompts and answered and stored_version != self.prompt_version:
            return f"{key}:prompt-{self.prompt_version}"
        return key

    def unavailable_reason(self, ctx: Context) -> str | None:
        """Why this task cannot run at all (missing config), or None."""
        return None

    def setting(self, ctx: Context, name: str) -> Any:
        """One of the task's declared `settings`, as config.yaml gives it (checked when the
        file was loaded), else its default."""
        given = ctx.config.task_settings.get(self.name, {})
        return given[name] if name in given else self.settings[name].default

    # --- what `model check` asks: its evaluation items, and decisions to replay -------

    def eval_unit(self, number: int, fields: Mapping[str, Any], ctx: Context) -> Unit:
        """An evaluation item (its fields; `number` makes it unique in the check) as a
        unit in the shape `pending()` builds. Tasks with an `evaluation` override it."""
        raise NotImplementedError

    async def decided(self, conn: aiosqlite.Connection, limit: int) -> list[Decided]:
        """Up to `limit` units whose proposals the user decided, newest decision first,
        for the check to ask again; none unless a task says how."""
        return []

    def proposes(self, answer_label: str) -> str | None:
        """What an answer labelled `answer_label` (its evaluation field) would propose,
        compared with `Decided.proposed`; None: nothing."""
        return None

    # --- hooks around a stage: the runner calls them for every task --------------------

    async def bring_in(self, conn: aiosqlite.Connection, ctx: Context) -> None:
        """Bring what the task derives from the database up to date at the start of a
        run, after the intake steps and before the queue is surveyed (judge's pre-rank).
        Outside input (mail) is no task's: an intake step brings it in. The runner
        holds the workspace lease."""

    async def after_applied(self, conn: aiosqlite.Connection, ctx: Context,
                            applied: int) -> None:
        """Refresh data derived from this task's answers, after a stage in which
        `applied` new ones were written (judge rescores). Not called when none were;
        the task's units may also have run as follow-ups inside another task's stage."""

    async def count(self, conn: aiosqlite.Connection, ctx: Context) -> int:
        """How many units are pending. Override with a COUNT query for large tables."""
        return len(await self.pending(conn, ctx))

    async def pending(self, conn: aiosqlite.Connection, ctx: Context,
                      limit: int | None = None,
                      subject: int | str | None = None) -> list[Unit]:
        """Units still to ask, most important first; only `subject`'s when given.

        Must list only work the task can really do, and must already exclude
        anything answered for the current inputs (skip-on-done relies on it).
        """
        raise NotImplementedError

    def request(self, unit: Unit, ctx: Context) -> Request:
        """The messages and answer schema for one unit. Pure."""
        raise NotImplementedError

    def parse(self, unit: Unit, answer: dict[str, Any], ctx: Context) -> Any:
        """Check a schema-valid answer against the unit's inputs; raise NoAnswer if it
        does not ground. Returns what `apply` writes."""
        return answer

    async def apply(self, conn: aiosqlite.Connection, unit: Unit, result: Any,
                    ctx: Context, model: str) -> str:
        """Write the result inside the runner's transaction. Returns a bounded label
        (a level, a verdict, a state, an edit count) used as a metric attribute."""
        raise NotImplementedError
