"""Rendering many documents at once: a pool of processes, one per core.

A PDF's cost is mostly its read-back (pypdf parses the content stream in Python) and a
DOCX's is python-docx building XML, both bound to one core by the interpreter's lock;
`prepare --top 20` with a tailored resume per posting renders forty documents. So a
`Renderer` sends each document to a worker process and the packets are written while
the workers draw the next ones. A worker is forked from a server process that has the
renderer's modules loaded (`forkserver`: nothing of the parent's threads, its database
connections or its event loop is copied), and keeps its typst compiler, fonts loaded,
for every document it draws.

A document is rendered by `attempt` either way, in a worker or in this process, so the
bytes, the read-back and the wording of a failure are the same; a pool that cannot be
started or a worker that dies leaves the caller to render the document here.
"""

from __future__ import annotations

import contextlib
import os
import threading
from concurrent.futures import Future
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from jobtracker.render import build
from jobtracker.render.themes import Theme

if TYPE_CHECKING:   # multiprocessing loads when a pool starts: not for a run with no packet
    import multiprocessing.context

MIN_JOBS = 4           # fewer documents than this render in this process: a pool's start
                       # (about 0.2 s of CPU) costs more than it saves
# Loaded once in the server the workers are forked from. `__main__` (the program's own
# script, which multiprocessing imports in every worker it starts) among them: a worker
# forked from it then finds its script loaded instead of importing it again.
PRELOAD = ["__main__", "jobtracker.render.pool", "jobtracker.render.pdf", "jobtracker.render.check",
           "jobtracker.render.word", "jobtracker.render.markdown"]


@dataclass(frozen=True)
class Job:
    """One document to render: the Markdown `text` of the file `name` as `fmt`."""

    text: str
    name: str                 # resume.md
    fmt: str
    theme: Theme
    paper: str


@dataclass(frozen=True)
class Outcome:
    """What rendering one document gave: its bytes and read-back, or why there are none."""

    built: build.Built | None = None
    error: str | None = None


def attempt(job: Job) -> Outcome:
    """Render `job`; any failure is the document's outcome, never an exception."""
    try:
        return Outcome(build.build(job.text, job.name, job.fmt, job.theme, job.paper))
    except build.BadInput as exc:
        return Outcome(error=str(exc))
    except Exception as exc:
        # A writer's own refusal (a third-party limit nobody foresaw) stops this
        # document, never the packet, nor the other postings' packets.
        return Outcome(error=f"{job.name} could not be rendered: {type(exc).__name__}: {exc}")


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _warm(theme: Theme) -> None:
    """A worker's start: its compiler for the theme, fonts loaded, before any job."""
    from jobtracker.render import pdf

    with contextlib.suppress(Exception):   # the job that needs it says what is wrong
        pdf._compiler(theme)


def _context() -> multiprocessing.context.BaseContext:
    import multiprocessing

    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    return context


def _start_server() -> None:
    from multiprocessing import forkserver

    with contextlib.suppress(Exception):   # no server here: the pool finds out when used
        _context()
        forkserver.ensure_running()


def warm() -> None:
    """Start the server the workers are forked from, in a thread of its own: its
    interpreter and imports then take the other core while this process reads the
    database, and a `Renderer` made later finds it running."""
    threading.Thread(target=_start_server, name="render-pool-server", daemon=True).start()


def _copy(outer: Future[Outcome], inner: Future[Outcome]) -> None:
    if inner.cancelled():
        outer.cancel()
    elif (error := inner.exception()) is not None:
        outer.set_exception(error)
    else:
        outer.set_result(inner.result())


class Renderer:
    """A pool of `workers` processes rendering `Job`s in `theme`; `close` ends them."""

    def __init__(self, workers: int, theme: Theme) -> None:
        from concurrent.futures import ProcessPoolExecutor

        self._pool = ProcessPoolExecutor(max(1, workers), mp_context=_context(),
                                         initializer=_warm, initargs=(theme,))
        self._feeder: threading.Thread | None = None

    def submit_all(self, jobs: list[Job]) -> list[Future[Outcome]]:
        """A future for each job, at once: the workers start and are given the jobs
        in a thread of its own, so the caller never waits for a process to start."""
        futures: list[Future[Outcome]] = [Future() for _ in jobs]

        def feed() -> None:
            for job, outer in zip(jobs, futures, strict=True):
                try:
                    inner = self._pool.submit(attempt, job)
                except Exception as exc:       # a pool that cannot start or has broken
                    outer.set_exception(exc)
                    continue
                inner.add_done_callback(partial(_copy, outer))

        self._feeder = threading.Thread(target=feed, name="render-pool-feed", daemon=True)
        self._feeder.start()
        return futures

    def close(self) -> None:
        """End the workers (what is still queued is dropped: its caller is gone)."""
        if self._feeder is not None:
            self._feeder.join()
        self._pool.shutdown(wait=True, cancel_futures=True)
