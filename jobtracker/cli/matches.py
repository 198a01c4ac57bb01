"""`jobtracker matches` (scored postings, best first) and `jobtracker status`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jobtracker.cli.base import (
    EXIT_OK,
    EXIT_USAGE,
    add_home,
    command,
    positive_int,
    print_json,
    record_id,
)
from jobtracker.clock import now_iso
from jobtracker.text import one_line

if TYPE_CHECKING:   # the store, the matches query and the settings load when a command runs
    from jobtracker.ranking.matches import Listed, Match, MatchRow
    from jobtracker.workspace import Workspace

# Widest a text column gets in the table; the URL comes last and is never cut,
# so it can be copied whole.
WIDTHS = {"company": 24, "title": 44, "location": 24}


def _configure_matches(parser: argparse.ArgumentParser) -> None:
    from jobtracker.learning.dismissals import REASONS  # with `matches`' parser alone

    parser.add_argument("--top", type=positive_int, metavar="N",
                        help="show only the N best")
    parser.add_argument("--json", action="store_true",
                        help="print a JSON array of objects instead of a table")
    parser.add_argument("--dismissed", action="store_true",
                        help="the matches you dismissed, with the reason")
    parser.add_argument("--filtered", action="store_true",
                        help="list instead the postings profile.yaml's filters keep from "
                             "the model, each with the rule that catches it")
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    dismiss = actions.add_parser("dismiss", help="not for me: take matches out of the list")
    dismiss.add_argument("postings", type=record_id, nargs="+", metavar="POSTING")
    dismiss.add_argument("--reason", required=True, choices=REASONS,
                         help="why (learn reads it)")
    dismiss.add_argument("--note", default="", help="a note for yourself")
    undismiss = actions.add_parser("undismiss", help="bring dismissed matches back")
    undismiss.add_argument("postings", type=record_id, nargs="+", metavar="POSTING")
    for child in (dismiss, undismiss):
        add_home(child, top=False)


def _cell(value: Any, width: int = 0) -> str:
    """Untrusted text as one plain line: no control characters, bounded width."""
    if value.__class__ is str and value.isprintable():
        # `one_line`'s answer for printable text (no control, no format character, no
        # space but ASCII's), without its cleaning pass: 600,000 cells at 100,000 rows.
        flat = value if "  " not in value and value[:1] != " " and value[-1:] != " " \
            else " ".join(value.split())
        if width and len(flat) > width:
            return flat[: width - 1].rstrip() + "…"
        return flat
    return one_line("" if value is None else str(value), width)


class _Cells(dict[tuple[Any, int], str]):
    """`_cell` remembered: companies, locations and statuses repeat down a list."""

    def __missing__(self, key: tuple[Any, int]) -> str:
        found = self[key] = _cell(*key)
        return found


def format_table(matches: Sequence[Match | MatchRow], *, dismissed: bool = False) -> str:
    """The matches as a table, the posting's id first (what `dismiss`, `status` and
    `prepare` take); with `dismissed`, each with its reason and, under it, its note."""
    header = {"company": "company", "title": "title", "location": "location"}
    cells = _Cells()
    company_w, title_w, location_w = WIDTHS["company"], WIDTHS["title"], WIDTHS["location"]
    rows = []
    for match in matches:
        title = match.title
        notes = ([f"reposted {match.reposted}"] if match.reposted else []) + (
            ["saved"] if match.saved else [])
        if notes:             # the note is never cut: the title gives way to it
            note = f" ({', '.join(notes)})"
            shown = _cell(title, title_w - len(note)) + note
        else:
            shown = _cell(title, title_w)
        rows.append((cells[match.company, company_w], shown,
                     cells[match.location, location_w]))
    widths = [max([len(header[k]), *(len(row[at]) for row in rows)])
              for at, k in enumerate(WIDTHS)]
    ident = max([2, *(len(str(m.id)) for m in matches)])
    reason = f"  {'reason':<8}" if dismissed else ""
    lines = [f"{'id':>{ident}}  {'score':>5}  {'verdict':<8}{reason} " + "  ".join(
        f"{header[k]:<{widths[at]}}" for at, k in enumerate(WIDTHS)) + f"  {'status':<12}  url"]
    cw, tw, lw = widths
    indent = f"{'':>{ident}}  "
    for match, (company, title, location) in zip(matches, rows, strict=True):
        verdict = (match.verdict or "-") + ("*" if match.stale else "")
        score = match.score
        shown = f"{score:>5.2f}" if score is not None else "    -"
        why = f"  {cells[match.dismissed or '-', 0]:<8}" if dismissed else ""
        lines.append(f"{match.id:>{ident}}  {shown}  {verdict:<8}{why} {company:<{cw}}  "
                     f"{title:<{tw}}  {location:<{lw}}  {cells[match.status or '-', 0]:<12}  "
                     f"{_cell(match.url)}")
        if dismissed and match.dismissed_note:
            lines.append(f"{indent}note: {_cell(match.dismissed_note)}")
        # Who the user knows there and the posting's signals: one indented line each,
        # under the match, only when there is something to say (docs/contacts.md).
        for note in (match.contacts_line, match.signals_line):
            if note:
                lines.append(indent + cells[note, 150])
    if any(m.stale for m in matches):
        lines.append("* judged against older profile prose or an older description; "
                     "`jobtracker rank` asks again")
    if any(not m.described for m in matches):
        lines.append("- not judged: a job alert's card with no description yet (it takes "
                     "one from the company's board; docs/alerts.md)")
    return "\n".join(lines)


def format_filtered(found: list[Listed]) -> str:
    """`--filtered` as a table: the id, pre-rank, company, title, the rules and why, the
    URL; each column as wide as its widest cell (within WIDTHS), so none runs into the
    next."""
    rows = [{"id": "id", "prerank": "prerank", "company": "company", "title": "title",
             "why": "filtered by", "url": "url"}]
    for posting in found:
        rows.append({
            "id": str(posting.id),
            "prerank": "-" if posting.prerank is None else f"{posting.prerank:.2f}",
            "company": _cell(posting.company, WIDTHS["company"]),
            "title": _cell(posting.title, WIDTHS["title"]),
            "why": _cell("; ".join(f"{c.rule}: {c.reason}" for c in posting.filtered_by), 60),
            "url": _cell(posting.url)})
    width = {k: max(len(r[k]) for r in rows) for k in rows[0]}
    return "\n".join(
        f"{r['id']:>{width['id']}}  {r['prerank']:>{width['prerank']}}  "
        f"{r['company']:<{width['company']}}  {r['title']:<{width['title']}}  "
        f"{r['why']:<{width['why']}}  {r['url']}".rstrip() for r in rows)


@command("matches", "scored postings, best first; dismiss, undismiss", _configure_matches)
def cmd_matches(args: argparse.Namespace, ws: Workspace) -> int:
    import asyncio

    from jobtracker.ranking.matches import json_text, load_listing

    if args.action in ("dismiss", "undismiss"):
        return asyncio.run(_decide(args, ws))
    if args.filtered:
        return _filtered(args, ws)
    found = asyncio.run(load_listing(ws.db, ws.profile(), args.top, dismissed=args.dismissed,
                                     undescribed=not args.dismissed, parts=args.json,
                                     points=args.json))
    if args.json:
        print(json_text(found))     # print_json's text, written without a Match a row
    elif found:
        print(format_table(found, dismissed=args.dismissed))
    elif args.dismissed:
        print("no dismissed matches")
    else:
        print("no scored matches yet; `jobtracker rank` judges and scores open matches")
    return EXIT_OK


async def _decide(args: argparse.Namespace, ws: Workspace) -> int:
    from jobtracker import store
    from jobtracker.learning import dismissals

    now = now_iso()
    async with store.connect(ws.db) as conn:
        if args.action == "undismiss":
            async with store.write(conn):
                back = [p for p in args.postings if await dismissals.undismiss(conn, p, now)]
            for posting in args.postings:
                print(f"posting {posting}: " + ("back in matches" if posting in back
                                                else "was not dismissed"))
            return EXIT_OK
        try:
            async with store.write(conn):
                done = await dismissals.dismiss(conn, args.postings, args.reason, args.note,
                                                now)
        except dismissals.DismissError as error:
            print(f"jobtracker: {error}", file=sys.stderr)
            return EXIT_USAGE
    for item in done:
        what = "already dismissed" if item.already else f"dismissed ({args.reason})"
        print(f"posting {item.posting_id} ({item.label}): {what}")
    if len(args.note) > dismissals.NOTE_CHARS and any(not item.already for item in done):
        print(f"the note was cut to its first {dismissals.NOTE_CHARS} characters "
              f"(it had {len(args.note)})")
    return EXIT_OK


def _filtered(args: argparse.Namespace, ws: Workspace) -> int:
    import asyncio

    from jobtracker.ranking.matches import load_filtered

    profile = ws.profile()
    listed = asyncio.run(load_filtered(ws.db, profile, top=args.top))
    if args.json:
        print_json([posting.to_json() for posting in listed])
    elif listed:
        print(format_filtered(listed))
    elif not profile.filters.active:
        print("no filters in profile.yaml; `filters:` there keeps postings from the model")
    else:
        print("no posting is filtered")
    return EXIT_OK


# --- status -------------------------------------------------------------------------

def _configure_status(parser: argparse.ArgumentParser) -> None:
    from jobtracker.config import STATUSES  # with `status`' parser alone

    parser.add_argument("posting", type=record_id, metavar="POSTING",
                        help="the posting's id (the `id` in `matches --json`)")
    parser.add_argument("status", metavar="STATUS", help=f"one of: {', '.join(STATUSES)}")


async def set_status(db: Path, posting_id: int, status: str, now: str) -> tuple[str, str | None]:
    """Set (creating if need be) the application for a posting, by hand.

    Returns the posting's label and the status it had before (None: no application).
    Raises LookupError when there is no such posting.
    """
    from jobtracker import applications, store

    async with store.connect(db) as conn, store.write(conn):
        posting = await (await conn.execute(
            "SELECT company, title FROM postings WHERE id = ?", (posting_id,))).fetchone()
        if posting is None:
            raise LookupError(posting_id)
        change = await applications.set_status(conn, status, now, applications.HAND,
                                               posting_id=posting_id)
    company, title = _cell(posting["company"]), _cell(posting["title"])
    return (f"{company} - {title}" if company else title), change.before


@command("status", "set an application's status by hand", _configure_status)
def cmd_status(args: argparse.Namespace, ws: Workspace) -> int:
    import asyncio

    from jobtracker import applications
    from jobtracker.config import STATUSES

    status = args.status.strip().lower()
    if status not in STATUSES:
        print(f"jobtracker: {_cell(args.status)!r} is not an application status "
              f"(expected one of: {', '.join(STATUSES)})", file=sys.stderr)
        return EXIT_USAGE
    now = now_iso()
    try:
        label, before = asyncio.run(set_status(ws.db, args.posting, status, now))
    except LookupError:
        print(f"jobtracker: no posting with id {args.posting} "
              "(`jobtracker matches` lists posting ids)", file=sys.stderr)
        return EXIT_USAGE
    was = f"was {before or applications.NO_APPLICATION}"
    print(f"posting {args.posting} ({label}): {status} ({was})")
    return EXIT_OK
