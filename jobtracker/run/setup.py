"""A workspace's settings for one command: loaded and checked once, overrides applied."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from jobtracker.config import Config, Profile, expand_path, normalize_llm_url
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
            path = self.ws.home / name
            try:
                texts[name] = path.read_text(encoding="utf-8")
            except FileNotFoundError:
                texts[name] = None
            except UnicodeDecodeError as exc:
                raise ConfigError(path, f"not UTF-8 text ({exc.reason} at byte {exc.start})"
                                  ) from None
        return Context(home=self.ws.home, config=self.config, profile=self.profile, now=now,
                       texts=texts, reask_stale_prompts=self.reask_stale_prompts)


def load_setup(ws: Workspace, options: RunOptions = RunOptions()) -> Setup:
    """Read config, profile and plugins (ConfigError on a bad file); apply overrides."""
    config = ws.config()
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

    tasks = ordered(ws.plugins())
    if options.task is not None and options.task not in {t.name for t in tasks}:
        known = ", ".join(t.name for t in tasks) or "none"
        raise ConfigError(ws.home / "plugins.yaml",
                          f"task {options.task!r} is unknown or switched off (on: {known})")
    return Setup(ws, config, ws.profile(), tasks, options.reask_stale_prompts)
