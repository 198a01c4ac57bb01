"""Finding the employer's own board for a company that job alerts name.

An alert names a company and a title; the company's ATS board has the job's text,
which the judge needs. For each alert company with no board in sources.yaml, the
ATSs jobtracker reads are asked whether a public board of that name exists (the
company's name made into the tokens a board is usually called: "Acme Robotics" →
`acmerobotics`, `acme-robotics`), and when one lists a title the alerts named, a
`source` proposal suggests adding it (jobtracker/proposals/source.py).

Bounded every way: at most PROBE_ATS × MAX_TOKENS requests a company, each within
PROBE_DEADLINE seconds; at most `alerts.probe_companies` companies a fetch (those
the most alert mails named first); a company is asked again only after a week
(`board_probes` keeps when, and what answered — only a definite answer: a board that
exists, or "no such board", HTTP 404; a probe that got no answer from one of the ATSs,
no network, a 5xx, a timeout, keeps nothing and is tried again on the next fetch, and
the line counts it); a company with a source proposal already (pending, accepted or
rejected) is never asked again. The addresses come
from the sources' own `default_url`, or from the `address` the caller gives (tests
point it at loopback).
"""

from __future__ import annotations

import asyncio
import json
import re
import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from jobtracker import alerts, proposals, store
from jobtracker.config import Board, Sources
from jobtracker.postings import samejob
from jobtracker.postings.download import DownloadError, download
from jobtracker.postings.results import BoardResult
from jobtracker.proposals.source import summary
from jobtracker.sources import REGISTRY
from jobtracker.sources.base import LISTING_ONLY
from jobtracker.text import one_line

if TYPE_CHECKING:
    import aiosqlite
    import httpx

# The ATSs asked, in this order: one public GET each, addressed by the token alone.
PROBE_ATS = ("greenhouse", "lever", "ashby")
MAX_TOKENS = 2              # token guesses a company
PROBE_DEADLINE = 15.0       # seconds one probe may take
REPROBE_DAYS = 7
CONCURRENT = 4              # companies probed at once
NAME = "alerts:boards"
TASK = "alerts"             # the proposals' task

# (ats, token) -> the address to ask.
Address = Callable[[str, str], str]


def default_address(ats: str, token: str) -> str:
    return REGISTRY[ats].default_url(token)


@dataclass
class ProbeResult(BoardResult):
    """What looking for alert companies' boards did, for the fetch's line."""

    companies: int = 0
    requests: int = 0
    proposed: list[str] = field(default_factory=list)
    failed: int = 0         # requests with no definite answer (retried next fetch)

    def line(self) -> str:
        found = (f"{len(self.proposed)} proposed ({', '.join(self.proposed)})" if self.proposed
                 else "none found")
        failed = (f", {self.failed} failed (asked again next fetch)" if self.failed else "")
        return (f"{self.name}  {found}; {self.companies} compan"
                f"{'y' if self.companies == 1 else 'ies'} looked up, {self.requests} requests"
                f"{failed}")


def tokens(company: str) -> list[str]:
    """The board names a company is likely to use: its words joined, and hyphenated."""
    plain = unicodedata.normalize("NFKD", samejob.company_key(company))
    words = re.findall(r"[a-z0-9]+", plain.encode("ascii", "ignore").decode())
    if not words:
        return []
    guesses = ["".join(words), "-".join(words)]
    return list(dict.fromkeys(guesses))[:MAX_TOKENS]


@dataclass
class _Title:
    title: str
    senders: Counter[str] = field(default_factory=Counter)    # sender label -> mails

    @property
    def mails(self) -> int:
        return sum(self.senders.values())

    @property
    def sender(self) -> str:
        return self.senders.most_common(1)[0][0] if self.senders else ""


@dataclass
class _Company:
    name: str
    key: str
    titles: dict[str, _Title] = field(default_factory=dict)     # by title_key

    @property
    def mails(self) -> int:
        return sum(title.mails for title in self.titles.values())


async def _candidates(conn: aiosqlite.Connection, sources: Sources, now: str,
                      limit: int) -> list[_Company]:
    """The alert companies to look for: open cards, no board in sources.yaml, not asked
    within a week, no source proposal yet; those the most alert mails named first."""
    rows = await conn.execute_fetchall(
        "SELECT p.company, p.title, b.token, COUNT(s.mail_key) FROM postings AS p "
        "JOIN boards AS b ON b.id = p.board_id AND b.source = 'alert' "
        "LEFT JOIN alert_sightings AS s ON s.posting_id = p.id "
        "WHERE p.closed_at IS NULL GROUP BY p.id")
    listed = {samejob.company_key(b.company) for b in sources.boards} | {
        samejob.company_key(b.token) for b in sources.boards}
    since = (datetime.fromisoformat(now.replace("Z", "+00:00"))
             - timedelta(days=REPROBE_DAYS)).strftime("%Y-%m-%dT%H:%M:%SZ")
    recent = {row[0] for row in await conn.execute_fetchall(
        "SELECT company_key FROM board_probes WHERE probed_at > ?", (since,))}
    asked = {row[0].removeprefix("source:") for row in await conn.execute_fetchall(
        "SELECT unit_key FROM proposals WHERE kind = 'source' AND task = ?", (TASK,))}
    companies: dict[str, _Company] = {}
    for company, title, sender, mails in rows:
        key = samejob.company_key(company)
        if not key or key in listed or key in recent or key in asked or not tokens(company):
            continue
        entry = companies.setdefault(key, _Company(company, key))
        held = entry.titles.setdefault(samejob.title_key(title), _Title(title))
        label = alerts.REGISTRY[sender].label if sender in alerts.REGISTRY else sender
        held.senders[label] += mails
    return sorted(companies.values(), key=lambda c: (-c.mails, c.key))[:limit]


# The answers that say "no such board": only these are kept as an answer. Anything
# else (no network, a 5xx, a timeout, a body that is no board) says nothing.
NO_SUCH_BOARD = frozenset({404, 410})


async def _probe(client: httpx.AsyncClient, company: _Company, address: Address,
                 semaphore: asyncio.Semaphore) -> tuple[list[dict[str, Any]], int, int]:
    """The first board that lists one of the company's alert titles: ([found],
    requests, failed), `failed` counting the requests that got no definite answer."""
    requests = failed = 0
    async with semaphore:
        for ats in PROBE_ATS:
            for token in tokens(company.name):
                url = address(ats, token)
                board = Board(ats, token, company.name)
                requests += 1
                try:
                    got = await download(client, REGISTRY[ats].start(board, url, LISTING_ONLY),
                                         deadline=PROBE_DEADLINE)
                except DownloadError as exc:
                    if exc.status not in NO_SUCH_BOARD:
                        failed += 1     # it did not answer: no answer to keep
                    continue
                listed = {samejob.title_key(p.title): p.title for p in got.postings}
                hits = [key for key in company.titles if key in listed]
                if hits:
                    best = max(hits, key=lambda key: company.titles[key].mails)
                    return [{"ats": ats, "token": token, "url": url,
                             "title": listed[best], "titles": len(hits)}], requests, failed
    return [], requests, failed


async def find_boards(conn: aiosqlite.Connection, client: httpx.AsyncClient,
                      sources: Sources, now: str, *, limit: int,
                      address: Address = default_address) -> ProbeResult | None:
    """Look for the boards of up to `limit` alert companies; propose the ones found.
    None when there was no company to look for."""
    companies = await _candidates(conn, sources, now, limit)
    if not companies or limit <= 0:
        return None
    semaphore = asyncio.Semaphore(CONCURRENT)
    answers = await asyncio.gather(*(_probe(client, c, address, semaphore) for c in companies))
    result = ProbeResult(NAME, "", companies=len(companies))
    async with store.write(conn):
        for company, (found, requests, failed) in zip(companies, answers, strict=True):
            result.requests += requests
            result.failed += failed
            if failed and not found:
                # Not every ATS answered: "none found" would be a guess. Nothing is
                # kept, so the next fetch asks again.
                continue
            await conn.execute(
                "INSERT INTO board_probes (company_key, company, probed_at, found) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (company_key) DO UPDATE SET "
                "company = excluded.company, probed_at = excluded.probed_at, "
                "found = excluded.found", (company.key, company.name, now, json.dumps(found)))
            if found:
                await _propose(conn, company, found[0], now)
                result.proposed.append(f"{found[0]['ats']}:{found[0]['token']}")
    return result


async def _propose(conn: aiosqlite.Connection, company: _Company, found: dict[str, Any],
                   now: str) -> int:
    ats, token, url = found["ats"], found["token"], found["url"]
    # The board's own address stays unwritten when it is the source's default.
    override = url if url != default_address(ats, token) else None
    board = Board(ats, token, company.name, override)
    seen = company.titles[samejob.title_key(found["title"])]
    mails, sender = seen.mails, seen.sender
    return await proposals.source.propose(
        conn, task=TASK, unit_key=f"source:{company.key}", now=now,
        summary=summary(board, one_line(found["title"], 100), mails, sender),
        payload={"board": {"ats": ats, "token": token, "company": company.name,
                           "url": override},
                 "title": found["title"], "alerts": mails, "sender": sender,
                 "company": company.name, "titles_listed": found["titles"]})


__all__ = ["NAME", "PROBE_ATS", "Address", "ProbeResult", "default_address", "find_boards",
           "tokens"]
