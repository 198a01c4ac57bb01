"""A workspace's settings for one command: loaded and checked once, overrides applied.

The one wiring point: the files checked against a registry (config.yaml's task sections
and plugins.yaml against the tasks, sources.yaml against the sources) are read here, the
registry imported when asked; Workspace itself holds paths and file loading only."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from jobtracker import config as cfg
from jobtracker import files
from jobtracker.config import Config, Profile, Sources, expand_path, normalize_llm_url
from jobtracker.workspace import Workspace
from jobtracker.yamlfile import ConfigError

if TYPE_CHECKING:   # the task registry loads when a setup is made, not for RunOptions
    from jobtracker.tasks import Context, Task

TEXT_FILES = ("resume.md", "keywords.yaml", "coverletter.md", "answers.yaml")


@dataclass(frozen=True)
class RunOptions:
    task: str | None = None          # pinned task
    budget: int | None = None        # at most this many units
    concurrency: int | None = None   # overrides config.yaml
    llm_url: str | None = None       # overrides config.yaml (and its llm.gguf)
    gguf: str | None = None          # overrides config.yaml: serve this model file embedded
    model: str | None = None         # overrides config.yaml's llm.model and llm.models
    continuous: bool = False         # every task in priority order, re-surveying as stages drain
    deadline: float | None = None    # seconds; stop admitting units after it
    reask_stale_prompts: bool = False  # re-ask answers written with another prompt version


@dataclass(frozen=True)
class Setup:
    """A workspace's settings, loaded and checked once per command."""

    ws: Workspace
    config: Config
    profile: Profile
    tasks: list[Task]
    reask_stale_prompts: bool = False

    def context(self, now: str) -> Context:
        from jobtracker.tasks import Context

        texts: dict[str, str | None] = {}
        for name in TEXT_FILES:
            texts[name] = read_input(self.ws.home / name)
        return Context(home=self.ws.home, config=self.config, profile=self.profile, now=now,
                       texts=texts, reask_stale_prompts=self.reask_stale_prompts)


def config_of(ws: Workspace) -> Config:
    """config.yaml, its task sections checked against the registered tasks."""
    from jobtracker.tasks import ordered  # every task's module: imported when asked

    return cfg.load_config(ws / "config.yaml", ordered())


def sources_of(ws: Workspace) -> Sources:
    """sources.yaml, each board checked against the registered sources."""
    from jobtracker.sources import REGISTRY

    return cfg.load_sources(ws / "sources.yaml", REGISTRY)


def plugins_of(ws: Workspace) -> dict[str, bool]:
    """Which registered tasks plugins.yaml switches on."""
    from jobtracker.tasks import ordered

    return cfg.load_plugins(ws / "plugins.yaml", ordered())


def read_input(path: Path) -> str | None:
    """An input file of the workspace (resume.md, keywords.yaml, ...) through the one
    reader, a link followed (a dotfiles folder); None when missing. ConfigError naming
    it when it is a FIFO, a device, a folder, larger than 16 MB or not UTF-8: the run
    says so in one line instead of hanging or filling memory."""
    try:
        return files.read_regular(path, follow_links=True)
    except files.FileRefused as exc:
        raise ConfigError(path, exc.reason.removeprefix("is ")) from None


def check_inputs(home: Path) -> None:
    """For `check`: every input file reads (ConfigError naming the first that does not:
    a FIFO, a device, a folder, not UTF-8) and keywords.yaml parses."""
    from jobtracker.resume.keywords import KeywordsError, keyword_terms

    for name in TEXT_FILES:
        text = read_input(home / name)
        if name == "keywords.yaml":
            try:
                keyword_terms(text)
            except KeywordsError as exc:
                raise ConfigError(home / name, str(exc).removeprefix(f"{name}: ")) from None


def load_setup(ws: Workspace, options: RunOptions = RunOptions()) -> Setup:
    """Read config, profile and plugins (ConfigError on a bad file); apply overrides."""
    config = config_of(ws)
    if options.llm_url:   # a server named for this run wins over the file's llm.gguf
        config = replace(config, llm=replace(config.llm, url=normalize_llm_url(options.llm_url),
                                             gguf=None))
    if options.gguf:
        config = replace(config, llm=replace(config.llm, gguf=expand_path(options.gguf)))
    if options.model:     # one model for every task (the demo on a server of your own)
        config = replace(config, llm=replace(config.llm, model=options.model, models={}))
    if options.concurrency:
        config = replace(config, concurrency=options.concurrency)
    from jobtracker.tasks import ordered  # every task's module: only for a run's setup

    tasks = ordered(plugins_of(ws))
    if options.task is not None and options.task not in {t.name for t in tasks}:
        known = ", ".join(t.name for t in tasks) or "none"
        raise ConfigError(ws.home / "plugins.yaml",
                          f"task {options.task!r} is unknown or switched off (on: {known})")
    return Setup(ws, config, ws.profile(), tasks, options.reask_stale_prompts)
