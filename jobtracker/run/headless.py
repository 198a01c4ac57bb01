"""A run on a terminal or under a timer: what `jobtracker work` (and `resolve`, `rank`)
and `jobtracker-tui --run` print, and how they end.

Both command lines call `run_work`: the queue as `--dry-run` prints it, one plain
line per event, a single closing summary, SIGTERM handled as Ctrl-C is, and the
exit code. It lives in the library, not in a command-line module, because two
entry points share it (docs/DESIGN.md).
"""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import TextIO

from jobtracker.lease import LeaseHeld
from jobtracker.run import run
from jobtracker.run.exits import EXIT_OK, EXIT_TERMINATED, EXIT_USAGE
from jobtracker.run.queue import TaskState, choose
from jobtracker.run.run import RunResult
from jobtracker.run.setup import RunOptions, Setup, config_of, load_setup
from jobtracker.store import StoreError
from jobtracker.workers.calltotals import CallTotals
from jobtracker.workers.events import Event, Reporter, StageFinished
from jobtracker.workers.reporters import PlainLineReporter, ascii_line
from jobtracker.workspace import Workspace
from jobtracker.yamlfile import ConfigError


def format_queue(states: Sequence[TaskState], chosen: TaskState | None,
                 filtered: dict[str, int] | None = None) -> str:
    """The queue as `work --dry-run` prints it: priority, name, state, and the task's
    summary under its state. The name column is as wide as the longest name.
    `filtered` (rule -> count, and `total`) adds the line of what profile.yaml's
    filters keep from the model."""
    width = max([10, *(len(state.name) for state in states)])
    indent = " " * (7 + width + 1)
    lines = ["Task queue, in the order the scheduler considers it:", ""]
    for state in states:
        lines.append(f"{state.priority:>5}  {state.name:<{width}} {state.describe()}")
        lines.append(f"{indent}{state.summary}")
    lines.append("")
    if filtered:
        rules = ", ".join(f"{rule} {count:,}" for rule, count in filtered.items()
                          if rule != "total")
        lines.append(f"{'':>5}  {'filtered':<{width}} {filtered.get('total', 0):,} "
                     f"posting(s) kept from the model ({rules})")
        lines.append(f"{indent}profile.yaml filters; `jobtracker matches --filtered` lists them")
        lines.append("")
    if chosen is None:
        lines.append("Would work: nothing")
    else:
        lines.append(f"Would work: {chosen.name} ({chosen.pending} unit(s))")
    return "\n".join(lines)


class RunLineReporter(PlainLineReporter):
    """The plain-line reporter without the loop's per-stage lines: a run prints its own
    single closing summary (`summary_line`), covering every stage."""

    def emit(self, event: Event) -> None:
        if not isinstance(event, StageFinished):
            super().emit(event)


def summary_line(result: RunResult, calls: CallTotals | None = None) -> str:
    """The closing line of a run, in the plain-line reporter's format, after a line
    with the run's token figures (`calls`) when it made calls; it repeats what stopped
    reporting during the run (events.jsonl on a full disk, say), since that was said
    only once, on stderr, as it happened."""
    counts = result.counts
    event = StageFinished(stage="run", finished=counts["finished"], failed=counts["failed"],
                          skipped=counts["skipped"], elapsed=result.elapsed,
                          time=datetime.now(UTC))
    line = PlainLineReporter.format(event)
    if result.reporter_errors:
        line += ascii_line("  " + "; ".join(result.reporter_errors))
    tokens = calls.describe() if calls is not None else ""
    if tokens:
        # A line of its own just before: the counts line stays the run's last, as a log
        # reader expects (it ends with the elapsed time).
        clock = event.time.astimezone().strftime("%H:%M:%S")
        line = ascii_line(f"{clock} {'calls':<5}  {'run':<6}  {tokens}") + "\n" + line
    return line


async def work_until_terminated(setup: Setup, options: RunOptions,
                                 reporters: list[Reporter]) -> RunResult:
    """runner.work, stopped cleanly by SIGTERM (what systemd sends at TimeoutStartSec)
    exactly as Ctrl-C stops it: the run is cancelled, units in flight roll back, an
    embedded model server is shut down, and everything committed stays."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    try:
        loop.add_signal_handler(signal.SIGTERM, task.cancel)
    except (ValueError, RuntimeError, NotImplementedError):  # not the main thread
        return await run.work(setup, options, reporters)
    try:
        return await run.work(setup, options, reporters)
    finally:
        loop.remove_signal_handler(signal.SIGTERM)


def run_work(ws: Workspace, options: RunOptions, *, dry_run: bool, verbose: bool,
             out: TextIO | None = None, no_model: str | None = None,
             finish: Callable[[TextIO], None] | None = None) -> int:
    """Shared by `work`, `resolve`, `rank` and `jobtracker-tui --run`. `no_model` is what
    the run says it did when no model could be used; `finish` is work that needs no
    model (`jobtracker-tui --run`'s prepare), done once the run ended, model or not,
    before the closing lines, so a run's log still ends with its summary."""
    out = out or sys.stdout
    setup = load_setup(ws, options)
    if dry_run:
        states, _ = asyncio.run(run.dry_run(setup))
        filtered = asyncio.run(run.filtered_counts(setup))
        print(format_queue(states, choose(states, options.task), filtered), file=out)
        return EXIT_OK
    if setup.config.llm.gguf is not None and setup.config.llm.gguf.is_file():
        # Loading a model can take a while; a log under a timer should not look hung.
        print(ascii_line(f"{datetime.now():%H:%M:%S} model  starting the embedded model "
                         f"{setup.config.llm.gguf.name}; loading can take a while"),
              file=out, flush=True)
    calls = CallTotals()
    try:
        result = asyncio.run(work_until_terminated(
            setup, options, [RunLineReporter(stream=out, verbose=verbose), calls]))
    except LeaseHeld as held:
        print(f"jobtracker: {held}; nothing to do here", file=out, flush=True)
        return EXIT_OK
    except asyncio.CancelledError:
        print("jobtracker: stopped by SIGTERM; every unit committed so far is kept",
              file=sys.stderr, flush=True)
        return EXIT_TERMINATED
    if finish is not None:
        finish(out)
    if result.model_reason is not None:
        print(format_queue(result.states, None), file=out)
        if no_model is None:
            # Inputs are brought in before the model is asked (mail): say so when they were.
            no_model = ("Nothing was changed." if not result.brought_in else
                        f"No unit was worked; {result.brought_in:,} row(s) read in before "
                        "the model check (new mail) are stored.")
        print(f"\nNo model: {result.model_reason}. {no_model}", file=out)
        if result.unlisted:
            return unlisted_models(setup, options, result.unlisted)
        return EXIT_OK
    if not result.worked:
        print(format_queue(result.states, None), file=out)
    print(summary_line(result, calls), file=out, flush=True)
    if result.unlisted:
        return unlisted_models(setup, options, result.unlisted)
    return result.exit_code


def unlisted_models(setup: Setup, options: RunOptions, unlisted: dict[str, str]) -> int:
    """A model name the server is up but does not list is a configuration error (exit
    2): on a timer, a typo would otherwise be a string of silent, green nights. An
    unreachable server is not (exit 0): it may simply be off tonight."""
    config = setup.ws.home / "config.yaml"
    by_field: dict[tuple[str, str], list[str]] = {}
    for task, why in unlisted.items():
        where = ("--model" if options.model else
                 f"{config}: llm.models.{task}" if task in setup.config.llm.models else
                 f"{config}: llm.model")
        by_field.setdefault((where, why), []).append(task)
    for (where, why), tasks in by_field.items():
        print(f"jobtracker: {where}: {why} (for {', '.join(tasks)}); use a name the "
              "server lists, or --model NAME for one run", file=sys.stderr)
    return EXIT_USAGE


def prepare_after_run(ws: Workspace, out: TextIO | None = None) -> None:
    """The end of `jobtracker-tui --run`: packets for `prepare.top` picks (0: none),
    whether or not a model answered, said in the run's own line format. A bad
    answers.yaml (or config) is one line; the run's own result stands."""
    from jobtracker.prepare.report import log_lines, run_prepare

    try:
        config = config_of(ws)
        top = config.prepare.top
        lines = run_prepare(ws.home, ws.db, top, [], config.render) if top > 0 else []
    except (ConfigError, StoreError) as exc:
        lines = [f"not done: {exc}"]
    log_lines(lines, out or sys.stdout)


def learn_after_run(ws: Workspace, out: TextIO | None = None) -> None:
    """Also the end of `jobtracker-tui --run`: the night's decisions read into profile
    proposals (docs/learning.md), said in the run's line format; a workspace it cannot
    read is one line, and the run's own result stands."""
    from jobtracker.learning.learn import learn_workspace, report

    out = out or sys.stdout
    try:
        lines = report(asyncio.run(learn_workspace(ws)))
    except (ConfigError, StoreError) as exc:
        lines = [f"learn: not done: {exc}"]
    for text in lines:
        print(ascii_line(f"{datetime.now():%H:%M:%S} {text.strip()}"), file=out)
    out.flush()


def after_run(ws: Workspace, out: TextIO | None = None) -> None:
    """What `jobtracker-tui --run` does once the queue is worked, model or not: packets
    for the morning, then what the user's decisions suggest."""
    prepare_after_run(ws, out)
    learn_after_run(ws, out)
