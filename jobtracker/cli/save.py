"""`jobtracker save URL|-`: one posting found anywhere, kept as a match.

The reading is jobtracker/postings/save.py's; this module asks, prints and stores.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from typing import TYPE_CHECKING

from jobtracker.cli.base import EXIT_OK, command, positive_int, print_json
from jobtracker.clock import now_iso
from jobtracker.text import one_line

if TYPE_CHECKING:   # the reader (HTTP, every alert sender's parser) loads when `save` runs
    from jobtracker.postings.save import Found
    from jobtracker.workspace import Workspace


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("url", metavar="URL", help="the job's page (http or https), or - to "
                        "read pasted text, an .eml, .html or .txt file from stdin")
    parser.add_argument("--company", metavar="NAME", help="the hiring company (over the "
                        "page's; needed for pasted text without a model)")
    parser.add_argument("--title", metavar="T", help="the job's title (over the page's; "
                        "needed for pasted text without a model)")
    parser.add_argument("--pick", type=positive_int, metavar="N",
                        help="the page lists several postings: save the Nth")
    parser.add_argument("--dry-run", action="store_true",
                        help="show what would be stored, store nothing")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--llm-url", metavar="URL",
                        help="model server for reading pasted text (instead of config.yaml's)")


def _line(found: Found) -> str:
    p = found.posting
    where = f" ({one_line(p.location, 80)})" if p.location else ""
    remote = ", remote" if p.remote else ""
    return f"{one_line(p.company, 80)} - {one_line(p.title, 120)}{where}{remote}"


def _details(found: Found) -> list[str]:
    p = found.posting
    lines = [f"  read from: {found.origin}", f"  page: {one_line(p.url) or '-'}"]
    if p.salary_min is not None or p.salary_max is not None:
        low = f"{p.salary_min:,.0f}" if p.salary_min is not None else "?"
        high = f"{p.salary_max:,.0f}" if p.salary_max is not None else ""
        lines.append(f"  salary: {p.salary_currency or ''} {low}{'-' + high if high else ''} "
                     "a year".replace("  ", " "))
    text = p.description or ""
    lines.append(f"  description: {len(text):,} characters" if text
                 else "  description: none")
    if found.unchecked:
        lines.append("  not in the text, left empty: " + ", ".join(found.unchecked))
    lines += [f"  note: {one_line(note, 300)}" for note in found.notes]
    return lines


def _found(args: argparse.Namespace, ws: Workspace) -> Found:
    import asyncio

    from jobtracker.config import normalize_llm_url
    from jobtracker.postings import save
    from jobtracker.run.setup import config_of, sources_of

    if args.url == "-":
        pasted = save.read_pasted(sys.stdin.buffer.read(save.MAX_TEXT_BYTES + 1))
        llm = config_of(ws).llm
        if args.llm_url:
            llm = replace(llm, url=normalize_llm_url(args.llm_url), gguf=None)
        return asyncio.run(save.read_pasted_input(pasted, llm, company=args.company,
                                                  title=args.title, pick=args.pick))
    sources = sources_of(ws) if (ws / "sources.yaml").exists() else None
    return asyncio.run(save.read_url(args.url, sources=sources, pick=args.pick,
                                     company=args.company, title=args.title))


@command("save", "save one posting from its page's URL, or pasted text (-)", _configure)
def cmd_save(args: argparse.Namespace, ws: Workspace) -> int:
    import asyncio

    from jobtracker.postings import save
    from jobtracker.postings.save import SaveError

    try:
        found = _found(args, ws)
    except SaveError as exc:
        print(f"jobtracker: {exc}", file=sys.stderr)
        return exc.code
    if args.dry_run:
        if args.json:
            print_json({**found.to_json(), "dry_run": True, "id": None})
        else:
            print("would save: " + _line(found))
            print("\n".join(_details(found)))
            print("(dry run: nothing stored)")
        return EXIT_OK
    stored = asyncio.run(save.store_saved(ws.db, found.posting, now_iso()))
    if args.json:
        print_json({**found.to_json(), "dry_run": False, "id": stored.posting_id,
                    "new": stored.new, "leader": stored.leader})
        return EXIT_OK
    verb = "saved" if stored.new else "saved again (the same page: one posting)"
    print(f"{verb}: posting {stored.posting_id}, " + _line(found))
    print("\n".join(_details(found)))
    if stored.leader != stored.posting_id:
        print(f"  the same job as posting {stored.leader}, which `jobtracker matches` lists")
    print("  `jobtracker rank` judges it; `jobtracker matches` lists it, marked saved")
    return EXIT_OK


__all__ = ["cmd_save"]
