"""A job's page and form: which of its group's postings a person is sent to.

One rule, stated once and used by every place that shows, packs or announces a job
(`jobtracker matches` and the TUI's lists, `prepare`'s Apply line, posting.md and
form, the digest):

- a company's own board leads: when the group's leader is an aggregator's copy (a
  feed, a job alert's card, Himalayas, Remote OK...), the newest open member on a
  company's board gives the page, and that posting's board gives the form;
- otherwise an open leader is its own page; a closed one (listed only while its
  board lists the job again) shows its repost on the same board, never a copy
  elsewhere;
- a page is only ever a plain http(s) address (`text.web_url`): a posting whose
  link is `javascript:` or `file:` gives none, and the next candidate is taken.

`choose` is the rule on rows in hand; `pages` reads what it needs for a set of
leaders in a few queries (never one per row).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from jobtracker.text import web_url

if TYPE_CHECKING:
    import aiosqlite

_CHUNK = 500


@dataclass(frozen=True)
class Page:
    """Where a job is applied to: the posting whose page and form stand for it."""

    posting_id: int               # the posting giving the page (the leader or a member)
    url: str | None               # its page, http(s) only; None when no posting has one
    reposted: str | None = None   # YYYY-MM-DD: the job came back under a new id then


def choose(leader: Any, members: Sequence[Any]) -> Page:
    """The page of the job `leader` leads, given its open non-leading `members`,
    newest first. Rows need `id`, `url`, `board_id`, `aggregator`, `closed_at` (the
    leader's) and `first_seen` (the members')."""
    own_url = web_url(leader["url"]) or None
    if leader["aggregator"]:
        for member in members:
            page = web_url(member["url"])
            if not member["aggregator"] and page:
                return Page(int(member["id"]), page)
    if leader["closed_at"] is not None:
        # Only a repost on the leader's own board keeps a closed job listed (the
        # schema's job_open rule); a copy elsewhere never takes over its page.
        for member in members:
            page = web_url(member["url"])
            if member["board_id"] == leader["board_id"] and page:
                return Page(int(member["id"]), page, str(member["first_seen"])[:10])
    return Page(int(leader["id"]), own_url)


def needs_members(leader: Any) -> bool:
    """Whether the leader's members could change its page (else it is its own)."""
    return bool(leader["aggregator"]) or leader["closed_at"] is not None


MEMBER_COLUMNS = ("m.id, m.lead_id, m.url, m.board_id, m.first_seen, "
                  "(SELECT aggregator FROM boards WHERE id = m.board_id) AS aggregator")


async def open_members(conn: aiosqlite.Connection, leaders: Iterable[int] | None = None
                       ) -> dict[int, list[Any]]:
    """Open non-leading members by leader, newest first: of `leaders`, or of every
    group (one read through the partial index of open members)."""
    order = " ORDER BY m.first_seen DESC, m.id DESC"
    found: dict[int, list[Any]] = defaultdict(list)
    if leaders is None:
        rows = await conn.execute_fetchall(
            f"SELECT {MEMBER_COLUMNS} FROM postings AS m "
            "WHERE m.lead_id IS NOT NULL AND m.closed_at IS NULL" + order)
        for row in rows:
            found[row["lead_id"]].append(row)
        return found
    wanted = sorted(set(leaders))
    for start in range(0, len(wanted), _CHUNK):
        chunk = wanted[start:start + _CHUNK]
        marks = ", ".join("?" for _ in chunk)
        rows = await conn.execute_fetchall(
            f"SELECT {MEMBER_COLUMNS} FROM postings AS m "
            f"WHERE m.lead_id IN ({marks}) AND m.closed_at IS NULL" + order, chunk)
        for row in rows:
            found[row["lead_id"]].append(row)
    return found


LEADER_COLUMNS = ("p.id, p.url, p.board_id, p.closed_at, "
                  "(SELECT aggregator FROM boards WHERE id = p.board_id) AS aggregator")


async def pages(conn: aiosqlite.Connection, leaders: Iterable[int]) -> dict[int, Page]:
    """The page of each job led by `leaders` (posting ids): two reads, whatever their
    number. A posting that is itself a member is taken as its own leader's."""
    wanted = sorted(set(leaders))
    rows: list[Any] = []
    for start in range(0, len(wanted), _CHUNK):
        chunk = wanted[start:start + _CHUNK]
        marks = ", ".join("?" for _ in chunk)
        rows += await conn.execute_fetchall(
            f"SELECT {LEADER_COLUMNS} FROM postings AS p WHERE p.id IN ({marks})", chunk)
    members = await open_members(conn, [r["id"] for r in rows if needs_members(r)])
    return {int(r["id"]): choose(r, members.get(r["id"], [])) for r in rows}


__all__ = ["LEADER_COLUMNS", "MEMBER_COLUMNS", "Page", "choose", "needs_members",
           "open_members", "pages"]
