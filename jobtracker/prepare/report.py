"""prepare as it is said on a terminal: a packet in a few plain lines, and those lines
in a run's log format. `jobtracker prepare` and the end of `jobtracker-tui --run`
(jobtracker/run/headless.py, `prepare_after_run`) both use it.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from jobtracker.clock import now_iso
from jobtracker.config import RenderConfig, load_profile
from jobtracker.prepare.answer_bank import load_answers
from jobtracker.prepare.forms import STANDARD, reader_of
from jobtracker.prepare.packet import waiting_line
from jobtracker.text import one_line
from jobtracker.workers.reporters import ascii_line

if TYPE_CHECKING:   # the packet code (and its HTTP client) loads when prepare runs
    from jobtracker.prepare.run import Prepared


def describe(item: Prepared) -> list[str]:
    """A packet in a few plain lines: where, which form, what is left to the user."""
    data = item.to_json()
    form = "the employer's form" if item.resolution.kind != STANDARD.kind else "standard set"
    if form == "standard set" and not item.form_error and reader_of(item.posting.source) is None:
        form += f" ({one_line(item.posting.source or 'this source', 40)} publishes no form)"
    left = item.resolution.unresolved_required
    tail = (f"; {len(left)} required left: " + one_line("; ".join(left), 120)) if left else ""
    lines = [f"posting {item.posting.id} ({item.posting.label}): {data['path']}  "
             f"{form}, {data['resolved']}/{data['fields']} answered{tail}"]
    if item.form_error:
        lines.append(f"  the form could not be read ({one_line(item.form_error, 160)}); "
                     "the standard set is used")
    lines += [f"  {document.line()}" for document in item.documents if not document.ok]
    lines += [f"  not ready: {one_line(why, 200)}" for why in item.failed_documents]
    lines += [f"  {name} was edited by you: it is kept, the new version is {name}.new"
              for name in item.written.kept]
    lines += [f"  not written: {one_line(why, 200)}" for why in item.written.failed]
    waiting = waiting_line(item.waiting)
    if waiting:
        lines.append(f"  {waiting}")
    return lines


def not_ready(done: list[Prepared]) -> list[str]:
    """One line per packet a required document of which is missing or failed its
    check (`prepare` exits 1 and says these on stderr)."""
    return [f"packet {item.to_json()['path']} (posting {item.posting.id}) is not ready: "
            f"{one_line('; '.join(item.failed_documents), 300)}"
            for item in done if item.failed_documents]


def run_prepare(home: Path, db: Path, top: int, ids: list[int],
                render: RenderConfig | None = None) -> list[str]:
    """`prepare_run`'s lines alone (the end of a headless run)."""
    return prepare_run(home, db, top, ids, render)[0]


def prepare_run(home: Path, db: Path, top: int, ids: list[int],
                render: RenderConfig | None = None) -> tuple[list[str], list[str]]:
    """Load what prepare reads from the workspace at `home` (answers.yaml, then
    profile.yaml: a ConfigError for a bad one), prepare, its documents as `render`
    (config.yaml's `render:`, which the caller loaded) says; the lines to say. The
    workspace's files are named here rather than loaded through `Workspace`, which
    would bring in the task registry that prepare must not import. Also the packets
    that are not ready (`not_ready`)."""
    from jobtracker.prepare.run import prepare

    bank = load_answers(home / "answers.yaml")
    profile = load_profile(home / "profile.yaml")
    rescored, done = asyncio.run(prepare(home, db, profile, bank, now_iso(), top=top, ids=ids,
                                         render=render))
    lines = [f"rescored {rescored:,} judged posting(s)"]
    if not done:
        lines.append("nothing to prepare: no open match without an application beyond saved "
                     "(`jobtracker rank` judges and scores matches)")
    for item in done:
        lines += describe(item)
    return lines, not_ready(done)


def log_lines(lines: list[str], out: TextIO) -> None:
    """prepare's lines in a run's own line format (time, ASCII), as a run's log ends."""
    for text in lines:
        print(ascii_line(f"{datetime.now():%H:%M:%S} prepare {text.strip()}"), file=out)
    out.flush()
