"""The pre-rank: how well a posting's text matches the profile, before any model call.

A score per open posting from its title and the start of its description against
the profile's words — its prose, its levels and keywords.yaml's keywords — by BM25
(SQLite's FTS5 `bm25()`, over the `postings_text` index: the schema's triggers queue
each new or changed posting, and `refresh()` indexes the queue first). No model,
and nothing a user wrote is changed: the judge asks in this order, best first
(jobtracker/tasks/judge.py), and `matches --json` shows it. It orders work; it
never hides a posting.

The same pass reads each new posting's text once for a refusal to sponsor a visa
(jobtracker/ranking/sponsorship.py), which `filters.sponsorship` reads.

`refresh()` is incremental: the postings that have no row yet (new, reopened, or
whose text changed: the schema's trigger drops their row) are scored and read; the
whole set is rescored when the question changed (an edit to the prose, levels or
keywords) or the index has grown by more than a quarter since the last full
scoring, since BM25 weighs a word by how rare it is across the index. It runs at
the end of a fetch and at the start of every run (the judge task's `bring_in`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from jobtracker import files, store
from jobtracker.config import Profile
from jobtracker.ranking import sponsorship
from jobtracker.resume import KEYWORDS
from jobtracker.resume.keywords import KeywordsError, keyword_terms

INDEXED_CHARS = 1500          # the description's characters indexed (migration 0021)
TITLE_WEIGHT = 2.0            # a word in the title counts this many times one in the body
BODY_WEIGHT = 1.0
MAX_TERMS = 64                # words of the question; a long prose adds little after these
PROSE_WEIGHT = 3              # a prose term weighs as three keywords: the judge reads the prose
MAX_WEIGHT = 4                # the most a repeated term counts
REGROW = 1.25                 # rescore all once the index is this much larger
PLACES = 4
CHUNK = 500                   # postings read per query when looking for refusals
VERSION = "1"                 # part of the question's hash: a change here rescores all

_WORD = re.compile(r"[^\W_]+(?:[+#]+|(?:[.'’-][^\W_]+)*)")

# Words that say nothing about a job: function words, and what every posting says.
STOPWORDS = frozenset("""
a about above after again against all also am an and any are as at be because been
before being below between both but by can could did do does doing down during each
etc few for from further had has have having he her here hers him his how i if in into
is it its itself just me more most my myself no nor not now of off on once only or
other our ours ourselves out over own same she should so some such than that the their
theirs them then there these they this those through to too under until up very via
was we were what when where which while who whom why will with would you your yours
yourself want wants like looking look find work working job role roles position team
teams company things thing way ways lot lots really good great new well make makes
i'm i've i'd we're we've it's don't doesn't
""".split())  # noqa: SIM905  (a word list reads better as words)


@dataclass(frozen=True)
class Query:
    """The question the pre-rank asks of every posting: words and short phrases."""

    terms: tuple[str, ...]
    weights: tuple[int, ...] = ()     # per term, how many times it counts (default once)

    @property
    def hash(self) -> str:
        return store.description_hash(json.dumps(
            [VERSION, TITLE_WEIGHT, list(self.terms), list(self.weights)]))

    def fts(self) -> str | None:
        """An FTS5 expression: any of the terms, each quoted (a phrase when it has
        several words) and repeated as many times as it weighs (FTS5's bm25() adds up
        every phrase of the expression); None when there is nothing to ask."""
        if not self.terms:
            return None
        weights = self.weights or (1,) * len(self.terms)
        quoted = ['"' + term.replace('"', '""') + '"' for term in self.terms]
        return " OR ".join(q for q, weight in zip(quoted, weights, strict=True)
                           for _ in range(weight))


def words(text: str) -> list[str]:
    """The words of `text`, lower case, in order; `c++`, `node.js`, `c#` kept whole."""
    return [w.lower() for w in _WORD.findall(text)]


# How titles write a level: "Sr. Backend Engineer" is as senior as "Senior".
LEVEL_TERMS = {"intern": ("intern", "internship"), "junior": ("junior", "jr"),
               "mid": ("mid", "intermediate"), "senior": ("senior", "sr"),
               "staff": ("staff",), "principal": ("principal",),
               "director": ("director", "head")}

# Where a prose's list items end: "Python, distributed systems, data pipelines."
_ITEM_END = re.compile(r"[,;:.!?()\[\]/\u2022|]+(?:\s|$)|\n|\s[-\u2013\u2014]\s")


def prose_terms(prose: str) -> list[str]:
    """The prose's terms: a list item of two words is a phrase ("distributed systems",
    "data pipelines": two words the profile wants side by side, not "data" alone
    anywhere); longer ones, sentences, give their meaningful words one by one."""
    out = []
    for item in _ITEM_END.split(prose):
        kept = [w for w in words(item) if w not in STOPWORDS and len(w) > 1
                and not w.isdigit()]
        if len(kept) == 2 and len(words(item)) == 2:
            out.append(" ".join(kept))
        else:
            out += kept
    return out


def query_for(profile: Profile, keywords: Iterable[str] = ()) -> Query:
    """The question for a profile: the prose's terms, the levels (as titles write
    them) and each keyword (a phrase when it has several words). A term the profile
    names more than once (in the prose and again among the keywords) weighs that
    many times: BM25's weight for a word repeated in the question."""
    counts: dict[str, int] = {}
    levels = {word for level in profile.levels for word in LEVEL_TERMS.get(level, (level,))}
    for term in prose_terms(profile.prose):
        if term not in levels:        # the levels count once, below
            counts[term] = counts.get(term, 0) + PROSE_WEIGHT
    for word in sorted(levels):
        counts[word] = 1
    for keyword in keywords:
        phrase = " ".join(words(str(keyword)))
        if phrase:
            counts[phrase] = counts.get(phrase, 0) + 1
    kept = list(counts.items())[:MAX_TERMS]
    return Query(tuple(term for term, _ in kept),
                 tuple(min(count, MAX_WEIGHT) for _, count in kept))


def keywords_from(text: str | None) -> list[str]:
    """keywords.yaml's keywords; none when it is missing or does not parse (the tailor
    task, which needs the file, says what is wrong with it)."""
    try:
        return keyword_terms(text)
    except KeywordsError:
        return []


def workspace_query(home: Path, profile: Profile) -> Query:
    """The question for the workspace at `home`: its profile and its keywords.yaml."""
    try:
        text = files.read_regular(home / KEYWORDS, follow_links=True)
    except files.FileRefused:    # a FIFO, a device, not UTF-8: `check` and the run say so
        text = None
    return query_for(profile, keywords_from(text))


@dataclass
class Refreshed:
    """What one refresh did."""

    scored: int = 0          # postings given a score for the first time (or again)
    rescored_all: bool = False
    total: int = 0           # rows re-scored by a full scoring
    refusing: int = 0        # of those read, how many refuse sponsorship


async def _scores(conn: aiosqlite.Connection, query: Query,
                  from_id: int | None = None) -> dict[int, float]:
    """BM25 score (higher is better) of every indexed posting that holds a term; only
    those with an id of at least `from_id` when given."""
    expression = query.fts()
    if expression is None:
        return {}
    sql = (f"SELECT rowid, bm25(postings_text, {TITLE_WEIGHT}, {BODY_WEIGHT}) "
           "FROM postings_text WHERE postings_text MATCH ?")
    params: list[object] = [expression]
    if from_id is not None:
        sql += " AND rowid >= ?"
        params.append(from_id)
    rows = await conn.execute_fetchall(sql, params)
    # FTS5's bm25() is negative, better being lower: turned around here.
    return {int(rowid): round(-float(value), PLACES) for rowid, value in rows}


async def _index_queued(conn: aiosqlite.Connection) -> None:
    """Index the postings the schema's triggers queued (new, or with a new title or
    description), in one statement: far cheaper than one by one as they are stored."""
    await conn.execute(
        f"INSERT INTO postings_text (rowid, title, body) SELECT p.id, p.title, "
        f"substr(p.description, 1, {INDEXED_CHARS}) FROM postings_text_todo AS t "
        "JOIN postings AS p ON p.id = t.posting_id")
    await conn.execute("DELETE FROM postings_text_todo")


async def _indexed(conn: aiosqlite.Connection) -> int:
    row = await (await conn.execute("SELECT count(*) FROM postings_text_docsize")).fetchone()
    return int(row[0])


async def _refusals(conn: aiosqlite.Connection, ids: list[int]) -> dict[int, str]:
    found: dict[int, str] = {}
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start:start + CHUNK]
        rows = await conn.execute_fetchall(
            f"SELECT id, substr(description, 1, {sponsorship.MAX_CHARS}) FROM postings "
            "WHERE id IN (SELECT value FROM json_each(?))", (json.dumps(chunk),))
        for posting_id, text in rows:
            words_found = sponsorship.refusal(text)
            if words_found:
                found[int(posting_id)] = words_found
    return found


async def refresh(conn: aiosqlite.Connection, query: Query) -> Refreshed:
    """Bring every open posting's pre-rank up to date, in one write transaction."""
    done = Refreshed()
    async with store.write(conn):
        await _index_queued(conn)
        state = await (await conn.execute(
            "SELECT query_hash, corpus FROM prerank_state WHERE id = 1")).fetchone()
        indexed = await _indexed(conn)
        if state is None or state["query_hash"] != query.hash \
                or indexed > state["corpus"] * REGROW:
            done.total = await _rescore_all(conn, query, indexed)
            done.rescored_all = True
        new = [int(row[0]) for row in await conn.execute_fetchall(
            "SELECT p.id FROM postings AS p WHERE p.job_open = 1 AND NOT EXISTS "
            "(SELECT 1 FROM preranks AS r WHERE r.posting_id = p.id) ORDER BY p.id")]
        if new:
            scores = await _scores(conn, query, from_id=new[0])
            refusals = await _refusals(conn, new)
            await conn.executemany(
                "INSERT INTO preranks (posting_id, query_hash, score, refuses_sponsorship) "
                "VALUES (?, ?, ?, ?)",
                [(pid, query.hash, scores.get(pid, 0.0), refusals.get(pid)) for pid in new])
            done.scored += len(new)
            done.refusing = len(refusals)
    return done


async def _rescore_all(conn: aiosqlite.Connection, query: Query, indexed: int) -> int:
    """A new score for every row under `query`; rows of postings no longer open go
    (their text is read again if they reopen)."""
    await conn.execute(
        "DELETE FROM preranks WHERE posting_id IN (SELECT id FROM postings WHERE job_open = 0)")
    scores = await _scores(conn, query)
    ids = [int(row[0]) for row in await conn.execute_fetchall("SELECT posting_id FROM preranks")]
    await conn.executemany(
        "UPDATE preranks SET score = ?, query_hash = ? WHERE posting_id = ?",
        [(scores.get(pid, 0.0), query.hash, pid) for pid in ids])
    await conn.execute(
        "INSERT INTO prerank_state (id, query_hash, corpus) VALUES (1, ?, ?) "
        "ON CONFLICT (id) DO UPDATE SET query_hash = excluded.query_hash, "
        "corpus = excluded.corpus", (query.hash, indexed))
    return len(ids)


__all__ = ["INDEXED_CHARS", "Query", "Refreshed", "keywords_from", "query_for", "refresh",
           "words", "workspace_query"]
