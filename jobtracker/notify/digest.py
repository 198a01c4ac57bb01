"""The digest: what needs the user since the last digest that was sent, as plain data.

New matches at or above `notify.min_verdict` that a channel has not announced yet (a
job once per channel, ever: see jobtracker/notify/record.py), proposals waiting for
review, applications due for a follow-up, interviews in the next days, and what
failed (units set aside after repeated failures, boards whose last fetch failed).

Built once for every channel together (`build`), then narrowed per channel
(`Digest.for_channel`): a channel that failed last time still holds the jobs it did
not take. Text from outside (titles, companies, summaries, errors) is kept as stored;
jobtracker/notify/layout.py makes it safe for each form.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from jobtracker import clock
from jobtracker.config import VERDICTS, Followup, Profile
from jobtracker.contacts.people import Directory, summary
from jobtracker.notify import record
from jobtracker.ranking import page
from jobtracker.ranking.matches import open_matches
from jobtracker.run.ledger import MAX_FAILURES
from jobtracker.text import web_url
from jobtracker.tracker.overview import load_rows

if TYPE_CHECKING:
    import aiosqlite

INTERVIEW_DAYS = 7     # how far ahead the digest looks for interviews


@dataclass(frozen=True)
class MatchItem:
    id: int               # the posting leading the job's group (what `status` takes)
    verdict: str
    score: float
    company: str
    title: str
    location: str
    url: str
    contacts: str = ""    # "you know 2 people at Acme (...)" ('' for nobody)


@dataclass(frozen=True)
class ProposalItem:
    id: int
    kind: str
    task: str
    summary: str
    created_at: str


@dataclass(frozen=True)
class DueItem:
    application: int
    posting: int | None
    company: str
    title: str
    status: str
    followup_due: str


@dataclass(frozen=True)
class InterviewItem:
    application: int
    company: str
    title: str
    start: str            # ISO 8601 with offset
    end: str
    where: str
    timezone: str | None


@dataclass(frozen=True)
class BoardFailure:
    board: str            # `greenhouse:acme`
    error: str
    at: str | None


@dataclass(frozen=True)
class Digest:
    made_at: str                        # when it was read (UTC, as stored)
    zone: str                           # the zone its times are shown in
    since: str | None                   # the window's start: the last digest sent, or --since
    min_verdict: str
    matches: list[MatchItem] = field(default_factory=list)
    proposals: list[ProposalItem] = field(default_factory=list)
    proposals_by_kind: dict[str, int] = field(default_factory=dict)
    due: list[DueItem] = field(default_factory=list)
    interviews: list[InterviewItem] = field(default_factory=list)
    set_aside: dict[str, int] = field(default_factory=dict)
    boards: list[BoardFailure] = field(default_factory=list)
    # Jobs each channel already announced (by group leader): for_channel's filter.
    announced: dict[str, frozenset[int]] = field(default_factory=dict, repr=False)

    @property
    def day(self) -> str:
        """The digest's date in the user's zone: its archive file's name."""
        return self.local(self.made_at).date().isoformat()

    def local(self, stamp: str) -> datetime:
        return datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone(
            ZoneInfo(self.zone))

    @property
    def empty(self) -> bool:
        return not (self.matches or self.proposals or self.due or self.interviews
                    or self.set_aside or self.boards)

    def for_channel(self, channel: str) -> Digest:
        """This digest as `channel` gets it: without the jobs it announced before."""
        told = self.announced.get(channel, frozenset())
        return replace(self, matches=[m for m in self.matches if m.id not in told])

    def to_json(self, limit: int | None = None) -> dict[str, Any]:
        """The `digest --json` object; `limit` cuts each list (the webhook's body), and
        `totals` always says how many there were."""
        def cut(items: list[Any]) -> list[dict[str, Any]]:
            return [_plain(item) for item in (items if limit is None else items[:limit])]

        return {
            "made_at": self.made_at, "day": self.day, "since": self.since,
            "min_verdict": self.min_verdict, "zone": self.zone,
            "matches": cut(self.matches), "proposals": cut(self.proposals),
            "proposals_by_kind": dict(self.proposals_by_kind), "due": cut(self.due),
            "interviews": cut(self.interviews),
            "failed": {"set_aside": dict(self.set_aside), "boards": cut(self.boards)},
            "totals": {"matches": len(self.matches), "proposals": len(self.proposals),
                       "due": len(self.due), "interviews": len(self.interviews),
                       "boards": len(self.boards)},
        }


def _plain(item: Any) -> dict[str, Any]:
    # A shallow dict: asdict() deep-copies, and costs 10 µs a match.
    return {name: getattr(item, name) for name in _FIELDS[type(item)]}


_FIELDS = {kind: tuple(f.name for f in fields(kind))
           for kind in (MatchItem, ProposalItem, DueItem, InterviewItem, BoardFailure)}


def at_or_above(verdict: str) -> frozenset[str]:
    """The verdicts as good as `verdict` or better."""
    return frozenset(VERDICTS[:VERDICTS.index(verdict) + 1])


async def build(conn: aiosqlite.Connection, db: Path, *, profile: Profile,
                followup: Followup, min_verdict: str, channels: tuple[str, ...], now: str,
                zone: str | None = None, since: str | None = None,
                home: Path | None = None) -> Digest:
    """What needs the user, for `channels` together: a match is in it while one of
    them has not announced its job. `since` (UTC, as stored) narrows the matches and
    proposals to those that came after it; by default the window starts at the last
    digest any channel took, and a match is new while it is unannounced."""
    tz = clock.zone_name(zone)
    window = since if since is not None else await record.last_sent(conn)
    matches, announced = await _matches(conn, profile, at_or_above(min_verdict), channels,
                                        since, now)
    matches = await _with_contacts(conn, matches)
    proposals, by_kind = await _proposals(conn, since, home)
    today = clock.local_today(tz, now)
    return Digest(
        made_at=now, zone=tz, since=window, min_verdict=min_verdict, matches=matches,
        proposals=proposals, proposals_by_kind=by_kind, due=await _due(conn, followup, today),
        interviews=await _interviews(conn, now), set_aside=await _set_aside(conn),
        boards=await _boards(conn), announced=announced)


async def _announced(conn: aiosqlite.Connection,
                     channels: tuple[str, ...]) -> dict[str, set[int]]:
    """Per channel, the postings whose job it announced: each posting it announced, and
    the leader of that posting's group now (a job is told once one of its postings
    was, whichever leads it today). One read of the channels' announcements and of
    the groups, not two lookups a channel in SQL for every match (at 100,000
    postings those made most of the digest's read)."""
    told: dict[str, set[int]] = {channel: set() for channel in channels}
    if not channels:
        return told
    # Each grouped posting's leader, from the partial index of grouped postings (a
    # lookup of lead_id in the postings table itself reads past each description).
    leader: dict[int, int] = {int(row[0]): int(row[1]) for row in await conn.execute_fetchall(
        "SELECT id, lead_id FROM postings INDEXED BY postings_by_lead "
        "WHERE lead_id IS NOT NULL")}
    cursor = await conn.execute(
        "SELECT channel, posting_id FROM digest_announced "
        f"WHERE channel IN ({', '.join('?' for _ in channels)})", channels)
    cursor.row_factory = None
    for channel, posting in await cursor.fetchall():
        seen = told[channel]
        seen.add(posting)
        lead = leader.get(posting)
        if lead is not None:
            seen.add(lead)
    return told


async def _matches(conn: aiosqlite.Connection, profile: Profile, verdicts: frozenset[str],
                   channels: tuple[str, ...], since: str | None, now: str | None = None
                   ) -> tuple[list[MatchItem], dict[str, frozenset[int]]]:
    """The open matches `jobtracker matches` lists (`matches.open_matches`: the same
    filters, and none the user dismissed), with no application beyond `saved`, at one
    of `verdicts`, best first, that one of `channels` has not announced; and, per
    channel, which of the matches it announced. Only the columns a digest shows are
    read: `load_matches` builds a whole Match (its score's parts, its other pages)
    for each of tens of thousands of rows. Each job's page is
    jobtracker/ranking/page.py's, read for the few leaders whose members could
    change it (an aggregator's copy, a closed leader)."""
    marks = ", ".join("?" for _ in verdicts)
    where, where_params = f"r.verdict IN ({marks})", sorted(verdicts)
    if since is not None:
        where, where_params = f"{where} AND r.ranked_at >= ?", [*where_params, since]
    sql, args = open_matches(
        profile, now, unapplied=True,
        columns="p.id, r.verdict, s.score, p.company, p.title, p.location, p.url, "
                "p.board_id, p.closed_at",
        where=where, where_params=where_params)
    copies = {int(r[0]) for r in await conn.execute_fetchall(
        "SELECT id FROM boards WHERE aggregator")}     # a few rows: read once, not per match
    cursor = await conn.execute(sql + " ORDER BY s.score DESC, p.id", args)
    cursor.row_factory = None
    rows = await cursor.fetchall()
    moved = [row[0] for row in rows if row[7] in copies or row[8] is not None]
    members = await page.open_members(conn, moved) if moved else {}
    announced = await _announced(conn, channels)
    matches: list[MatchItem] = []
    for row in rows:
        if not all(row[0] in announced[channel] for channel in channels):
            url = page.choose({"id": row[0], "url": row[6], "board_id": row[7],
                               "closed_at": row[8], "aggregator": row[7] in copies},
                              members.get(row[0], [])).url if row[0] in members \
                else web_url(row[6])
            matches.append(MatchItem(row[0], row[1], round(row[2], 3), row[3] or "",
                                     row[4] or "", row[5] or "", url or ""))
    listed = {row[0] for row in rows}
    return matches, {c: frozenset(announced[c] & listed) for c in channels}


async def _with_contacts(conn: aiosqlite.Connection,
                         matches: list[MatchItem]) -> list[MatchItem]:
    """Each match with the people the user knows at its company (one read of them)."""
    directory = await Directory.load(conn) if matches else None
    if directory is None or not directory.has_people:
        return matches
    lines: dict[str, str] = {}        # one summary per company, not per match
    out = []
    for match in matches:
        line = lines.get(match.company)
        if line is None:
            line = lines[match.company] = summary(
                [p.to_json() for p in directory.known_at(match.company)], match.company)
        out.append(replace(match, contacts=line) if line else match)
    return out


async def _proposals(conn: aiosqlite.Connection, since: str | None, home: Path | None
                     ) -> tuple[list[ProposalItem], dict[str, int]]:
    """The proposals waiting (`proposals.waiting`: pending and not stale, as the
    dashboard and `proposals list` count them), oldest first, and their count by kind."""
    from jobtracker import proposals

    items = [ProposalItem(*found) for found in await proposals.waiting(conn, home, since or "")]
    by_kind: dict[str, int] = {}
    for item in items:
        by_kind[item.kind] = by_kind.get(item.kind, 0) + 1
    return items, by_kind


async def _due(conn: aiosqlite.Connection, followup: Followup, today: date) -> list[DueItem]:
    rows = await load_rows(conn, followup, today)
    due = [DueItem(r.id, r.posting_id, r.company, r.title, r.status, r.followup_due or "")
           for r in rows if r.due]
    return sorted(due, key=lambda d: (d.followup_due, d.application))


async def _interviews(conn: aiosqlite.Connection, now: str) -> list[InterviewItem]:
    """Accepted interviews starting from now to INTERVIEW_DAYS ahead (none before the
    interviews table exists in this database's schema)."""
    start = datetime.fromisoformat(now.replace("Z", "+00:00"))
    end = start + timedelta(days=INTERVIEW_DAYS)
    from jobtracker.interviews.store import upcoming

    return [InterviewItem(i.application_id, i.company, i.title, i.start, i.end, i.where,
                          i.timezone)
            for i in await upcoming(conn, start.astimezone(UTC), end.astimezone(UTC))]


async def _set_aside(conn: aiosqlite.Connection) -> dict[str, int]:
    rows = await conn.execute_fetchall(
        "SELECT task, COUNT(*) FROM task_attempts WHERE failures >= ? GROUP BY task "
        "ORDER BY task", (MAX_FAILURES,))
    return {str(task): int(count) for task, count in rows}


async def _boards(conn: aiosqlite.Connection) -> list[BoardFailure]:
    rows = await conn.execute_fetchall(
        "SELECT source || ':' || token, last_error, last_fetched FROM boards "
        "WHERE last_error IS NOT NULL ORDER BY source, token")
    return [BoardFailure(str(r[0]), str(r[1]), r[2]) for r in rows]
