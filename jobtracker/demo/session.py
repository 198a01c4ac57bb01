"""`jobtracker-tui --demo`: a demo workspace, and the demo model for the session.

Where: `--home DIR` when given, else a new temporary folder. `JOBTRACKER_HOME` is
deliberately not read, so a demo never lands in a real workspace by accident. The
folder is kept after the session (its path is printed), so the tailored resumes
and the database can be looked at afterwards.

Which model: `--llm-url URL` when given (the run then asks for the first model
that server lists — written into a new demo workspace's config.yaml, and passed
as the run's model when an existing one still names the demo model), else the
server the workspace's config.yaml names (`llm.url` or `llm.gguf`), else the
bundled demo model, started on 127.0.0.1 for the length of the session and
stopped after it. `DemoSession.demo_model` says which answers, for the header.
"""

from __future__ import annotations

import shlex
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import httpx

from jobtracker.config import Config, normalize_llm_url
from jobtracker.demo import DEMO_MODEL, install_demo
from jobtracker.demo.load import DemoBoards
from jobtracker.run.setup import config_of
from jobtracker.workspace import Workspace, resolve_home

PROBE_SECONDS = 5.0


@dataclass(frozen=True)
class DemoSession:
    ws: Workspace
    llm_url: str | None      # the URL this session's run must use; None: config.yaml's own
    demo_model: bool         # True when the bundled demo model answers
    model: str | None = None  # the model the run must ask for; None: config.yaml's own
    # The demo's boards on loopback for the session: a fetch reads them (never the
    # internet, where these made-up companies have no board).
    boards: DemoBoards | None = None


def first_model(url: str) -> str | None:
    """The first model `GET {url}/models` lists, or None when that does not work."""
    try:
        response = httpx.get(f"{normalize_llm_url(url)}/models", timeout=PROBE_SECONDS)
        listed = response.json().get("data") or []
        return str(listed[0]["id"]) if response.status_code == 200 and listed else None
    except (httpx.HTTPError, ValueError, KeyError, TypeError, AttributeError, IndexError):
        return None


def names_demo_model(config: Config) -> bool:
    """config.yaml still asks for the demo model (for any task)."""
    return DEMO_MODEL in (config.llm.model, *config.llm.models.values())


def _server_model(config: Config, url: str, listed: str | None, out: TextIO) -> str | None:
    """The model to ask `url` for when config.yaml names the demo model, which a server
    of your own does not list: the first one it lists. None: config.yaml's own."""
    if not names_demo_model(config):
        return None
    if listed is None:
        print(f"jobtracker demo: {url} lists no model (or did not answer); the run will say "
              f"why. To choose one, set llm.model in config.yaml to a model it serves",
              file=out, flush=True)
        return None
    print(f"jobtracker demo: config.yaml names the demo model; asking {url} for {listed}, "
          "the first model it lists (set llm.model in config.yaml to choose another)",
          file=out, flush=True)
    return listed


def demo_home(home: str | None) -> Path:
    """`--home DIR`, else a new temporary folder (kept afterwards)."""
    if home:
        return resolve_home(home)
    return Path(tempfile.mkdtemp(prefix="jobtracker-demo-"))


@contextmanager
def demo_session(home: str | None, llm_url: str | None = None, gguf: str | None = None,
                 out: TextIO = sys.stderr) -> Iterator[DemoSession]:
    """Install the demo (never overwriting) and, unless a model server is given or
    configured, run the bundled demo model until the block ends.

    Raises ConfigError when an existing workspace's config.yaml is broken.
    """
    ws = Workspace(demo_home(home))
    model = first_model(llm_url) if llm_url else None
    created = install_demo(ws, model=model)
    state = "created" if created else "already there, nothing overwritten"
    print(f"jobtracker demo: workspace {ws.home} ({state})", file=out, flush=True)
    config = config_of(ws)
    try:
        with DemoBoards() as boards:
            if llm_url:
                yield DemoSession(ws, llm_url, demo_model=False,
                                  model=_server_model(config, llm_url, model, out),
                                  boards=boards)
                return
            if gguf or config.llm.url or config.llm.gguf:
                yield DemoSession(ws, llm_url, demo_model=False, boards=boards)
                return
            from jobtracker.demo.model import DemoModelServer, demo_resume

            wanted = [name for name in (config.llm.model, *config.llm.models.values()) if name]
            with DemoModelServer(demo_resume(ws.home), wanted) as server:
                print(f"jobtracker demo: the DEMO MODEL answers at {server.url} — canned "
                      "answers, not a real model (--llm-url URL uses your own server)",
                      file=out, flush=True)
                yield DemoSession(ws, server.url, demo_model=True, boards=boards)
    finally:
        # The folder is kept; say where, and how to come back to it, whatever ended the session.
        print(f"jobtracker demo: the workspace stays at {ws.home}; reopen it with "
              f"jobtracker-tui --demo --home {shlex.quote(str(ws.home))}", file=out, flush=True)


__all__ = ["DemoSession", "demo_home", "demo_session", "first_model", "names_demo_model"]
