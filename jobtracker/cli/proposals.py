"""`jobtracker proposals`: review what the tasks proposed, without the TUI.

    jobtracker proposals [list] [--pending] [--json]
    jobtracker proposals show ID [--json]
    jobtracker proposals accept ID...
    jobtracker proposals reject ID...
    jobtracker proposals undo

Exit 2 names the id when a proposal does not exist, is stale, or cannot be
decided or undone as asked; decisions that could be made are kept.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from jobtracker.cli.base import EXIT_OK, EXIT_USAGE, add_home, command, print_json, record_id
from jobtracker.clock import now_iso
from jobtracker.text import clean_text, one_line

if TYPE_CHECKING:   # the store and every proposal kind load when `proposals` runs
    import aiosqlite

    from jobtracker.proposals import Decision, Proposal
    from jobtracker.workspace import Workspace


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="a JSON array (list) or object")
    parser.add_argument("--pending", action="store_true",
                        help="only proposals still to decide (pending or stale)")
    # The nested parsers inherit the parent's class, so usage errors exit 2 here too.
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    listing = actions.add_parser("list", help="every proposal (the default action)")
    _listing_flags(listing)
    show = actions.add_parser("show", help="one proposal in full")
    show.add_argument("id", type=record_id, metavar="ID")
    show.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                      help="a JSON object")
    for name, what in (("accept", "apply these proposals, each in one transaction"),
                       ("reject", "turn these proposals down")):
        child = actions.add_parser(name, help=what)
        child.add_argument("ids", type=record_id, nargs="+", metavar="ID")
    undo = actions.add_parser("undo", help="take back the most recent decision")
    for child in (listing, show, undo, actions.choices["accept"], actions.choices["reject"]):
        add_home(child, top=False)


def _listing_flags(parser: argparse.ArgumentParser) -> None:
    # SUPPRESS: a flag given before `list` must survive the sub-parser's defaults.
    parser.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                        help="a JSON array of objects")
    parser.add_argument("--pending", action="store_true", default=argparse.SUPPRESS,
                        help="only proposals still to decide (pending or stale)")


@command("proposals", "review proposals: list, show, accept, reject, undo", _configure)
def cmd_proposals(args: argparse.Namespace, ws: Workspace) -> int:
    import asyncio  # the event loop: once a command runs, not for --help

    action = args.action or "list"
    return asyncio.run(_run(action, args, ws))


async def _run(action: str, args: argparse.Namespace, ws: Workspace) -> int:
    from jobtracker import proposals, store

    async with store.connect(ws.db) as conn:
        if action == "list":
            states = ("pending", "stale") if args.pending else None
            return _print_list(await proposals.list_proposals(conn, ws.home, states), args.json)
        if action == "show":
            found = await proposals.get(conn, args.id, ws.home)
            if found is None:
                return _fail(f"no proposal {args.id}")
            if args.json:
                print_json(found.to_json())
            else:
                print(_details(found))
            return EXIT_OK
        if action == "undo":
            decision = await proposals.undo_last(conn, now_iso(), ws.home)
            if decision is None:
                print("nothing to undo")
                return EXIT_OK
            return await _report(conn, ws, [decision])
        missing = [pid for pid in args.ids if await proposals.get(conn, pid) is None]
        if missing:
            return _fail(f"no proposal {', '.join(map(str, missing))}; nothing decided")
        decide = proposals.accept if action == "accept" else proposals.reject
        return await _report(conn, ws, await decide(conn, args.ids, now_iso(), ws.home))


def _fail(message: str) -> int:
    print(f"jobtracker: {message}", file=sys.stderr)
    return EXIT_USAGE


async def _report(conn: aiosqlite.Connection, ws: Workspace, decisions: list[Decision]) -> int:
    """Say each decision, then bring the packets they touched up to date."""
    failed = False
    for decision in decisions:
        if decision.ok:
            print(decision.message)
        else:
            failed = True
            print(f"jobtracker: {decision.message}", file=sys.stderr)
    for text in await _refresh_packets(conn, ws, decisions):
        print(text)
    return EXIT_USAGE if failed else EXIT_OK


async def _refresh_packets(conn: aiosqlite.Connection, ws: Workspace,
                           decisions: list[Decision]) -> list[str]:
    from jobtracker.prepare.refresh import after_decisions  # the renderer loads when needed
    from jobtracker.run.setup import config_of
    from jobtracker.yamlfile import ConfigError

    try:
        render = config_of(ws).render
    except ConfigError as exc:   # the decisions stand; only the packets wait
        return [f"packets not brought up to date: {exc}"]
    return await after_decisions(conn, ws.home, decisions, now_iso(), render)


def _print_list(found: list[Proposal], as_json: bool) -> int:
    if as_json:
        print_json([p.to_json() for p in found])
        return EXIT_OK
    if not found:
        print("no proposals")
        return EXIT_OK
    print(f"{'ID':>5}  {'STATE':<8} {'KIND':<11} {'TASK':<11} {'POSTING':>7}  SUMMARY")
    for p in found:
        posting = str(p.posting_id) if p.posting_id is not None else "-"
        print(f"{p.id:>5}  {p.state:<8} {p.kind:<11} {p.task:<11} "
              f"{posting:>7}  {one_line(p.summary)}")
    waiting = sum(p.state == "pending" for p in found)
    print(f"\n{waiting} pending; accept with `jobtracker proposals accept ID`")
    return EXIT_OK


# What a proposal of a task that proposes by rules over the user's own decisions (`learn`)
# says for its model: there is none to name.
BY_RULES = "none: made by rules from your decisions (`jobtracker learn`), not a model"


def _answered_by(p: Proposal) -> str:
    """Which model answered, and with which prompt: `qwen3:8b (prompt 3f2a9c1b04de)`."""
    from jobtracker.learning.learn import TASK as LEARN  # its rules: when one is shown

    if not p.model and p.task == LEARN:
        return BY_RULES
    model = p.model or "unknown (proposed before models were recorded)"
    return f"{model} (prompt {p.prompt_version})" if p.prompt_version else model


def _details(p: Proposal) -> str:
    from jobtracker import proposals

    fields = [
        ("kind", f"{p.kind} (from the {p.task} task, unit {p.unit_key})"),
        ("posting", p.posting_id), ("application", p.application_id),
        ("summary", p.summary), ("created", p.created_at), ("decided", p.decided_at),
        ("model", _answered_by(p)),
    ]
    # The payload for people: text as it is, structures as JSON.
    for key in sorted(p.payload):
        value = p.payload[key]
        fields.append((key, json.dumps(value, ensure_ascii=False, sort_keys=True)
                       if isinstance(value, dict | list) else value))
    head = f"proposal {p.id}: {p.state}" + (f" ({p.stale_reason})" if p.stale_reason else "")
    lines = [head, *(f"  {name:<12} {'-' if value is None else value}" for name, value in fields)]
    # What the kind adds for a terminal without styles (a resume edit: its word diff).
    lines += [f"  {line}" for line in proposals.presentation(p.kind).show(p)]
    # Text from postings, mail and model answers is cleaned again on the way out: no
    # escape sequence stored by any route reaches the terminal.
    return clean_text("\n".join(lines))
