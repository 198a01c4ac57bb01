"""Typed settings from the workspace's YAML files, validated with file-and-line errors.

Each `load_*` function returns a frozen dataclass or raises `ConfigError`. Unknown
keys are errors, so a typo never passes silently. Paths expand `~` and `$VARS`.

This module names no task. The files that mention tasks (`llm.models`,
`llm.max_tokens`, plugins.yaml, a task's own section of config.yaml such as
`tailor:`) are checked against the tasks the caller gives: each task declares what
configuration needs from it (`TaskDeclaration`), its settings included, each as a
`Setting` that says how its value is checked. Task modules import this one, so the
registry is handed in (by `Workspace`), never imported.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

from jobtracker.render import themes
from jobtracker.secrets import has_userinfo
from jobtracker.store import description_hash
from jobtracker.yamlfile import ConfigError, Document, load

LEVELS = ("intern", "junior", "mid", "senior", "staff", "principal", "director")
STATUSES = ("saved", "applied", "screening", "interviewing", "offer", "rejected", "withdrawn",
            "ghosted")
WEIGHT_KEYS = ("fit", "remote", "location", "recency", "salary")
DEFAULT_WEIGHTS = {"fit": 1.0, "remote": 0.3, "location": 0.2, "recency": 0.2, "salary": 0.1}
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
        return _number(doc, value, *at, minimum=self.minimum, maximum=self.maximum)


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


def expand_path(value: str) -> Path:
    return Path(os.path.expandvars(os.path.expanduser(value)))


def normalize_llm_url(url: str) -> str:
    """`gpu:8000` or `http://gpu:8000` → `http://gpu:8000/v1`; a URL with a path is kept."""
    url = url.strip().rstrip("/")
    if "://" not in url:
        url = "http://" + url
    scheme, rest = url.split("://", 1)
    if "/" not in rest:
        url = f"{scheme}://{rest}/v1"
    return url


# --- small checkers: each returns the value or raises doc.error(...) ----------------

def _mapping(doc: Document, value: Any, *at: Any, allowed: Iterable[str]) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise doc.error(f"must be a mapping, got {type(value).__name__}", *at)
    allowed = tuple(allowed)
    for key in value:
        if key not in allowed:
            raise doc.error(f"unknown key (expected one of: {', '.join(allowed)})", *at, key)
    return value


def _str(doc: Document, value: Any, *at: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise doc.error("must be a non-empty string", *at)
    return value


def _number(doc: Document, value: Any, *at: Any, minimum: float = 0,
            maximum: float = 1e9) -> float:
    # YAML reads .nan and .inf as floats: a NaN deadline or score breaks every run later,
    # and an infinite timeout is none. Every number is finite and in its range.
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or not math.isfinite(value) or not minimum <= value <= maximum:
        raise doc.error(f"must be a number from {minimum:g} to {maximum:g}", *at)
    return float(value)


def _int(doc: Document, value: Any, *at: Any, minimum: int = 1,
         maximum: int = 1_000_000) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        raise doc.error(f"must be a whole number from {minimum} to {maximum}", *at)
    return value


def _url(doc: Document, value: Any, *at: Any) -> str:
    """An http(s) URL that parses (a bracket left open, a port out of range, no host:
    each caught here, not by the HTTP client in the middle of a run)."""
    text = _str(doc, value, *at).strip()
    try:
        parts = urlsplit(text)
        parts.port   # noqa: B018  (raises ValueError for a bad port)
        host = parts.hostname
    except ValueError as exc:
        raise doc.error(f"not a usable URL ({exc})", *at) from None
    if parts.scheme not in ("http", "https") or not host:
        raise doc.error("must be an http:// or https:// URL with a host", *at)
    return text


def _str_list(doc: Document, value: Any, *at: Any,
              check: Callable[[str], bool] | None = None, expected: str = "") -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise doc.error("must be a list", *at)
    out = []
    for index, item in enumerate(value):
        if not isinstance(item, str | int | float) or isinstance(item, bool):
            raise doc.error("must be a string", *at, index)
        text = str(item).strip().lower()
        if check and not check(text):
            raise doc.error(f"unknown value {text!r} (expected one of: {expected})", *at, index)
        out.append(text)
    return tuple(out)


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
    top = _mapping(doc, doc.data, allowed=("llm", "concurrency", "maildir", *sections, "fetch",
                                             "model_check", "imap", "prepare", "followup",
                                             "notify", "timezone", "render", "alerts"))
    llm_raw = _mapping(doc, top.get("llm"), "llm", allowed=(
        "url", "model", "models", "api_key_env", "timeout", "retries", "max_tokens", "gguf"))
    defaults = LLMConfig()
    llm = LLMConfig(
        url=_url(doc, normalize_llm_url(_str(doc, llm_raw["url"], "llm", "url")), "llm", "url")
        if llm_raw.get("url") is not None else (None if "url" in llm_raw else defaults.url),
        model=_str(doc, llm_raw["model"], "llm", "model")
        if llm_raw.get("model") is not None else (None if "model" in llm_raw else defaults.model),
        models={
            str(k): _str(doc, v, "llm", "models", k)
            for k, v in _mapping(doc, llm_raw.get("models"), "llm", "models",
                                 allowed=names).items()
        },
        api_key_env=_str(doc, llm_raw["api_key_env"], "llm", "api_key_env")
        if llm_raw.get("api_key_env") is not None else None,
        timeout=_number(doc, llm_raw.get("timeout", defaults.timeout), "llm", "timeout",
                        minimum=1, maximum=MAX_TIMEOUT),
        retries=_int(doc, llm_raw.get("retries", defaults.retries), "llm", "retries",
                     maximum=MAX_RETRIES),
        max_tokens={
            "default": DEFAULT_MAX_TOKENS,
            **{task.name: task.max_tokens for task in tasks if task.max_tokens is not None},
            **{str(k): _int(doc, v, "llm", "max_tokens", k, minimum=16, maximum=MAX_TOKENS)
               for k, v in _mapping(doc, llm_raw.get("max_tokens"), "llm", "max_tokens",
                                    allowed=("default", *names)).items()},
        },
        gguf=expand_path(_str(doc, llm_raw["gguf"], "llm", "gguf"))
        if llm_raw.get("gguf") is not None else None,
    )
    if llm.url and has_userinfo(llm.url):   # httpx would send it as Basic auth (docs/llm.md)
        raise doc.error("a user name or password in the URL is never sent; put the key in "
                        "the variable llm.api_key_env names", "llm", "url")
    fetch = _mapping(doc, top.get("fetch"), "fetch", allowed=("deadline",))
    model_check = _mapping(doc, top.get("model_check"), "model_check",
                           allowed=("min_accuracy",))
    return Config(
        llm=llm,
        concurrency=_int(doc, top.get("concurrency", DEFAULT_CONCURRENCY), "concurrency",
                         maximum=MAX_CONCURRENCY),
        maildir=expand_path(_str(doc, top["maildir"], "maildir"))
        if top.get("maildir") is not None else None,
        task_settings={task.name: _task_settings(doc, top.get(task.name), task)
                       for task in tasks if task.settings},
        fetch_deadline=_number(doc, fetch.get("deadline", DEFAULT_FETCH_DEADLINE), "fetch",
                               "deadline", minimum=1, maximum=MAX_FETCH_DEADLINE),
        min_accuracy=_number(doc, model_check.get("min_accuracy", DEFAULT_MIN_ACCURACY),
                             "model_check", "min_accuracy", maximum=1),
        imap=_load_imap(doc, top.get("imap")),
        path=path,
        prepare=_load_prepare(doc, top.get("prepare")),
        followup=load_followup(doc, top.get("followup")),
        notify=_load_notify(doc, top.get("notify")),
        timezone=_load_timezone(doc, top.get("timezone")),
        render=_load_render(doc, top.get("render")),
        alerts=_load_alerts(doc, top.get("alerts")),
    )


def _task_settings(doc: Document, raw: Any, task: TaskDeclaration) -> dict[str, float]:
    """A task's own section: each key it declares, checked by its Setting, else the
    Setting's default."""
    given = _mapping(doc, raw, task.name, allowed=task.settings)
    return {name: setting.check(doc, given[name], task.name, name) if name in given
            else setting.default for name, setting in task.settings.items()}


# --- profile.yaml -------------------------------------------------------------------

# Currencies a salary floor may name, with roughly how many US dollars one unit is worth
# (late 2026). Used only to compare a posting's salary with a floor given in another
# currency; a floor for the posting's own currency, when given, is used as it is.
USD_PER_UNIT: dict[str, float] = {
    "USD": 1.0, "EUR": 1.08, "GBP": 1.27, "CHF": 1.13, "CAD": 0.72, "AUD": 0.65,
    "NZD": 0.59, "JPY": 0.0066, "CNY": 0.14, "HKD": 0.128, "SGD": 0.74, "INR": 0.012,
    "SEK": 0.095, "NOK": 0.092, "DKK": 0.145, "PLN": 0.25, "CZK": 0.043, "HUF": 0.0027,
    "RON": 0.217, "BGN": 0.55, "ILS": 0.27, "AED": 0.272, "ZAR": 0.055, "BRL": 0.18,
    "MXN": 0.055, "ARS": 0.001, "CLP": 0.0011, "COP": 0.00025, "KRW": 0.00072,
    "TWD": 0.031, "THB": 0.028, "MYR": 0.22, "IDR": 0.000063, "PHP": 0.017, "TRY": 0.029,
    "UAH": 0.024, "EGP": 0.02, "NGN": 0.00065, "KES": 0.0077, "PKR": 0.0036,
    "VND": 0.00004, "ISK": 0.0072,
}
REMOTE_CHOICES = ("required", "any")
SPONSORSHIP_CHOICES = ("required", "any")
OWN_BOARD_CHOICES = ("required", "any")
MAX_COMPANY_CHARS = 200


@dataclass(frozen=True)
class CompanyRule:
    """`filters.companies` entry: a company never judged, and why (shown beside it)."""

    name: str
    reason: str = ""


@dataclass(frozen=True)
class SalaryFloor:
    """`filters.salary_min` entry: a stated salary whose top is below it is filtered."""

    amount: float
    currency: str


@dataclass(frozen=True)
class Filters:
    """profile.yaml's `filters` (docs/ranking.md): postings never judged, never matched.

    Nothing here is stored anywhere: the queue and the lists read them as they read the
    rest of the profile, so editing them changes what is listed and asks nothing."""

    companies: tuple[CompanyRule, ...] = ()
    salary_min: tuple[SalaryFloor, ...] = ()    # one per currency; the first converts others
    remote: str = "any"                          # required | any
    sponsorship: str = "any"                     # required | any
    max_age_days: int | None = None
    max_reposts: int | None = None               # `signals.max_reposts` (ranking/signals.py)
    own_board: str = "any"                       # `signals.own_board`: required | any

    @property
    def active(self) -> bool:
        return bool(self.companies or self.salary_min or self.remote == "required"
                    or self.sponsorship == "required" or self.max_age_days is not None
                    or self.max_reposts is not None or self.own_board == "required")


@dataclass(frozen=True)
class Profile:
    prose: str = ""
    levels: tuple[str, ...] = ()
    locations: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    weights: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_WEIGHTS))
    exists: bool = False
    filters: Filters = field(default_factory=Filters)

    @property
    def prose_hash(self) -> str:
        return description_hash(self.prose.strip())


def _choice(doc: Document, value: Any, choices: tuple[str, ...], *at: Any) -> str:
    if value is None:
        return choices[-1]
    if not isinstance(value, str) or value.strip().lower() not in choices:
        raise doc.error(f"must be one of: {', '.join(choices)}", *at)
    return value.strip().lower()


def _salary_floor(doc: Document, value: Any, *at: Any) -> SalaryFloor:
    raw = _mapping(doc, value, *at, allowed=("amount", "currency"))
    if "amount" not in raw or "currency" not in raw:
        raise doc.error("needs both amount and currency, e.g. {amount: 120000, "
                        "currency: USD}", *at)
    amount = raw["amount"]
    if isinstance(amount, int | float) and not isinstance(amount, bool) and amount < 0:
        raise doc.error("must not be negative", *at, "amount")
    amount = _number(doc, amount, *at, "amount", maximum=1e12)
    code = _str(doc, raw["currency"], *at, "currency").strip().upper()
    if code not in USD_PER_UNIT:
        raise doc.error(f"unknown currency {code!r} (an ISO 4217 code, one of: "
                        f"{', '.join(sorted(USD_PER_UNIT))})", *at, "currency")
    return SalaryFloor(amount, code)


def _load_filters(doc: Document, value: Any) -> Filters:
    raw = _mapping(doc, value, "filters", allowed=(
        "companies", "salary_min", "remote", "sponsorship", "max_age_days", "signals"))
    signal_rules = _mapping(doc, raw.get("signals"), "filters", "signals",
                            allowed=("max_reposts", "own_board"))
    reposts = signal_rules.get("max_reposts")
    companies = []
    listed = raw.get("companies")
    if listed is not None and not isinstance(listed, list):
        raise doc.error("must be a list of {name: ..., reason: ...}", "filters", "companies")
    for index, item in enumerate(listed or []):
        at = ("filters", "companies", index)
        if isinstance(item, str):     # a bare name is a rule with no reason
            item = {"name": item}
        entry = _mapping(doc, item, *at, allowed=("name", "reason"))
        name = " ".join(_str(doc, entry.get("name"), *at, "name").split())
        if len(name) > MAX_COMPANY_CHARS:
            raise doc.error(f"longer than {MAX_COMPANY_CHARS} characters", *at, "name")
        reason = entry.get("reason")
        if reason is not None and not isinstance(reason, str | int | float):
            raise doc.error("must be text", *at, "reason")
        companies.append(CompanyRule(name, " ".join(str(reason or "").split())))
    floors: list[SalaryFloor] = []
    salary = raw.get("salary_min")
    if isinstance(salary, list):
        for index, item in enumerate(salary):
            floor = _salary_floor(doc, item, "filters", "salary_min", index)
            if any(f.currency == floor.currency for f in floors):
                raise doc.error(f"a second floor in {floor.currency}", "filters",
                                "salary_min", index, "currency")
            floors.append(floor)
    elif salary is not None:
        floors.append(_salary_floor(doc, salary, "filters", "salary_min"))
    age = raw.get("max_age_days")
    return Filters(
        companies=tuple(companies), salary_min=tuple(floors),
        remote=_choice(doc, raw.get("remote"), REMOTE_CHOICES, "filters", "remote"),
        sponsorship=_choice(doc, raw.get("sponsorship"), SPONSORSHIP_CHOICES, "filters",
                            "sponsorship"),
        max_age_days=None if age is None else _int(doc, age, "filters", "max_age_days",
                                                   maximum=36_500),
        max_reposts=None if reposts is None else _int(doc, reposts, "filters", "signals",
                                                      "max_reposts", minimum=0,
                                                      maximum=1_000),
        own_board=_choice(doc, signal_rules.get("own_board"), OWN_BOARD_CHOICES, "filters",
                          "signals", "own_board"))


def load_profile(path: Path) -> Profile:
    doc = load(path)
    top = _mapping(doc, doc.data, allowed=("prose", "levels", "locations", "exclude", "weights",
                                             "filters"))
    prose = top.get("prose") or ""
    if not isinstance(prose, str):
        raise doc.error("must be text", "prose")
    weights = _mapping(doc, top.get("weights"), "weights", allowed=WEIGHT_KEYS)
    return Profile(
        prose=prose,
        levels=_str_list(doc, top.get("levels"), "levels", check=lambda v: v in LEVELS,
                         expected=", ".join(LEVELS)),
        locations=_str_list(doc, top.get("locations"), "locations"),
        exclude=_str_list(doc, top.get("exclude"), "exclude"),
        weights={**DEFAULT_WEIGHTS,
                 **{k: _number(doc, v, "weights", k, minimum=-100, maximum=100)
                    for k, v in weights.items()}},
        exists=doc.data is not None,
        filters=_load_filters(doc, top.get("filters")),
    )


# --- sources.yaml -------------------------------------------------------------------

@dataclass(frozen=True)
class Board:
    ats: str
    token: str
    company: str
    url: str | None = None

    @property
    def name(self) -> str:
        return f"{self.ats}:{self.token}"


@dataclass(frozen=True)
class Feed:
    name: str
    url: str


@dataclass(frozen=True)
class Sources:
    boards: tuple[Board, ...] = ()
    feeds: tuple[Feed, ...] = ()


def load_sources(path: Path, known_ats: Iterable[str]) -> Sources:
    doc = load(path)
    known = tuple(sorted(known_ats))
    top = _mapping(doc, doc.data, allowed=("boards", "feeds"))
    boards, feeds = [], []
    for key, items in (("boards", top.get("boards")), ("feeds", top.get("feeds"))):
        if items is None:
            continue
        if not isinstance(items, list):
            raise doc.error("must be a list", key)
        for index, item in enumerate(items):
            if key == "boards":
                raw = _mapping(doc, item, key, index, allowed=("ats", "token", "company", "url"))
                ats = _str(doc, raw.get("ats"), key, index, "ats").strip().lower()
                if ats not in known:
                    raise doc.error(f"unknown ATS {ats!r} (known: {', '.join(known)})",
                                    key, index, "ats")
                token = _str(doc, raw.get("token"), key, index, "token").strip()
                company = str(raw.get("company") or token)
                url = _url(doc, raw["url"], key, index, "url") if raw.get("url") else None
                boards.append(Board(ats, token, company, url))
            else:
                raw = _mapping(doc, item, key, index, allowed=("name", "url"))
                feeds.append(Feed(_str(doc, raw.get("name"), key, index, "name").strip(),
                                  _url(doc, raw.get("url"), key, index, "url")))
    return Sources(tuple(boards), tuple(feeds))


# --- plugins.yaml -------------------------------------------------------------------

def load_plugins(path: Path, tasks: Iterable[TaskDeclaration]) -> dict[str, bool]:
    """Which of `tasks` are switched on: each one's declared default, overridden by
    plugins.yaml. A name that is not one of `tasks` is an error."""
    doc = load(path)
    enabled = {task.name: task.enabled_by_default for task in tasks}
    top = _mapping(doc, doc.data, allowed=("tasks",))
    switched = _mapping(doc, top.get("tasks"), "tasks", allowed=enabled)
    for name, value in switched.items():
        if not isinstance(value, bool):
            raise doc.error("must be true or false", "tasks", name)
        enabled[name] = value
    return enabled


# --- config.yaml: imap --------------------------------------------------------------

LOOPBACK_HOSTS = ("127.0.0.1", "::1", "localhost")


@dataclass(frozen=True)
class ImapConfig:
    """An IMAP account read-only (docs/mail.md). The password is never stored here:
    only how to get it (`password_command` or `password_env`)."""

    host: str
    user: str
    port: int = 993
    password_command: str | None = None
    password_env: str | None = None
    folders: tuple[str, ...] = ("INBOX",)
    tls: bool | str = True          # True (implicit TLS) | "starttls" | False (loopback only)

    @property
    def account(self) -> str:
        """The account's name in the database and in messages: user@host:port."""
        return f"{self.user}@{self.host}:{self.port}"


def _load_imap(doc: Document, value: Any) -> ImapConfig | None:
    if value is None:
        return None
    raw = _mapping(doc, value, "imap", allowed=(
        "host", "port", "user", "password_command", "password_env", "folders", "tls"))
    for key in ("host", "user"):
        if raw.get(key) is None:
            raise doc.error("is required", "imap", key)
    sources = [key for key in ("password_command", "password_env") if raw.get(key) is not None]
    if len(sources) != 1:
        raise doc.error("give exactly one of password_command and password_env", "imap")
    tls = raw.get("tls", True)
    if tls not in (True, False, "starttls"):
        raise doc.error("must be true, starttls or false", "imap", "tls")
    host = _str(doc, raw["host"], "imap", "host").strip()
    if tls is False and host not in LOOPBACK_HOSTS:
        # A password in clear text over a network is never sent.
        raise doc.error("tls: false is only for a server on this machine "
                        f"({', '.join(LOOPBACK_HOSTS)})", "imap", "tls")
    folders = raw.get("folders", ["INBOX"])
    if not isinstance(folders, list) or not folders:
        raise doc.error("must be a non-empty list of folder names", "imap", "folders")
    for index, folder in enumerate(folders):
        # Folder names are case-sensitive (INBOX aside) and sent as a quoted string.
        if not isinstance(folder, str) or not folder.strip() or not folder.isascii() \
                or not folder.isprintable():
            raise doc.error("must be a folder name in printable ASCII (IMAP's modified "
                            "UTF-7 form for other names)", "imap", "folders", index)
    port = _int(doc, raw.get("port", 993 if tls is True else 143), "imap", "port")
    if port > 65535:
        raise doc.error("must be a port number (1-65535)", "imap", "port")
    return ImapConfig(
        host=host, user=_str(doc, raw["user"], "imap", "user"), port=port,
        password_command=_str(doc, raw["password_command"], "imap", "password_command")
        if raw.get("password_command") is not None else None,
        password_env=_str(doc, raw["password_env"], "imap", "password_env")
        if raw.get("password_env") is not None else None,
        folders=tuple(folders), tls=tls)


# --- config.yaml: prepare ------------------------------------------------------------

@dataclass(frozen=True)
class PrepareConfig:
    top: int = 5              # packets `prepare` and the end of `--run` make; 0: none at the end


def _load_prepare(doc: Document, value: Any) -> PrepareConfig:
    raw = _mapping(doc, value, "prepare", allowed=("top",))
    return PrepareConfig(top=_int(doc, raw.get("top", PrepareConfig.top), "prepare", "top",
                                  minimum=0))


# --- config.yaml: render -------------------------------------------------------------

@dataclass(frozen=True)
class RenderConfig:
    """How documents are rendered (docs/render.md): the theme (a built-in name, or a
    .typ file; a relative path is from the workspace), the paper, and which formats
    a packet carries."""

    theme: str = themes.DEFAULT_THEME
    paper: str = themes.DEFAULT_PAPER
    formats: tuple[str, ...] = ("pdf",)
    home: Path | None = None          # where a relative theme path starts

    def find_theme(self) -> themes.Theme:
        return themes.find_theme(self.theme, self.home)


RENDER_FORMATS = ("pdf", "docx")


def _load_render(doc: Document, value: Any) -> RenderConfig:
    raw = _mapping(doc, value, "render", allowed=("theme", "paper", "formats"))
    home = doc.path.parent
    theme = _str(doc, raw.get("theme", themes.DEFAULT_THEME), "render", "theme").strip()
    try:
        themes.find_theme(theme, home)
    except themes.ThemeError as exc:
        raise doc.error(str(exc), "render", "theme") from None
    paper = _str(doc, raw.get("paper", themes.DEFAULT_PAPER), "render", "paper").strip().lower()
    if paper not in themes.PAPERS:
        raise doc.error(f"unknown paper {paper!r} (expected one of: {', '.join(themes.PAPERS)})",
                        "render", "paper")
    formats = _str_list(doc, raw.get("formats", ["pdf"]), "render", "formats",
                        check=lambda v: v in RENDER_FORMATS, expected=", ".join(RENDER_FORMATS))
    return RenderConfig(theme, paper, tuple(dict.fromkeys(formats)), home)


# --- config.yaml: alerts ------------------------------------------------------------

@dataclass(frozen=True)
class AlertsConfig:
    """Job-alert mail read by `fetch` from `maildir` and `imap` (docs/alerts.md)."""

    enabled: bool = True          # read alerts whenever a mailbox is configured
    close_after_days: int = 14    # a card not seen in an alert for this long is closed
    probe_companies: int = 5      # alert companies whose boards one fetch looks for (0: none)


def _load_alerts(doc: Document, value: Any) -> AlertsConfig:
    raw = _mapping(doc, value, "alerts", allowed=("enabled", "close_after_days",
                                                  "probe_companies"))
    enabled = raw.get("enabled", True)
    if not isinstance(enabled, bool):
        raise doc.error("must be true or false", "alerts", "enabled")
    return AlertsConfig(
        enabled=enabled,
        close_after_days=_int(doc, raw.get("close_after_days", AlertsConfig.close_after_days),
                              "alerts", "close_after_days", maximum=3650),
        probe_companies=_int(doc, raw.get("probe_companies", AlertsConfig.probe_companies),
                             "alerts", "probe_companies", minimum=0, maximum=100))


# --- config.yaml: followup ----------------------------------------------------------

FOLLOWUP_DEFAULTS = {"applied": 10, "screening": 7, "interviewing": 5}
GHOSTED_AFTER = 30


@dataclass(frozen=True)
class Followup:
    """Days of silence (no employer message, no status change) before an application
    at a status is due for a follow-up; and before an open one is proposed `ghosted`."""

    days: dict[str, int] = field(default_factory=lambda: dict(FOLLOWUP_DEFAULTS))
    ghosted_after: int = GHOSTED_AFTER


def load_followup(doc: Document, raw: Any) -> Followup:
    """`followup: {applied: 10, screening: 7, interviewing: 5, ghosted_after: 30}`; a key
    given replaces that default only. Any status may have an entry."""
    given = _mapping(doc, raw, "followup", allowed=(*STATUSES, "ghosted_after"))
    days = dict(FOLLOWUP_DEFAULTS)
    for key, value in given.items():
        if key != "ghosted_after":
            days[key] = _int(doc, value, "followup", key)
    ghosted = _int(doc, given.get("ghosted_after", GHOSTED_AFTER), "followup", "ghosted_after")
    return Followup(days, ghosted)


# --- config.yaml: notify and timezone ------------------------------------------------

CHANNELS = ("file", "email", "ntfy", "webhook")
# The judge's verdicts, best first (the rankings table's CHECK holds the same four).
VERDICTS = ("strong", "good", "partial", "poor")
DEFAULT_CHANNEL_DEADLINE = 30.0     # seconds one channel may take, all of it
MAX_CHANNEL_DEADLINE = 600.0


@dataclass(frozen=True)
class EmailChannel:
    """SMTP delivery (docs/notify.md). Like IMAP's, the password is never stored here."""

    to: tuple[str, ...]
    sender: str = "jobtracker@localhost"
    host: str = "127.0.0.1"
    port: int = 25
    tls: bool | str = True           # True (implicit TLS) | "starttls" | False (loopback only)
    user: str | None = None
    password_env: str | None = None
    password_command: str | None = None


@dataclass(frozen=True)
class HttpChannel:
    """An HTTP channel (ntfy, webhook): where to POST, and the bearer token's source."""

    url: str
    token_env: str | None = None
    token_command: str | None = None


@dataclass(frozen=True)
class NotifyConfig:
    to: tuple[str, ...] = ("file",)
    min_verdict: str = "good"
    deadline: float = DEFAULT_CHANNEL_DEADLINE
    email: EmailChannel | None = None
    ntfy: HttpChannel | None = None
    webhook: HttpChannel | None = None


def _secret_source(doc: Document, raw: dict[str, Any], at: tuple[str, ...], env: str,
                   command: str, *, required: bool) -> tuple[str | None, str | None]:
    given = [key for key in (env, command) if raw.get(key) is not None]
    if len(given) > 1 or (required and not given):
        raise doc.error(f"give {'exactly' if required else 'at most'} one of {env} and "
                        f"{command}", *at)
    return (_str(doc, raw[env], *at, env) if raw.get(env) is not None else None,
            _str(doc, raw[command], *at, command) if raw.get(command) is not None else None)


def _load_email(doc: Document, value: Any) -> EmailChannel:
    at = ("notify", "email")
    raw = _mapping(doc, value, *at, allowed=(
        "to", "from", "host", "port", "tls", "user", "password_env", "password_command"))
    if raw.get("to") is None:
        raise doc.error("is required (the address the digest goes to)", *at, "to")
    to = [raw["to"]] if isinstance(raw["to"], str) else raw["to"]
    if not isinstance(to, list) or not to:
        raise doc.error("must be an address or a list of addresses", *at, "to")
    for index, address in enumerate(to):
        if not isinstance(address, str) or "@" not in address or any(
                ch.isspace() or ch in "<>,;" for ch in address.strip()):
            raise doc.error("must be a plain address such as ada@example.org",
                            *at, "to", *((index,) if isinstance(raw["to"], list) else ()))
    sender = _str(doc, raw.get("from", EmailChannel.sender), *at, "from").strip()
    if "@" not in sender or any(ch.isspace() for ch in sender):
        raise doc.error("must be a plain address such as jobtracker@localhost", *at, "from")
    tls = raw.get("tls", True)
    if tls not in (True, False, "starttls"):
        raise doc.error("must be true, starttls or false", *at, "tls")
    host = _str(doc, raw.get("host", EmailChannel.host), *at, "host").strip()
    if tls is False and host not in LOOPBACK_HOSTS:
        # Mail and a password in clear text over a network are never sent.
        raise doc.error("tls: false is only for a server on this machine "
                        f"({', '.join(LOOPBACK_HOSTS)})", *at, "tls")
    port = _int(doc, raw.get("port", {True: 465, "starttls": 587}.get(tls, 25)), *at, "port",
                maximum=65535)
    user = _str(doc, raw["user"], *at, "user") if raw.get("user") is not None else None
    env, command = _secret_source(doc, raw, at, "password_env", "password_command",
                                  required=user is not None)
    if user is None and (env or command):
        raise doc.error("a password needs a user to log in as", *at, "user")
    return EmailChannel(to=tuple(a.strip() for a in to), sender=sender, host=host, port=port,
                        tls=tls, user=user, password_env=env, password_command=command)


def _load_http(doc: Document, value: Any, name: str) -> HttpChannel:
    at = ("notify", name)
    raw = _mapping(doc, value, *at, allowed=("url", "token_env", "token_command"))
    if raw.get("url") is None:
        raise doc.error("is required", *at, "url")
    url = _url(doc, raw["url"], *at, "url")
    if has_userinfo(url):
        raise doc.error("a user name or password in the URL is never sent; put the token "
                        "in the variable token_env names", *at, "url")
    if name == "ntfy" and not urlsplit(url).path.strip("/"):
        raise doc.error("must name the topic: https://ntfy.sh/TOPIC", *at, "url")
    env, command = _secret_source(doc, raw, at, "token_env", "token_command", required=False)
    if (env or command) and urlsplit(url).scheme != "https" \
            and urlsplit(url).hostname not in LOOPBACK_HOSTS:
        raise doc.error("a token is sent only over https (or to this machine)", *at, "url")
    return HttpChannel(url=url, token_env=env, token_command=command)


def _load_notify(doc: Document, value: Any) -> NotifyConfig | None:
    if value is None:
        return None
    raw = _mapping(doc, value, "notify", allowed=(
        "to", "min_verdict", "deadline", "email", "ntfy", "webhook"))
    to = _str_list(doc, raw.get("to", ["file"]), "notify", "to",
                   check=lambda v: v in CHANNELS, expected=", ".join(CHANNELS))
    if not to:
        raise doc.error(f"must name at least one channel ({', '.join(CHANNELS)})",
                        "notify", "to")
    verdict = str(raw.get("min_verdict", NotifyConfig.min_verdict)).strip().lower()
    if verdict not in VERDICTS:
        raise doc.error(f"must be one of: {', '.join(VERDICTS)}", "notify", "min_verdict")
    channels: dict[str, Any] = {}
    for name, load_one in (("email", _load_email),
                           ("ntfy", lambda d, v: _load_http(d, v, "ntfy")),
                           ("webhook", lambda d, v: _load_http(d, v, "webhook"))):
        if raw.get(name) is not None:
            channels[name] = load_one(doc, raw[name])
        elif name in to:
            raise doc.error(f"names {name}, which needs a notify.{name} section "
                            "(docs/notify.md)", "notify", "to")
    return NotifyConfig(
        to=tuple(dict.fromkeys(to)), min_verdict=verdict,
        deadline=_number(doc, raw.get("deadline", DEFAULT_CHANNEL_DEADLINE), "notify",
                         "deadline", minimum=0.1, maximum=MAX_CHANNEL_DEADLINE),
        **channels)


def load_timezone(path: Path) -> str | None:
    """config.yaml's `timezone:` alone (an accepted interview asks for it; reading the
    whole file would need the task registry)."""
    doc = load(path)
    data = doc.data if isinstance(doc.data, dict) else {}
    return _load_timezone(doc, data.get("timezone"))


def _load_timezone(doc: Document, value: Any) -> str | None:
    if value is None:
        return None
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError  # tzdata: a few ms, only when set

    name = _str(doc, value, "timezone").strip()
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise doc.error(f"{name!r} is not a time zone name (IANA, such as Europe/Berlin or "
                        "America/New_York)", "timezone") from None
    return name


__all__ = [
    "LEVELS", "STATUSES", "USD_PER_UNIT", "AlertsConfig", "Board", "CompanyRule", "Config",
    "ConfigError", "Feed", "Filters", "Followup", "ImapConfig", "LLMConfig", "PrepareConfig",
    "Profile", "RenderConfig", "SalaryFloor", "Setting", "Sources", "TaskDeclaration",
    "expand_path", "load_config", "load_followup", "load_plugins", "load_profile",
    "load_sources", "normalize_llm_url",
]
# notify and timezone (docs/notify.md)
__all__ += ["CHANNELS", "VERDICTS", "EmailChannel", "HttpChannel", "NotifyConfig",
            "load_timezone"]
