"""The whole of `prepare`: rescore, pick, read the picks' forms, resolve, write packets.

It reaches no model, so it runs the same with none configured, and at the end of a
headless run whatever the model did. Forms are read only for the picks, only from
sources that declare a form reader (`Source.form`; the others publish none and get the
standard set), through jobtracker/postings/download.py with a deadline each, and cached
per posting in `forms` until the posting's description changes. A form that fails — an
HTTP error, a hang, a body that is no form — is recorded for that posting, which gets
the standard set; the other picks are not held up.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jobtracker import files, proposals, secrets, store
from jobtracker.config import ConfigError, Profile, RenderConfig, load_sources
from jobtracker.contacts.people import Directory, summary
from jobtracker.postings import download
from jobtracker.prepare.answer_bank import Answers
from jobtracker.prepare.coverage import FILE as coverage_file
from jobtracker.prepare.coverage import Coverage, coverage, keywords_of
from jobtracker.prepare.documents import (
    Documents,
    Rendered,
    broken,
    files_of,
    missing_resume,
    packet_files,
)
from jobtracker.prepare.forms import STANDARD, Form, FormReader, form_plan, reader_of
from jobtracker.prepare.packet import (
    Posting,
    Written,
    answers_json,
    answers_md,
    label_md,
    posting_md,
    waiting_names,
    write_packet,
)
from jobtracker.prepare.resolve import Resolution, document_of, resolve
from jobtracker.proposals import written
from jobtracker.proposals.resume_edit import resume_for
from jobtracker.ranking import page, scoring
from jobtracker.ranking.matches import load_matches
from jobtracker.sources import REGISTRY
from jobtracker.text import web_url

if TYPE_CHECKING:
    import aiosqlite
    import httpx

FORM_DEADLINE = 30.0      # seconds for one form, every wait included
FORM_CONCURRENCY = 4      # forms read at once: the same politeness as boards
PICKABLE = (None, "saved")   # application statuses a posting may have to be picked


class UnknownPostings(LookupError):
    """Postings named that do not exist."""

    def __init__(self, ids: list[int]) -> None:
        self.ids = ids
        super().__init__(", ".join(str(i) for i in ids))


@dataclass(frozen=True)
class Prepared:
    posting: Posting
    resolution: Resolution
    form_error: str | None
    written: Written
    home: Path
    documents: tuple[Rendered, ...] = ()
    # Proposals for the posting still to decide (resume edits, a letter): the packet
    # is made without them, and says so.
    waiting: dict[str, int] = field(default_factory=dict)
    coverage: Coverage | None = None    # keyword coverage; None without a resume
    contacts: tuple[dict[str, str], ...] = ()   # the people the user knows there

    @property
    def failed_documents(self) -> list[str]:
        """Why each required document of the form cannot be sent (missing, or it
        failed its check): a packet that holds them is not ready, and prepare exits 1."""
        return list(dict.fromkeys(
            r.note for r in self.resolution.fields
            if r.missing and document_of(r.field) is not None and r.files))

    def to_json(self) -> dict[str, Any]:
        fields = self.resolution.fields
        return {
            "posting": self.posting.id, "company": self.posting.company,
            "title": self.posting.title, "url": self.posting.url,
            "path": files.relative(self.written.folder, self.home) + "/",
            "form": self.resolution.kind, "form_error": self.form_error,
            "fields": len(fields), "resolved": sum(r.resolved for r in fields),
            "unresolved_required": self.resolution.unresolved_required,
            "written": self.written.changed, "kept": self.written.kept,
            "failed": self.written.failed,
            "documents": [d.to_json() for d in self.documents],
            "waiting": {kind: self.waiting.get(kind, 0) for kind in waiting_names()},
            "coverage": self.coverage.to_json() if self.coverage else None,
            "contacts": list(self.contacts),
        }


_POSTING_SQL = (
    "SELECT p.id, p.company, p.title, p.location, p.url, p.description, p.external_id, "
    "p.description_hash, b.source, b.token, b.url AS board_url "
    "FROM postings AS p JOIN boards AS b ON b.id = p.board_id WHERE p.id = ?")


async def pick(db: Path, profile: Profile, top: int) -> list[int]:
    """The best `top` open matches with no application beyond `saved`."""
    found = await load_matches(db, profile, top, unapplied=True)
    return [m.id for m in found if m.status in PICKABLE][:top]


async def posting_rows(conn: aiosqlite.Connection, ids: list[int]) -> list[Any]:
    """Each posting's row for its packet: its own id, company, title, location,
    description and description hash, and the page and form of the job it stands for
    (jobtracker/ranking/page.py: a company's own board before an aggregator's copy):
    `url`, `source`, `token`, `board_url`, `external_id` of the posting giving it."""
    rows, unknown = [], []
    found = await page.pages(conn, ids)
    for posting_id in ids:
        row = await (await conn.execute(_POSTING_SQL, (posting_id,))).fetchone()
        if row is None:
            unknown.append(posting_id)
            continue
        merged = dict(row)
        chosen = found.get(posting_id)
        if chosen is not None and chosen.posting_id != posting_id:
            giver = await (await conn.execute(_POSTING_SQL, (chosen.posting_id,))).fetchone()
            if giver is not None:
                for name in ("url", "source", "token", "board_url", "external_id"):
                    merged[name] = giver[name]
        merged["url"] = chosen.url if chosen is not None else web_url(row["url"])
        rows.append(merged)
    if unknown:
        raise UnknownPostings(unknown)
    return rows


def _posting(row: Any) -> Posting:
    return Posting(row["id"], row["company"] or "", row["title"] or "", row["location"] or "",
                   web_url(row["url"]), row["description"] or "", row["source"])


def _url_of(row: Any, configured: Mapping[tuple[str, str], str] | None = None) -> str:
    """The form's address, as the posting's source's reader builds it; "" when the
    source reads no forms or the job's id cannot be part of an address (`..`).

    The board's address comes from sources.yaml (`configured`): the database keeps it
    without its credentials, so a mirror's `?api_key=` is read where the user wrote it."""
    reader = reader_of(row["source"])
    if reader is None:
        return ""
    listing = ((configured or {}).get((row["source"], str(row["token"]).lower()))
               or row["board_url"] or REGISTRY[row["source"]].default_url(row["token"]))
    try:
        return reader.url(listing, str(row["external_id"]))
    except ValueError:
        return ""


def form_address(row: Any, configured: Mapping[tuple[str, str], str] | None = None) -> str:
    """The address a posting's cached form is kept under (`forms.url`), as prepare
    computes it for `row` (from `posting_rows`)."""
    return secrets.display_url(_url_of(row, configured))


# --- forms: cached, else read ------------------------------------------------------------

async def _cached(conn: aiosqlite.Connection, row: Any, url: str) -> Form | None:
    """The form cached for the posting's description, read from the same address (a
    job whose page moved to its own board reads that board's form)."""
    cached = await (await conn.execute(
        "SELECT form FROM forms WHERE posting_id = ? AND description_hash = ? "
        "AND form IS NOT NULL AND url = ?",
        (row["id"], row["description_hash"] or "", secrets.display_url(url)))).fetchone()
    if cached is None:
        return None
    try:
        return Form.from_json(json.loads(cached[0]))
    except (ValueError, KeyError, TypeError):
        return None   # an old or damaged entry is read again


async def _download(client: httpx.AsyncClient, url: str, reader: FormReader,
                    limit: asyncio.Semaphore, deadline: float) -> Form | str:
    if not url:
        return "the job's id is not a plain path segment; no form was asked for"
    async with limit:
        try:
            got = await download.download(client, form_plan(url, reader), deadline=deadline)
        except download.DownloadError as exc:
            return str(exc) or "download failed"
    return got.postings  # type: ignore[return-value]   # the plan returns the Form


async def forms_for(conn: aiosqlite.Connection, rows: list[Any], now: str, *,
                    deadline: float = FORM_DEADLINE,
                    client: httpx.AsyncClient | None = None,
                    configured: Mapping[tuple[str, str], str] | None = None
                    ) -> dict[int, Form | str]:
    """The form (cached, else read) of each row whose source declares a form reader, or
    why it could not be read; a row of a source that reads none is left out."""
    out: dict[int, Form | str] = {}
    wanted = []
    for row in rows:
        if reader_of(row["source"]) is None:
            continue
        form = await _cached(conn, row, _url_of(row, configured))
        if form is not None:
            out[row["id"]] = form
        else:
            wanted.append(row)
    if not wanted:
        return out
    limit = asyncio.Semaphore(FORM_CONCURRENCY)
    own = client is None
    client = client or download.make_client()
    try:
        got = await asyncio.gather(*(_download(client, _url_of(r, configured),
                                               reader_of(r["source"]), limit, deadline)
                                     for r in wanted))
    finally:
        if own:
            await client.aclose()
    async with store.write(conn):
        for row, result in zip(wanted, got, strict=True):
            out[row["id"]] = result
            form_text = json.dumps(result.to_json()) if isinstance(result, Form) else None
            await store.upsert(conn, "forms", {
                "posting_id": row["id"], "description_hash": row["description_hash"] or "",
                "url": secrets.display_url(_url_of(row, configured)), "form": form_text,
                "error": None if form_text else str(result), "fetched_at": now},
                key=["posting_id"])
    return out


# --- packets --------------------------------------------------------------------------------

async def _letter(conn: aiosqlite.Connection, posting_id: int) -> str | None:
    letters = await written.accepted(conn, proposals.letter.KIND.name, posting_id, 0)
    return str(letters[-1].payload.get("text") or "") if letters else None


async def _sources(conn: aiosqlite.Connection, home: Path, posting_id: int
                   ) -> dict[str, str | None]:
    """The posting's Markdown documents, as its packet holds them (None: none)."""
    return {"resume.md": await resume_for(conn, home, posting_id),
            "letter.md": await _letter(conn, posting_id)}


async def _drafted(conn: aiosqlite.Connection, posting_id: int) -> dict[str, str]:
    """The accepted drafted answers for the posting's questions: field name → text
    (the latest accepted for a question wins)."""
    found = await written.accepted(conn, proposals.answer.KIND.name, posting_id, 0)
    return {str(p.payload.get("name")): str(p.payload.get("text") or "") for p in found
            if p.payload.get("name") and p.payload.get("text")}


async def waiting_for(conn: aiosqlite.Connection, home: Path, posting_id: int) -> dict[str, int]:
    """The posting's proposals a packet waits for (resume edits, letters: the kinds that
    say so) still to decide (pending, not stale)."""
    kinds = waiting_names()
    rows = await conn.execute_fetchall(
        "SELECT id FROM proposals WHERE posting_id = ? AND state = 'pending' "
        f"AND kind IN ({', '.join('?' for _ in kinds)})",
        (posting_id, *kinds))
    counts = dict.fromkeys(kinds, 0)
    for (proposal_id,) in rows:
        proposal = await proposals.get(conn, proposal_id, home)
        if proposal is not None and proposal.state == "pending":
            counts[proposal.kind] += 1
    return counts


async def packet_for(conn: aiosqlite.Connection, home: Path, row: Any, bank: Answers,
                     form: Form | str | None, now: str, documents: Documents,
                     directory: Directory | None = None) -> Prepared:
    """Write one posting's packet (`row` from `posting_rows`) from its form or why
    there is none, in a transaction of its own (`directory`: the contacts, read once
    for many packets)."""
    posting = _posting(row)
    directory = directory or await Directory.load(conn)
    known = [person.to_json() for person in directory.known_at(posting.company)]
    form_error = form if isinstance(form, str) else None
    letter = await _letter(conn, posting.id)
    waiting = await waiting_for(conn, home, posting.id)
    sources = {"resume.md": await resume_for(conn, home, posting.id), "letter.md": letter}
    rendered = documents.for_packet(sources)
    cover = await _coverage(conn, home, posting, sources["resume.md"])
    if sources["resume.md"] is None:
        # No resume to send: said first, and the packet's old resume files stay.
        rendered = [missing_resume(), *rendered]
        del sources["resume.md"]
    resolution = resolve(form if isinstance(form, Form) else STANDARD, bank,
                         has_letter=letter is not None, documents=files_of(rendered),
                         drafted=await _drafted(conn, posting.id), broken=broken(rendered))
    texts: dict[str, str | bytes | None] = {
        "posting.md": posting_md(posting), **sources, **packet_files(rendered),
        coverage_file: cover.markdown(label_md(posting)) if cover else None,
        "answers.md": answers_md(posting, resolution, form_error, rendered, waiting,
                                 coverage_line=cover.line() if cover else "",
                                 contacts_line=summary(known, posting.company)),
        "answers.json": answers_json(posting, resolution, form_error, rendered, waiting,
                                     extra={"coverage": cover.to_json() if cover else None,
                                            "contacts": known})}
    async with store.write(conn):
        result = await write_packet(conn, home, posting, texts, now)
    return Prepared(posting, resolution, form_error, result, home, tuple(rendered), waiting,
                    cover, tuple(known))


async def _coverage(conn: aiosqlite.Connection, home: Path, posting: Posting,
                    resume: str | None) -> Coverage | None:
    """What the posting asks that the packet's resume says (None: no resume)."""
    if resume is None:
        return None
    return await coverage(conn, title=posting.title, description=posting.description,
                          company=posting.company, resume=resume,
                          keywords=keywords_of(home))


def _configured_urls(home: Path) -> dict[tuple[str, str], str]:
    """(source, token) → the `url` sources.yaml gives a board, credentials and all; an
    unreadable sources.yaml gives none (the stored addresses are used)."""
    try:
        sources = load_sources(home / "sources.yaml", REGISTRY)
    except ConfigError:
        return {}
    return {(board.ats, board.token.lower()): board.url for board in sources.boards
            if board.url}


async def prepare(home: Path, db: Path, profile: Profile, bank: Answers, now: str, *,
                  top: int = 5, ids: list[int] | None = None,
                  deadline: float = FORM_DEADLINE,
                  client: httpx.AsyncClient | None = None,
                  render: RenderConfig | None = None) -> tuple[int, list[Prepared]]:
    """Rescore, then write the packets of `ids`, or of the best `top` picks, their
    documents rendered as `render` (config.yaml's `render:`) says.

    Returns how many postings were rescored and what was prepared; UnknownPostings
    when `ids` names a posting that does not exist.
    """
    documents = Documents(render)
    async with store.connect(db) as conn:
        rescored = await scoring.rescore(conn, profile, now)
    chosen = list(dict.fromkeys(ids)) if ids else await pick(db, profile, top)
    # The pool's server starts (in a thread) only for packets there are: an empty
    # workspace's nightly `--run` would otherwise start a process and wait for its end.
    documents.expect(len(chosen))
    async with store.connect(db) as conn:
        rows = await posting_rows(conn, chosen)
        # The documents render in a pool of processes while forms are read and packets written.
        documents.start([await _sources(conn, home, row["id"]) for row in rows])
        forms = await forms_for(conn, rows, now, deadline=deadline, client=client,
                                configured=_configured_urls(home))
        directory = await Directory.load(conn)
        done = [await packet_for(conn, home, row, bank, forms.get(row["id"]), now, documents,
                                 directory) for row in rows]
    documents.close()
    return rescored, done


def find_packet(home: Path, posting_id: int) -> Path | None:
    """The posting's answers.json, when a packet was written."""
    base = home / "applications"
    for folder in sorted(base.glob(f"{posting_id}-*")) if base.is_dir() else ():
        if (folder / "answers.json").is_file():
            return folder / "answers.json"
    return None
