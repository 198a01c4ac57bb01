"""Typed settings from the workspace's YAML files, validated with file-and-line errors.

Each `load_*` function returns a frozen dataclass or raises `ConfigError`. Unknown
keys are errors, so a typo never passes silently. Paths expand `~` and `$VARS`.

config.yaml is read here as its core (the model, concurrency, the fetch's deadline,
each task's own section) and then section by section: `SECTIONS` lists each of the
others with the module that owns it (`jobtracker/settings/`, `render/settings.py`),
and every one is made of the shared checkers in `jobtracker/yamlfile/checks.py`.
Adding a section is one module, one entry in `SECTIONS` and one field of `Config`.

This module names no task. The files that mention tasks (`llm.models`,
`llm.max_tokens`, plugins.yaml, a task's own section of config.yaml such as
`tailor:`) are checked against the tasks the caller gives: each task declares what
configuration needs from it (`TaskDeclaration`), its settings included, each as a
`Setting` that says how its value is checked. Task modules import this one, so the
registry is handed in (by `Workspace`), never imported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from jobtracker.render.settings import RENDER_FORMATS, RenderConfig
from jobtracker.render.settings import load as load_render
from jobtracker.secrets import has_userinfo
from jobtracker.settings import alerts, followup, imap, notify, prepare, timezone
from jobtracker.settings.alerts import AlertsConfig
from jobtracker.settings.filters import USD_PER_UNIT, CompanyRule, Filters, SalaryFloor
from jobtracker.settings.followup import STATUSES, Followup, load_followup
from jobtracker.settings.imap import ImapConfig
from jobtracker.settings.notify import VERDICTS, NotifyConfig
from jobtracker.settings.prepare import PrepareConfig
from jobtracker.settings.profile import DEFAULT_WEIGHTS, LEVELS, WEIGHT_KEYS, Profile, load_profile
from jobtracker.settings.sources import Board, Feed, Sources, load_sources
from jobtracker.settings.timezone import load_timezone
from jobtracker.yamlfile import ConfigError, Document, checks, load
from jobtracker.yamlfile.checks import LOOPBACK_HOSTS, expand_path

if TYPE_CHECKING:   # the channels load when a notify section is read (settings/notify.py)
    from jobtracker.channels.http import HttpChannel
    from jobtracker.channels.smtp import EmailChannel

DEFAULT_MAX_TOKENS = 512     # llm.max_tokens.default, for a task that declares none
DEFAULT_CONCURRENCY = 4
DEFAULT_FETCH_DEADLINE = 120.0   # seconds one board's whole download may take
DEFAULT_MIN_ACCURACY = 0.7       # `model check` passes a task at this share right
# The largest values config.yaml accepts (docs/configuration.md): past these a value is
# a mistake, and some (a billion retries) would outlive any deadline.
MAX_TIMEOUT = 3600.0
MAX_RETRIES = 10
MAX_TOKENS = 131_072
MAX_CONCURRENCY = 64
MAX_FETCH_DEADLINE = 3600.0


@dataclass(frozen=True)
class Setting:
    """A number a task reads from its own section of config.yaml (`tailor.threshold`),
    declared by the task: its default and the range a value must be in."""

    default: float
    minimum: float = 0
    maximum: float = 1e9

    def check(self, doc: Document, value: Any, *at: Any) -> float:
        return checks.number(doc, value, *at, minimum=self.minimum, maximum=self.maximum)


class TaskDeclaration(Protocol):
    """What configuration needs to know of a task; each task declares it."""

    @property
    def name(self) -> str: ...

    @property
    def enabled_by_default(self) -> bool:
        """Whether the task is on when plugins.yaml does not say."""
        ...

    @property
    def max_tokens(self) -> int | None:
        """The task's default answer bound; None: `llm.max_tokens.default`."""
        ...

    @property
    def settings(self) -> Mapping[str, Setting]:
        """The keys of the task's own section of config.yaml (none: it has no section)."""
        ...


def normalize_llm_url(url: str) -> str:
    """`gpu:8000` or `http://gpu:8000` → `http://gpu:8000/v1`; a URL with a path is kept."""
    url = url.strip().rstrip("/")
    if "://" not in url:
        url = "http://" + url
    scheme, rest = url.split("://", 1)
    if "/" not in rest:
        url = f"{scheme}://{rest}/v1"
    return url


@dataclass(frozen=True)
class Section:
    """A section of config.yaml read by the module that owns it: its key (also the
    `Config` field it fills) and its loader (the document, the section's value or None
    → its settings, or `doc.error(...)`)."""

    key: str
    load: Callable[[Document, Any], Any]


# The sections after the core, in the order they are read (and the unknown-key message
# lists them).
SECTIONS: tuple[Section, ...] = (
    Section("imap", imap.load), Section("prepare", prepare.load),
    Section("followup", followup.load_followup), Section("notify", notify.load),
    Section("timezone", timezone.load), Section("render", load_render),
    Section("alerts", alerts.load),
)


# --- config.yaml --------------------------------------------------------------------

@dataclass(frozen=True)
class LLMConfig:
    url: str | None = "http://localhost:11434/v1"
    model: str | None = "qwen3:8b"
    models: dict[str, str] = field(default_factory=dict)
    api_key_env: str | None = None
    timeout: float = 120.0
    retries: int = 3
    max_tokens: dict[str, int] = field(default_factory=lambda: {"default": DEFAULT_MAX_TOKENS})
    gguf: Path | None = None

    def model_for(self, task: str) -> str | None:
        return self.models.get(task, self.model)

    def max_tokens_for(self, task: str) -> int:
        return self.max_tokens.get(task, self.max_tokens.get("default", DEFAULT_MAX_TOKENS))


@dataclass(frozen=True)
class Config:
    llm: LLMConfig = field(default_factory=LLMConfig)
    concurrency: int = DEFAULT_CONCURRENCY
    maildir: Path | None = None
    imap: ImapConfig | None = None
    # Each task's own section (task name → setting → value), as its `settings` declare.
    task_settings: dict[str, dict[str, float]] = field(default_factory=dict)
    fetch_deadline: float = DEFAULT_FETCH_DEADLINE
    min_accuracy: float = DEFAULT_MIN_ACCURACY     # model_check.min_accuracy
    path: Path | None = None
    prepare: PrepareConfig = field(default_factory=lambda: PrepareConfig())
    followup: Followup = field(default_factory=lambda: Followup())
    notify: NotifyConfig | None = None
    timezone: str | None = None      # the user's IANA zone (interviews, the digest's times)
    render: RenderConfig = field(default_factory=lambda: RenderConfig())
    alerts: AlertsConfig = field(default_factory=lambda: AlertsConfig())


def load_config(path: Path, tasks: Iterable[TaskDeclaration]) -> Config:
    """config.yaml; `llm.models` and `llm.max_tokens` accept the names of `tasks`, whose
    declared answer bounds are the defaults under the file's own."""
    tasks = tuple(tasks)
    names = tuple(task.name for task in tasks)
    doc = load(path)
    sections = tuple(task.name for task in tasks if task.settings)
    top = checks.mapping(doc, doc.data, allowed=(
        "llm", "concurrency", "maildir", *sections, "fetch", "model_check",
        *(section.key for section in SECTIONS)))
    llm_raw = checks.mapping(doc, top.get("llm"), "llm", allowed=(
        "url", "model", "models", "api_key_env", "timeout", "retries", "max_tokens", "gguf"))
    defaults = LLMConfig()
    llm = LLMConfig(
        url=checks.url(doc, normalize_llm_url(checks.string(doc, llm_raw["url"], "llm", "url")),
                       "llm", "url")
        if llm_raw.get("url") is not None else (None if "url" in llm_raw else defaults.url),
        model=checks.string(doc, llm_raw["model"], "llm", "model")
        if llm_raw.get("model") is not None else (None if "model" in llm_raw else defaults.model),
        models={
            str(k): checks.string(doc, v, "llm", "models", k)
            for k, v in checks.mapping(doc, llm_raw.get("models"), "llm", "models",
                                 allowed=names).items()
        },
        api_key_env=checks.string(doc, llm_raw["api_key_env"], "llm", "api_key_env")
        if llm_raw.get("api_key_env") is not None else None,
        timeout=checks.number(doc, llm_raw.get("timeout", defaults.timeout), "llm", "timeout",
                        minimum=1, maximum=MAX_TIMEOUT),
        retries=checks.integer(doc, llm_raw.get("retries", defaults.retries), "llm", "retries",
                     maximum=MAX_RETRIES),
        max_tokens={
            "default": DEFAULT_MAX_TOKENS,
            **{task.name: task.max_tokens for task in tasks if task.max_tokens is not None},
            **{str(k): checks.integer(doc, v, "llm", "max_tokens", k, minimum=16,
                                      maximum=MAX_TOKENS)
               for k, v in checks.mapping(doc, llm_raw.get("max_tokens"), "llm", "max_tokens",
                                          allowed=("default", *names)).items()},
        },
        gguf=expand_path(checks.string(doc, llm_raw["gguf"], "llm", "gguf"))
        if llm_raw.get("gguf") is not None else None,
    )
    if llm.url and has_userinfo(llm.url):   # httpx would send it as Basic auth (docs/llm.md)
        raise doc.error("a user name or password in the URL is never sent; put the key in "
                        "the variable llm.api_key_env names", "llm", "url")
    fetch = checks.mapping(doc, top.get("fetch"), "fetch", allowed=("deadline",))
    model_check = checks.mapping(doc, top.get("model_check"), "model_check",
                           allowed=("min_accuracy",))
    return Config(
        llm=llm,
        concurrency=checks.integer(doc, top.get("concurrency", DEFAULT_CONCURRENCY), "concurrency",
                         maximum=MAX_CONCURRENCY),
        maildir=expand_path(checks.string(doc, top["maildir"], "maildir"))
        if top.get("maildir") is not None else None,
        task_settings={task.name: _task_settings(doc, top.get(task.name), task)
                       for task in tasks if task.settings},
        fetch_deadline=checks.number(doc, fetch.get("deadline", DEFAULT_FETCH_DEADLINE), "fetch",
                               "deadline", minimum=1, maximum=MAX_FETCH_DEADLINE),
        min_accuracy=checks.number(doc, model_check.get("min_accuracy", DEFAULT_MIN_ACCURACY),
                             "model_check", "min_accuracy", maximum=1),
        path=path,
        **{section.key: section.load(doc, top.get(section.key)) for section in SECTIONS},
    )


def _task_settings(doc: Document, raw: Any, task: TaskDeclaration) -> dict[str, float]:
    """A task's own section: each key it declares, checked by its Setting, else the
    Setting's default."""
    given = checks.mapping(doc, raw, task.name, allowed=task.settings)
    return {name: setting.check(doc, given[name], task.name, name) if name in given
            else setting.default for name, setting in task.settings.items()}


# --- plugins.yaml -------------------------------------------------------------------

def load_plugins(path: Path, tasks: Iterable[TaskDeclaration]) -> dict[str, bool]:
    """Which of `tasks` are switched on: each one's declared default, overridden by
    plugins.yaml. A name that is not one of `tasks` is an error."""
    doc = load(path)
    enabled = {task.name: task.enabled_by_default for task in tasks}
    top = checks.mapping(doc, doc.data, allowed=("tasks",))
    switched = checks.mapping(doc, top.get("tasks"), "tasks", allowed=enabled)
    for name, value in switched.items():
        if not isinstance(value, bool):
            raise doc.error("must be true or false", "tasks", name)
        enabled[name] = value
    return enabled


def __getattr__(name: str) -> Any:
    if name in ("EmailChannel", "HttpChannel"):
        return getattr(notify, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "DEFAULT_WEIGHTS", "LEVELS", "LOOPBACK_HOSTS", "RENDER_FORMATS", "SECTIONS",
    "STATUSES", "USD_PER_UNIT", "VERDICTS", "WEIGHT_KEYS", "AlertsConfig", "Board",
    "CompanyRule", "Config", "ConfigError", "EmailChannel", "Feed", "Filters", "Followup",
    "HttpChannel", "ImapConfig", "LLMConfig", "NotifyConfig", "PrepareConfig", "Profile",
    "RenderConfig", "SalaryFloor", "Section", "Setting", "Sources", "TaskDeclaration",
    "expand_path", "load_config", "load_followup", "load_plugins", "load_profile",
    "load_sources", "load_timezone", "normalize_llm_url"
]
