"""Scored matches, best first, as typed rows: what `jobtracker matches` and the TUI list.

Which postings are matches at all is `jobtracker.ranking.matching`'s rule; this module
reads the open ones that have a verdict and a score, with the application's
status beside each. A job reached through several postings is one group
(jobtracker/postings/groups.py): it is listed once, as its leader, with the other places
it is open (`also_on`), and, when the leader has closed and the job is back under
a new id on the same board, the repost's page and date.
"""

from __future__ import annotations

import json
import math
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from json.encoder import encode_basestring  # type: ignore[attr-defined]
from pathlib import Path
from typing import Any

from jobtracker import store
from jobtracker.clock import now_iso
from jobtracker.config import Profile
from jobtracker.contacts.people import SHOWN as SHOWN_CONTACTS
from jobtracker.contacts.people import Directory, summary
from jobtracker.ranking import filters, matching, page, signals
from jobtracker.ranking.signals import host_of
from jobtracker.text import one_line, web_url


@dataclass(frozen=True)
class Match:
    """One scored match. The fields, in this order, are the `matches --json` object."""

    id: int                    # the posting's id (what `jobtracker status` takes)
    score: float | None        # None: not judged (a job alert's card with no text yet)
    verdict: str | None
    company: str | None
    title: str | None
    location: str | None
    url: str | None
    status: str | None         # the application's status, None without one
    stale: bool                # judged against older profile prose or an older description
    parts: dict[str, dict[str, Any]]   # how the score is made: name -> value, weight, points
    model: str | None = None   # the model that gave the verdict (None: not recorded)
    prompt_version: str | None = None   # the judge prompt it answered (None: unknown)
    also_on: list[str] = field(default_factory=list)   # other open postings' pages
    reposted: str | None = None   # YYYY-MM-DD: the job came back under a new id then
    why: dict[str, float] = field(default_factory=dict)   # the score's parts, adding up to it
    dismissed: str | None = None  # the reason, when the user dismissed it (`--dismissed`)
    described: bool = True     # False: only a job alert's card, no description to judge yet
    prerank: float | None = None  # the pre-rank (jobtracker/ranking/prerank.py); None: not read
    saved: bool = False        # the user saved it (`jobtracker save`): listed whatever the rules
    dismissed_note: str | None = None  # the note the user gave with the dismissal (stored
    #                                   literally: shown through `one_line`)
    # The people you know there: {"count": N, "people": [the first few]}, None: nobody.
    contacts: dict[str, Any] | None = None
    signals: dict[str, Any] = field(default_factory=dict)  # ranking/signals.py's facts

    @property
    def label(self) -> str:
        """`Company - Title` for people, one plain line."""
        company, title = one_line(self.company or ""), one_line(self.title or "")
        return f"{company} - {title}" if company else title

    @property
    def contacts_line(self) -> str:
        """`you know 2 people at Acme (Dana Lee, Staff Engineer; ...)`, '' for nobody."""
        if not self.contacts:
            return ""
        return summary(self.contacts["people"], self.company, self.contacts["count"])

    @property
    def signals_line(self) -> str:
        """The posting signals worth a look, one short line ('' for none)."""
        return signals.Signals(**self.signals).line() if self.signals else ""

    def to_json(self) -> dict[str, Any]:
        # A shallow copy: asdict() deep-copies `parts` and costs 30x more per row.
        return {name: getattr(self, name) for name in _FIELDS}


_FIELDS = tuple(f.name for f in fields(Match))


# `why`'s names for the stored parts (docs/learning.md): the contract calls the
# verdict's part `verdict`; parts a score does not have yet are there as 0.
WHY = {"fit": "verdict", "remote": "remote", "location": "location", "recency": "recency",
       "salary": "salary", "prerank": "prerank", "learned": "learned"}


_NO_POINTS = dict.fromkeys(WHY.values(), 0.0)


def why(parts: dict[str, dict[str, Any]]) -> dict[str, float]:
    """The score's parts as points by name; they add up to the score (to its 4 places).
    Read for every listed match (100,000 in `matches --json`), so kept to a dict copy
    and one lookup a part; stored points are already numbers."""
    out = _NO_POINTS.copy()
    name_of = WHY.get
    for name, part in parts.items():
        out[name_of(name, name)] = part.get("points", 0.0)
    return out


# Application statuses a match may have and still wait for the user: none, or `saved`.
# `prepare` picks only these, and the digest announces only these.
UNAPPLIED = ("saved",)


def open_matches(profile: Profile, now: str | None = None, *, columns: str,
                 column_params: list[Any] | None = None, joins: str = "",
                 dismissed: bool = False, unapplied: bool = False, status: bool = False,
                 where: str = "", where_params: list[Any] | None = None
                 ) -> tuple[str, list[Any]]:
    """The one query of the open, judged and scored matches (`matching.match_where`:
    open, in scope, at a wanted level, no filter catching it), without the ones the
    user dismissed (only those, with `dismissed`: their standing dismissal is `d`),
    and with `unapplied` only those with no application beyond `saved`. `jobtracker
    matches`, the TUI, `prepare`'s picks and the digest all read their matches
    through it, each naming the columns it needs (`status`: the application's, as
    `a`), and any further `joins` and `where`; the caller adds its ORDER BY.

    Aliases: `p` postings, `lr` level_readings, `r` rankings, `s` scores. The judged
    postings lead (a CROSS JOIN keeps SQLite to that order): a third of the postings
    or fewer. The standing dismissals and the applications to leave out are anti-joins
    (LEFT JOIN ... IS NULL: a probe of an index per row; SQLite tested a `NOT IN` list
    for every scored row, before the verdict and the level)."""
    match, match_params = matching.match_where(profile, now)
    sql = f"SELECT {columns} FROM rankings AS r CROSS JOIN {matching.FROM_POSTINGS} " \
          "JOIN scores AS s ON s.posting_id = p.id "
    if status:
        sql += "LEFT JOIN applications AS a ON a.posting_id = p.id "
    if dismissed:
        sql += "JOIN dismissals AS d ON d.posting_id = p.id AND d.undismissed_at IS NULL "
    else:
        sql += ("LEFT JOIN dismissals AS nd ON nd.posting_id = p.id "
                "AND nd.undismissed_at IS NULL ")
    join_params: list[Any] = []
    if unapplied:
        # An application beyond `saved` (posting_id is unique in applications).
        sql += ("LEFT JOIN applications AS na ON na.posting_id = p.id AND na.status "
                f"NOT IN ({', '.join('?' for _ in UNAPPLIED)}) ")
        join_params = list(UNAPPLIED)
    sql += f"{joins} WHERE p.id = r.posting_id {('AND ' + where) if where else ''} AND {match}"
    if not dismissed:
        sql += " AND nd.posting_id IS NULL"
    if unapplied:
        sql += " AND na.posting_id IS NULL"
    params = [*(column_params or []), *join_params, *(where_params or []), *match_params]
    return sql, params


# Days since the leader was first seen, or posted when the board says it was earlier
# (the leader is its group's first posting), to the `?` given as now.
_DAYS_OPEN = ("CAST(julianday(?) - julianday(MIN(p.first_seen, "
              "COALESCE(p.posted_at, p.first_seen))) AS INTEGER)")


async def load_matches(db: Path, profile: Profile, top: int | None = None, *,
                       dismissed: bool = False, undescribed: bool = False,
                       now: str | None = None, unapplied: bool = False) -> list[Match]:
    """Open, scored matches, best first (score, then posting id); with `dismissed`, the
    ones the user dismissed instead (they are left out otherwise); with `undescribed`,
    then the job alerts' cards that have no description to judge yet (`described`
    false, no score or verdict), newest first. None that a filter catches (`now`
    dates `filters.max_age_days`: the clock's time when not given). With
    `unapplied`, only jobs with no application beyond `saved` (prepare's picks).

    `stale` is true when the verdict was given for older profile prose or an older
    description: the judge will ask again, and the score stands until it does.
    """
    listed = await load_listing(db, profile, top, dismissed=dismissed,
                                undescribed=undescribed, now=now, unapplied=unapplied,
                                points=False)
    return [row.match() for row in listed]


async def load_listing(db: Path, profile: Profile, top: int | None = None, *,
                       dismissed: bool = False, undescribed: bool = False,
                       now: str | None = None, unapplied: bool = False,
                       parts: bool = True, points: bool = True) -> list[MatchRow]:
    """`load_matches`' list as light rows (`MatchRow`), before a `Match` is made of
    each: what `jobtracker matches` prints from. `--json` prints the score parts as
    stored (`json_text`), so it parses none of 100,000; a table does not read them at
    all (`parts` false: such rows make no Match). `points` false leaves out what
    `json_text` writes `why` from (a Match parses the parts anyway)."""
    moment = now or now_iso()
    columns = dict(_LISTING)
    if dismissed:
        columns.update(dismissed="d.reason", dismissed_note="d.note")
    if not parts:
        columns.update(parts="NULL")
    if not parts or not points:
        columns.update(why_points="NULL")
    sql, params = open_matches(
        profile, now, dismissed=dismissed, unapplied=unapplied, status=True,
        columns=", ".join(columns.values()), column_params=[profile.prose_hash, moment],
        joins="LEFT JOIN preranks AS pr ON pr.posting_id = p.id")
    sql += " ORDER BY s.score DESC, p.id"
    if top is not None:
        sql += " LIMIT ?"
        params.append(top)
    async with store.connect(db) as conn:
        rows = await _plain_rows(conn, sql, params)
        members = await _members(conn)
        directory = await Directory.load(conn)
        waiting = await _undescribed(conn, profile, moment) if undescribed and not unapplied \
            else []
        # The aggregators' boards: a few rows read once, not a subquery per listed row.
        copies = frozenset(int(r[0]) for r in await conn.execute_fetchall(
            "SELECT id FROM boards WHERE aggregator"))
    facts = _Facts(members, _same_text(rows), directory, copies)
    out = [MatchRow(row, facts, True) for row in rows]
    out += [MatchRow(row, facts, False) for row in waiting]
    if top is not None:
        out = out[:top]
    return out


async def _plain_rows(conn: Any, sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    """The rows as tuples: a name lookup in a sqlite3.Row is a search of its columns,
    and a listed row is read some twenty times."""
    cursor = await conn.execute(sql, params)
    cursor.row_factory = None
    return list(await cursor.fetchall())


# The stored parts' points, in `why`'s order (WHY's names), as SQLite's JSON array of
# the numbers' own text, and whether the parts hold any other name: `MatchRow` writes
# `why` from them without parsing the parts. (Stored parts are scoring.py's JSON: text
# that is not fails the read, as json.loads failed on it before.)
_WHY_SQL = ("json_array(json_extract(s.parts, "
            + ", ".join(f"'$.{name}.points'" for name in WHY)
            + "), json_remove(s.parts, " + ", ".join(f"'$.{name}'" for name in WHY)
            + ") = '{}')")

# A listed row's columns, in this order (read by position: the names below). The two
# `?` are the profile prose's hash and now.
_LISTING = (
    ("id", "p.id"), ("score", "s.score"), ("parts", "s.parts"), ("verdict", "r.verdict"),
    ("company", "p.company"), ("title", "p.title"), ("location", "p.location"),
    ("url", "p.url"), ("board_id", "p.board_id"),
    ("aggregator", "NULL"),   # unused: `_Facts.copies` holds the aggregator boards
    ("closed_at", "p.closed_at"), ("status", "a.status"),
    ("stale", "(r.prose_hash != ? OR r.description_hash IS NOT p.description_hash)"),
    ("model", "r.model"), ("prompt_version", "r.prompt_version"),
    ("dismissed", "NULL"), ("dismissed_note", "NULL"), ("prerank", "pr.score"),
    ("saved", f"p.id IN {matching.SAVED_LEADERS}"),
    ("description_hash", "p.description_hash"), ("title_key", "lower(trim(p.title))"),
    ("days_open", _DAYS_OPEN), ("why_points", _WHY_SQL))
(_ID, _SCORE, _PARTS, _VERDICT, _COMPANY, _TITLE, _LOCATION, _URL, _BOARD, _AGGREGATOR,
 _CLOSED, _STATUS, _STALE, _MODEL, _PROMPT, _DISMISSED, _NOTE, _PRERANK, _SAVED, _HASH,
 _TITLE_KEY, _DAYS, _POINTS) = range(len(_LISTING))


class MatchRow:
    """One listed match as read, before it is a `Match`: the attributes a table shows
    (the same names as Match's), `match()` for the whole object, and `json_text` for
    `--json`. Its contacts, signals and their lines are shared by the rows that have
    the same ones (`_Facts`)."""

    __slots__ = (
        "also_on",
        "contacts",
        "described",
        "facts",
        "reposted",
        "row",
        "signals",
        "url",
    )

    def __init__(self, row: tuple[Any, ...], facts: _Facts, described: bool) -> None:
        self.row, self.facts, self.described = row, facts, described
        self.url, self.also_on, self.reposted = facts.where_listed(row)
        self.contacts = facts.contacts(row[_COMPANY])
        self.signals = facts.signals(row, self.url)

    # What a table reads, by Match's names (a card not judged yet has no score).
    @property
    def id(self) -> int:
        return int(self.row[_ID])

    @property
    def company(self) -> str | None:
        return self.row[_COMPANY]

    @property
    def title(self) -> str | None:
        return self.row[_TITLE]

    @property
    def location(self) -> str | None:
        return self.row[_LOCATION]

    @property
    def status(self) -> str | None:
        return self.row[_STATUS]

    @property
    def score(self) -> float | None:
        return self.row[_SCORE]

    @property
    def verdict(self) -> str | None:
        return self.row[_VERDICT]

    @property
    def stale(self) -> bool:
        return bool(self.row[_STALE])

    @property
    def saved(self) -> bool:
        return bool(self.row[_SAVED])

    @property
    def dismissed(self) -> str | None:
        return self.row[_DISMISSED]

    @property
    def dismissed_note(self) -> str | None:
        return self.row[_NOTE]

    @property
    def contacts_line(self) -> str:
        return self.facts.contacts_line(self.contacts, self.row[_COMPANY])

    @property
    def signals_line(self) -> str:
        return self.facts.signals_line(self.signals)

    def match(self) -> Match:
        row = self.row
        if not self.described:
            return Match(
                id=row[_ID], score=None, verdict=None, company=row[_COMPANY],
                title=row[_TITLE], location=row[_LOCATION], url=self.url,
                status=row[_STATUS], stale=False, parts={}, also_on=list(self.also_on),
                reposted=self.reposted, described=False, contacts=self.contacts,
                signals=self.signals)
        if row[_PARTS] is None:
            raise ValueError("a row read without its parts (a table's) makes no Match")
        parts = json.loads(row[_PARTS])
        return Match(
            id=row[_ID], score=row[_SCORE], verdict=row[_VERDICT], company=row[_COMPANY],
            title=row[_TITLE], location=row[_LOCATION], url=self.url, status=row[_STATUS],
            stale=bool(row[_STALE]), parts=parts,
            model=row[_MODEL] or None, prompt_version=row[_PROMPT],
            also_on=list(self.also_on), reposted=self.reposted, why=why(parts),
            dismissed=row[_DISMISSED], prerank=row[_PRERANK], saved=bool(row[_SAVED]),
            dismissed_note=row[_NOTE], contacts=self.contacts, signals=self.signals)

    def json_text(self) -> str:
        """`json.dumps(self.match().to_json(), ensure_ascii=False)`, written field by
        field: the stored parts as they are (`parts_and_why`), the shared contacts and
        signals encoded once for all the rows sharing them."""
        row, e, shared = self.row, _encode, self.facts.encoded
        parts, why_text = self.parts_and_why()
        also_on = "[]" if not self.also_on else json.dumps(self.also_on, ensure_ascii=False)
        return (f'{{"id": {e(row[_ID])}, "score": {e(row[_SCORE])}, '
                f'"verdict": {e(row[_VERDICT])}, "company": {e(row[_COMPANY])}, '
                f'"title": {e(row[_TITLE])}, "location": {e(row[_LOCATION])}, '
                f'"url": {e(self.url)}, "status": {e(row[_STATUS])}, '
                f'"stale": {"true" if row[_STALE] else "false"}, "parts": {parts}, '
                f'"model": {e(row[_MODEL] or None)}, "prompt_version": {e(row[_PROMPT])}, '
                f'"also_on": {also_on}, "reposted": {e(self.reposted)}, "why": {why_text}, '
                f'"dismissed": {e(row[_DISMISSED])}, '
                f'"described": {"true" if self.described else "false"}, '
                f'"prerank": {e(row[_PRERANK])}, "saved": {"true" if row[_SAVED] else "false"}, '
                f'"dismissed_note": {e(row[_NOTE])}, "contacts": {shared(self.contacts)}, '
                f'"signals": {shared(self.signals)}}}')

    def parts_and_why(self) -> tuple[str, str]:
        """The `parts` and `why` objects as `json.dumps` (ensure_ascii off) writes them.
        The stored parts are scoring.py's `json.dumps(parts, sort_keys=True)`: the same
        text, unless it escaped a non-ASCII letter; `why` is written from the points'
        own text. Anything else (another name, a part with no number) is parsed."""
        if not self.described:
            return "{}", "{}"
        text, points = self.row[_PARTS], self.row[_POINTS]
        if points is not None and "\\u" not in text:
            known = _WHY_TEXTS.get(points)
            if known is None:
                known = _WHY_TEXTS[points] = _why_text(points)
            written, absent = known
            # A name whose points are null is 0 in `why` when the part is absent; a part
            # there with points null (or not a number) is parsed.
            if written is not None and not any(name in text for name in absent):
                return text, written
        parts = json.loads(text)
        return (json.dumps(parts, ensure_ascii=False, check_circular=False),
                json.dumps(why(parts), ensure_ascii=False, check_circular=False))


_WHY_NAMES = tuple(WHY)
# _WHY_SQL's answers seen, and what they give (a list repeats a few hundred of them).
_WHY_TEXTS: dict[str, tuple[str | None, tuple[str, ...]]] = {}


def _why_text(points: str) -> tuple[str | None, tuple[str, ...]]:
    """(`why` as JSON text, the keys `"name": ` of the parts whose points came back
    null) from `[[1.0,0.0,...],1]`; None for the text when the points are not all
    numbers or null, or the parts name something `why` does not know."""
    inner, _, rest = points[2:].partition("]")
    if rest != ",1]" or _NOT_A_NUMBER.search(inner):
        return None, ()
    found = inner.split(",")
    absent = []
    for at, value in enumerate(found):
        if value == "null":
            absent.append(f'"{_WHY_NAMES[at]}": ')
            found[at] = "0.0"
    return _WHY_TEMPLATE % tuple(found), tuple(absent)
_NOT_A_NUMBER = re.compile(r'["\[{tf]')   # a string, a list, an object, true or false
_WHY_TEMPLATE = "{" + ", ".join(f'"{name}": %s' for name in WHY.values()) + "}"


def _float(value: float) -> str:
    # json's own spelling: repr, and its words for what is not a number.
    if value != value:
        return "NaN"
    if value in (math.inf, -math.inf):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)


_SCALARS: dict[type, Callable[[Any], str]] = {
    str: encode_basestring, int: int.__repr__, float: _float,
    bool: lambda value: "true" if value else "false", type(None): lambda _: "null"}


def _encode(value: Any) -> str:
    """`json.dumps(value, ensure_ascii=False)` for one value, scalars without its set-up."""
    scalar = _SCALARS.get(value.__class__)
    return scalar(value) if scalar is not None else json.dumps(
        value, ensure_ascii=False, check_circular=False)


def json_text(listed: list[MatchRow]) -> str:
    """`json.dumps([row.match().to_json() for row in listed], ensure_ascii=False)` (what
    `matches --json` prints), written without a Match or a parsed `parts` per row."""
    return "[" + ", ".join([row.json_text() for row in listed]) + "]"


def _same_text(rows: list[tuple[Any, ...]]) -> dict[tuple[str, str], int]:
    """signals.same_text_counts over listed rows, read by position."""
    employers: dict[tuple[str, str], set[str]] = {}
    for row in rows:
        digest = row[_HASH]
        if digest:
            employers.setdefault((digest, row[_TITLE_KEY]), set()).add(
                (row[_COMPANY] or "").strip().lower())
    return {key: len(names) for key, names in employers.items() if len(names) > 1}


async def _undescribed(conn: Any, profile: Profile, now: str) -> list[tuple[Any, ...]]:
    """Job alerts' cards still without a description: open, a candidate, a level that is
    wanted or not known (the level task needs a text to read one), never judged. The
    listed row's columns, with none of a judgement's."""
    where, params = matching.candidate_where(profile, now)
    levels = ", ".join("?" for _ in profile.levels)
    level = f"p.title_level IN ({levels}, 'UNCERTAIN')" if profile.levels else "0"
    kept = ("id", "company", "title", "location", "url", "board_id", "aggregator",
            "closed_at", "status", "description_hash", "title_key", "days_open")
    columns = ", ".join(sql if name in kept else ("0" if name in ("stale", "saved") else "NULL")
                        for name, sql in _LISTING)
    return await _plain_rows(
        conn,
        f"SELECT {columns} FROM {matching.FROM_POSTINGS} "
        "LEFT JOIN applications AS a ON a.posting_id = p.id "
        "LEFT JOIN dismissals AS d ON d.posting_id = p.id AND d.undismissed_at IS NULL "
        f"WHERE {where} AND p.description_source = 'alert' AND {level} AND d.id IS NULL "
        "AND NOT EXISTS (SELECT 1 FROM rankings AS r WHERE r.posting_id = p.id) "
        "ORDER BY COALESCE(p.posted_at, p.first_seen) DESC, p.id DESC",
        [now, *params, *profile.levels])


# --- postings a filter keeps out, and postings not judged yet -------------------------

@dataclass(frozen=True)
class Listed:
    """A posting that is not a scored match: one a filter catches (`filtered_by` names
    each rule and why), or one the judge has not answered yet. The fields, in this
    order, are the `matches --filtered --json` object."""

    id: int
    company: str | None
    title: str | None
    location: str | None
    url: str | None
    prerank: float | None
    verdict: str | None           # a verdict given before a filter caught it, kept
    first_seen: str | None
    filtered_by: list[filters.Caught] = field(default_factory=list)

    @property
    def label(self) -> str:
        company, title = one_line(self.company or ""), one_line(self.title or "")
        return f"{company} - {title}" if company else title

    def to_json(self) -> dict[str, Any]:
        out = {name: getattr(self, name) for name in _LISTED_FIELDS}
        out["filtered_by"] = [caught.to_json() for caught in self.filtered_by]
        return out


_LISTED_FIELDS = tuple(f.name for f in fields(Listed))

_LISTED_COLUMNS = (
    "p.id, p.company, p.title, p.location, p.url, p.remote, p.first_seen, p.salary_min, "
    "p.salary_max, p.salary_currency, pr.score AS prerank, "
    "pr.refuses_sponsorship AS refusal, r.verdict, "
    f"{signals.REPOSTS_SQL} AS reposts, {signals.OWN_BOARD_SQL} AS own_board")


async def load_filtered(db: Path, profile: Profile, now: str | None = None,
                        top: int | None = None) -> list[Listed]:
    """The postings that would be matches (or could be: a level not read yet) but for
    a filter, best pre-rank first, each with every rule that catches it."""
    moment = now or now_iso()
    where, params = matching.filtered_where(profile, moment)
    sql = (f"SELECT {_LISTED_COLUMNS} FROM {matching.FROM_POSTINGS} "
           "LEFT JOIN preranks AS pr ON pr.posting_id = p.id "
           "LEFT JOIN rankings AS r ON r.posting_id = p.id "
           f"WHERE {where} ORDER BY COALESCE(pr.score, 0) DESC, p.id")
    if top is not None:
        sql += " LIMIT ?"
        params = [*params, top]
    async with store.connect(db) as conn:
        rows = await conn.execute_fetchall(sql, params)
    catcher = filters.Catcher(profile.filters, moment)
    return [_listed(row, catcher.caught(row)) for row in rows]


async def load_unjudged(db: Path, profile: Profile, now: str | None = None,
                        top: int | None = None) -> list[Listed]:
    """Open matches the judge has not answered yet and will ask about, best pre-rank
    first: the order the judge will ask in (its other tie-breaks aside). A job alert's
    card with no description is not among them: the judge waits for its text."""
    where, params = matching.match_where(profile, now)
    sql = (f"SELECT {_LISTED_COLUMNS} FROM {matching.FROM_POSTINGS} "
           "LEFT JOIN preranks AS pr ON pr.posting_id = p.id "
           "LEFT JOIN rankings AS r ON r.posting_id = p.id "
           f"WHERE {where} AND r.posting_id IS NULL AND {matching.JUDGEABLE} "
           "ORDER BY COALESCE(pr.score, 0) DESC, COALESCE(p.posted_at, p.first_seen) DESC, p.id")
    if top is not None:
        sql += " LIMIT ?"
        params = [*params, top]
    async with store.connect(db) as conn:
        rows = await conn.execute_fetchall(sql, params)
    return [_listed(row, []) for row in rows]


def _listed(row: Any, caught: list[filters.Caught]) -> Listed:
    return Listed(id=row["id"], company=row["company"], title=row["title"],
                  location=row["location"], url=row["url"], prerank=row["prerank"],
                  verdict=row["verdict"], first_seen=row["first_seen"], filtered_by=caught)


async def filtered_counts(conn: Any, profile: Profile, now: str) -> dict[str, int]:
    """How many postings each filter rule catches (a posting two rules catch counts
    under both), and under `total` how many are filtered; empty with no filter set."""
    if not profile.filters.active:
        return {}
    where, params = matching.filtered_where(profile, now)
    items, item_params = filters.counts_select(profile.filters, now)
    row = await (await conn.execute(
        f"SELECT COUNT(*) AS total, {items} FROM {matching.FROM_POSTINGS} WHERE {where}",
        [*item_params, *params])).fetchone()
    names = ["total", *filters.rule_sql(profile.filters, now)]
    return {name: int(row[name] or 0) for name in names}


async def _members(conn: Any) -> dict[int, list[Any]]:
    """Every non-leading member by leader, open or closed, newest first (a partial
    index holds them)."""
    rows = await conn.execute_fetchall(
        "SELECT id, lead_id, url, board_id, first_seen, closed_at, "
        "(SELECT aggregator FROM boards WHERE id = board_id) AS aggregator FROM postings "
        "WHERE lead_id IS NOT NULL ORDER BY first_seen DESC, id DESC")
    members: dict[int, list[Any]] = defaultdict(list)
    for row in rows:
        members[row["lead_id"]].append(row)
    return members


class _Facts:
    """What a listed leader's page, contacts and signals are made from, read once for
    the whole list: its group's members, the texts several employers share, and the
    contacts by company. Per row, only lookups."""

    def __init__(self, members: dict[int, list[Any]], same_text: dict[tuple[str, str], int],
                 directory: Directory, copies: frozenset[int]) -> None:
        self.members, self.same_text, self.directory = members, same_text, directory
        self.copies = copies
        self._pages: dict[tuple[str, str | None], str] = {}
        self._known: dict[str, dict[str, Any] | None] = {}
        self._signals: dict[tuple[Any, ...], dict[str, Any]] = {}
        self._lines: dict[int, str] = {}     # by id() of a shared contacts/signals object
        self._json: dict[int, str] = {}      # the same objects as JSON text

    def encoded(self, value: dict[str, Any] | None) -> str:
        """A shared contacts or signals object as JSON text, encoded once."""
        if value is None:
            return "null"
        text = self._json.get(id(value))
        if text is None:
            text = self._json[id(value)] = json.dumps(value, ensure_ascii=False,
                                                      check_circular=False)
        return text

    def where_listed(self, row: tuple[Any, ...]) -> tuple[str | None, list[str], str | None]:
        group = self.members.get(row[_ID])
        if not group:       # most jobs: one posting, its own page (page.choose's rule)
            return web_url(row[_URL]) or None, _NONE, None
        leader = {"id": row[_ID], "url": row[_URL], "board_id": row[_BOARD],
                  "aggregator": row[_BOARD] in self.copies, "closed_at": row[_CLOSED]}
        return _where_listed(leader, [m for m in group if m["closed_at"] is None])

    def contacts_line(self, known: dict[str, Any] | None, company: str | None) -> str:
        """`Match.contacts_line`, once per company's shared object."""
        if not known:
            return ""
        line = self._lines.get(id(known))
        if line is None:
            line = self._lines[id(known)] = summary(known["people"], company, known["count"])
        return line

    def signals_line(self, facts: dict[str, Any]) -> str:
        """`Match.signals_line`, once per shared signals object."""
        line = self._lines.get(id(facts))
        if line is None:
            line = self._lines[id(facts)] = signals.Signals(**facts).line() if facts else ""
        return line

    def contacts(self, company: str | None) -> dict[str, Any] | None:
        """One object per company, shared by its matches (100,000 rows, a few companies)."""
        if not self.directory.has_people:
            return None
        cached = self._known.get(company or "", False)
        if cached is False:
            found = self.directory.known_at(company)
            cached = self._known[company or ""] = {
                "count": len(found), "people": [p.brief() for p in found[:SHOWN_CONTACTS]],
            } if found else None
        return cached

    def signals(self, row: tuple[Any, ...], url: str | None) -> dict[str, Any]:
        group = self.members.get(row[_ID], ())
        own_board = row[_BOARD] not in self.copies or (
            bool(group) and any(not m["aggregator"] for m in group))
        host = host_of(url) if url else ""
        key = (host, None if own_board else row[_COMPANY])
        whose = self._pages.get(key)
        if whose is None:   # a company board's page is the company's, wherever it is hosted
            whose = self._pages[key] = signals.apply_page(url, row[_COMPANY], own_board)
        facts = (signals.reposts_in(row[_BOARD], group) if group else 0,
                 row[_DAYS], bool(own_board),
                 self.same_text.get((row[_HASH], row[_TITLE_KEY]), 1) - 1, whose)
        shared = self._signals.get(facts)     # most rows repeat a few combinations
        if shared is None:
            shared = self._signals[facts] = dict(zip(signals.FIELDS, facts, strict=True))
        return shared


_NONE: list[str] = []    # `also_on` of a job with one posting: shared, never changed


def _where_listed(leader: Any, members: list[Any]) -> tuple[str | None, list[str], str | None]:
    """(the page to show, the other open pages, the repost date) for one listed leader:
    the page is jobtracker/ranking/page.py's rule, the one every screen, packet and
    digest follows."""
    chosen = page.choose(leader, members)
    url = chosen.url
    also_on = []
    # The leader's own page too, when a member gives the job's (a copy's page).
    others = [leader, *members] if chosen.posting_id != leader["id"] and \
        leader["closed_at"] is None else members
    for member in others:
        # Rows stored before pages were checked may hold `javascript:`: never shown.
        other = web_url(member["url"])
        if other and other != url and other not in also_on:
            also_on.append(other)
    return url, also_on, chosen.reposted
