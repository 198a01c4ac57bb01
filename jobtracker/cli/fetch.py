"""`jobtracker fetch [--source NAME]`: fetch boards and feeds, then say what changed."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from jobtracker.cli.base import EXIT_ALL_FAILED, EXIT_OK, EXIT_USAGE, command
from jobtracker.text import one_line

if TYPE_CHECKING:
    from jobtracker.postings.fetch import BoardResult
    from jobtracker.workspace import Workspace


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--source", metavar="NAME",
        help="fetch only this: an ats:token or a feed name (that one), else every board "
             "whose token or company is NAME")


def _ascii(text: str) -> str:
    """Names and server messages as plain ASCII: a log under a timer stays readable."""
    return one_line(text).encode("ascii", "replace").decode("ascii")


def _outcome(result: BoardResult) -> str:
    if not result.ok:
        return f"FAILED {_ascii(result.error or '')}"
    if result.not_modified:
        return "ok, not modified"
    reopened = f" ({result.reopened} reopened)" if result.reopened else ""
    skipped = f", {result.skipped} unreadable skipped" if result.skipped else ""
    return (f"ok, {result.new} new, {result.updated} updated{reopened}, "
            f"{result.closed} closed{skipped}")


class _Progress:
    """Prints one line per board as it is written: `[ 3/12] name  outcome  (1.2s)`."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0
        self.width = len(str(total))

    def __call__(self, result: BoardResult) -> None:
        line = getattr(result, "line", None)
        if line is not None:          # an alert sender's: it is no board of sources.yaml
            # Its parts are one-line text already; ASCII for a log under a timer.
            print(line().encode("ascii", "replace").decode("ascii"), flush=True)
            return
        self.done += 1
        print(f"[{self.done:>{self.width}}/{self.total}] {_ascii(result.name)}  "
              f"{_outcome(result)}  ({result.seconds:.1f}s)", flush=True)


def summary_table(results: list[BoardResult]) -> str:
    """new / updated / closed / failed per board, then a total line."""
    width = max([len("board"), len("total"), *(len(_ascii(r.name)) for r in results)])
    header = f"{'board':<{width}}  {'new':>5}  {'updated':>7}  {'closed':>6}  failed"
    lines = [header, "-" * len(header)]
    for r in results:
        failed = "yes: " + _ascii(r.error or "")[:60] if not r.ok else "no"
        lines.append(f"{_ascii(r.name):<{width}}  {r.new:>5}  {r.updated:>7}  {r.closed:>6}  "
                     f"{failed}")
    failures = sum(not r.ok for r in results)
    lines.append(f"{'total':<{width}}  {sum(r.new for r in results):>5}  "
                 f"{sum(r.updated for r in results):>7}  {sum(r.closed for r in results):>6}  "
                 f"{failures} of {len(results)}")
    return "\n".join(lines)


@command("fetch", "fetch boards and feeds (and job alerts from the mail), upsert postings, "
         "mark vanished ones closed", _configure)
def cmd_fetch(args: argparse.Namespace, ws: Workspace) -> int:
    import asyncio

    from jobtracker.postings.fetch import (
        ALERTS,
        AlertSettings,
        UnknownSource,
        fetch_workspace,
        select_targets,
    )
    from jobtracker.ranking import prerank
    from jobtracker.run.setup import config_of, sources_of
    from jobtracker.yamlfile import ConfigError

    path = ws / "sources.yaml"
    sources = sources_of(ws)
    config = config_of(ws)
    alert_mail = AlertSettings.of(config)
    only_alerts = (args.source or "").strip().lower() == ALERTS
    if only_alerts and alert_mail is None:
        print(f"jobtracker: {config.path or ws / 'config.yaml'}: no maildir or imap to read "
              "job alerts from (or alerts.enabled is false); see docs/alerts.md",
              file=sys.stderr)
        return EXIT_USAGE
    if not sources.boards and not sources.feeds and alert_mail is None:
        print(f"jobtracker: {path}: no boards or feeds to fetch", file=sys.stderr)
        return EXIT_USAGE
    try:
        targets = select_targets(sources, args.source)
    except UnknownSource as exc:
        print(f"jobtracker: {path}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.source and len(targets) > 1:
        print(f"--source {_ascii(args.source)} matches {len(targets)} sources (their token or "
              f"company): {', '.join(_ascii(t.name) for t in targets)}", flush=True)
    try:
        query = prerank.workspace_query(ws.home, ws.profile())
    except ConfigError:   # the run that judges says what is wrong with profile.yaml
        query = None
    results = asyncio.run(fetch_workspace(ws.db, sources, only=args.source,
                                          on_board_done=_Progress(len(targets)),
                                          deadline=config.fetch_deadline,
                                          alert_mail=alert_mail, prerank_query=query))
    print()
    print(summary_table(results))
    return EXIT_OK if any(r.ok for r in results) else EXIT_ALL_FAILED
