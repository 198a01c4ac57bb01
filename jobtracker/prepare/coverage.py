"""Keyword coverage: what a posting asks for that the packet's resume says, and what not.

Diagnostic only: nothing here is ever added to a resume (tailoring's grounding rules
stand: docs/tailor.md). The posting's terms are

- every keywords.yaml term the posting names (skills the user says they have), and
- the posting's strongest terms by the pre-rank's own measure: words of its title and
  the start of its description (what the pre-rank indexes) weighed by how often the
  posting uses them and how rare they are among all postings (BM25's weight, with
  document counts read from the pre-rank's FTS5 index).

Words are compared as the pre-rank compares them: through SQLite's `porter unicode61`
tokenizer, so "pipelines" in the posting meets "pipeline" in the resume. The tokenizer
is asked through a temporary FTS5 table of the connection, never a second stemmer.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jobtracker import files
from jobtracker.resume import KEYWORDS
from jobtracker.resume.keywords import KeywordsError, keyword_terms
from jobtracker.text import one_line

if TYPE_CHECKING:
    import aiosqlite

INDEXED_CHARS = 1500        # as the pre-rank: the title and the description's start
STRONGEST = 12              # posting terms weighed in, beside keywords.yaml's
SHARED_FROM = 20            # indexed postings from which a term must be shared to count
COMMON_SHARE = 0.5          # ...and used by at most this share of them
MAX_WORDS = 4000            # distinct words stemmed per call (a resume, a posting)
FILE = "coverage.md"

_WORD = re.compile(r"[^\W_]+(?:[+#]+|(?:[.'][^\W_]+)+)?", re.UNICODE)
# Words every posting uses that say nothing about a skill.
_PLAIN = frozenset("""
a about above across after all also an and any are as at be because been being both but
by can could do does each either etc for from had has have he her here his how i if in
into is it its just may me more most much must my new no nor not of on one only or other
our out over per please plus she should so some such than that the their them then there
these they this those through to too under up us very via was we well were what when
where which while who whom why will with within without would you your yours
ability able apply applicant applicants benefit benefits candidate candidates career
company day days description environment equal experience experienced full help hire
hiring job jobs join key knowledge looking member members opportunity opportunities
part people plus position preferred previous professional required requirement
requirements responsibilities responsibility role roles salary skill skills strong team
teams time today work working world year years yes
senior junior staff principal lead engineer engineers engineering build building built
use using used like make making including across etc
""".split())  # noqa: SIM905 (a word list reads better as prose than as 190 quoted items)


@dataclass(frozen=True)
class Coverage:
    """The posting's terms, split by whether the packet's resume says them."""

    resume: str                       # the packet file compared: resume.md
    present: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    listed: tuple[str, ...] = ()      # missing ones keywords.yaml says the user has

    @property
    def asked(self) -> int:
        return len(self.present) + len(self.missing)

    def to_json(self) -> dict[str, Any]:
        return {"resume": self.resume, "present": list(self.present),
                "missing": list(self.missing), "in_keywords": list(self.listed)}

    def line(self) -> str:
        """One line for answers.md."""
        if not self.asked:
            return f"Keyword coverage: no terms read from the posting ({FILE})"
        missing = f"; not in it: {', '.join(self.missing)}" if self.missing else ""
        return (f"Keyword coverage: {len(self.present)} of {self.asked} of the posting's "
                f"terms are in {self.resume}{missing} ({FILE}; diagnostic only)")

    def markdown(self, label: str) -> str:
        lines = [f"# Keyword coverage: {label}", "",
                 f"The posting's terms (keywords.yaml's that it names, and its strongest "
                 f"words) against {self.resume}. Diagnostic only: nothing is ever added to "
                 "a resume from this; a tailored edit may name only what your resume or "
                 "keywords.yaml already says.", "",
                 f"## In the posting and in {self.resume} ({len(self.present)})", ""]
        lines += [f"- `{term}`" for term in self.present] or ["- (none)"]
        lines += ["", f"## In the posting, not in {self.resume} ({len(self.missing)})", ""]
        for term in self.missing:
            note = " (keywords.yaml lists it: tailoring may add it)" \
                if term in self.listed else ""
            lines.append(f"- `{term}`{note}")
        if not self.missing:
            lines.append("- (none)")
        return "\n".join(lines) + "\n"


def words(text: str, limit: int = 0) -> list[str]:
    """The text's words, lower case, in order (`c++`, `node.js` kept whole)."""
    found = [w.lower() for w in _WORD.findall(text[:limit] if limit else text)]
    return [w.strip(".'") for w in found if w.strip(".'")]


class Stemmer:
    """The pre-rank's tokenizer asked through a temporary FTS5 table of `conn`: word ->
    its terms (a word like `node.js` is two), cached for the connection's use."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        self.cache: dict[str, tuple[str, ...]] = {}
        self._ready = False

    async def _setup(self) -> None:
        await self.conn.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.coverage_words USING fts5(word, "
            "tokenize = 'porter unicode61 remove_diacritics 2')")
        await self.conn.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.coverage_terms USING "
            "fts5vocab(temp, coverage_words, instance)")
        self._ready = True

    async def stems(self, found: Iterable[str]) -> dict[str, tuple[str, ...]]:
        wanted = [w for w in dict.fromkeys(found) if w not in self.cache][:MAX_WORDS]
        if wanted:
            if not self._ready:
                await self._setup()
            await self.conn.execute("DELETE FROM temp.coverage_words")
            await self.conn.executemany(
                "INSERT INTO temp.coverage_words (rowid, word) VALUES (?, ?)",
                list(enumerate(wanted, start=1)))
            terms: dict[int, list[str]] = {}
            for term, doc in await self.conn.execute_fetchall(
                    "SELECT term, doc FROM temp.coverage_terms ORDER BY doc, \"offset\""):
                terms.setdefault(int(doc), []).append(term)
            for index, word in enumerate(wanted, start=1):
                self.cache[word] = tuple(terms.get(index, ()))
            await self.conn.execute("DELETE FROM temp.coverage_words")
        return {w: self.cache.get(w, ()) for w in found}


async def _document_counts(conn: aiosqlite.Connection,
                           terms: Sequence[str]) -> tuple[dict[str, int], int]:
    """How many indexed postings hold each term, and how many there are."""
    await conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.coverage_index USING "
                       "fts5vocab(main, postings_text, row)")
    counts: dict[str, int] = {}
    for start in range(0, len(terms), 500):
        chunk = terms[start:start + 500]
        rows = await conn.execute_fetchall(
            f"SELECT term, doc FROM temp.coverage_index WHERE term IN "
            f"({', '.join('?' for _ in chunk)})", chunk)
        counts.update({term: int(doc) for term, doc in rows})
    row = await (await conn.execute("SELECT COUNT(*) FROM postings")).fetchone()
    return counts, max(int(row[0]) if row is not None else 0, 1)


async def strongest(conn: aiosqlite.Connection, stemmer: Stemmer, title: str,
                    description: str, company: str, top: int = STRONGEST) -> list[str]:
    """The posting's strongest words (as it writes them), by BM25's weight."""
    found = words(f"{title}\n{description}", INDEXED_CHARS + len(title) + 1)
    ignored = set(words(company)) | _PLAIN
    found = [w for w in found if w not in ignored and len(w) > 1 and not w.isdigit()]
    stems = await stemmer.stems(found)
    frequency: Counter[str] = Counter()
    surface: dict[str, Counter[str]] = {}
    for word in found:
        for term in stems[word]:
            frequency[term] += 1
            surface.setdefault(term, Counter())[word] += 1
    counts, total = await _document_counts(conn, list(frequency))
    if total >= SHARED_FROM:
        # Among enough postings, a word only this one uses is its own subject (a
        # product, a market), and one most use is the language of job ads: the words
        # postings share now and then are what they ask for (tools, skills, fields).
        frequency = Counter({term: tf for term, tf in frequency.items()
                             if 2 <= counts.get(term, 0) <= total * COMMON_SHARE})
    weight = {term: tf * math.log((total - counts.get(term, 0) + 0.5)
                                  / (counts.get(term, 0) + 0.5) + 1)
              for term, tf in frequency.items()}
    best = sorted(weight, key=lambda term: (-weight[term], term))[:top]
    return [surface[term].most_common(1)[0][0] for term in best]


def keywords_of(home: Path) -> list[str]:
    """keywords.yaml's terms; none when it is missing, not a file or does not parse
    (`jobtracker check` says why: coverage is a diagnostic and never stops a packet)."""
    try:
        return keyword_terms(files.read_regular(home / KEYWORDS))
    except (files.FileRefused, KeywordsError):
        return []


async def coverage(conn: aiosqlite.Connection, *, title: str, description: str,
                   company: str, resume: str, keywords: Sequence[str],
                   resume_name: str = "resume.md", stemmer: Stemmer | None = None
                   ) -> Coverage:
    """The posting's terms against `resume`'s text (see the module's docstring)."""
    stemmer = stemmer or Stemmer(conn)
    posting_words = words(f"{title}\n{description}")
    resume_words = words(resume)
    keyword_words = {k: words(k) for k in keywords if words(k)}
    every = [*posting_words, *resume_words, *(w for ws in keyword_words.values() for w in ws)]
    stems = await stemmer.stems(every)

    def terms_of(found: Iterable[str]) -> set[str]:
        return {term for word in found for term in stems.get(word, ())}

    in_posting, in_resume = terms_of(posting_words), terms_of(resume_words)
    asked: dict[str, set[str]] = {}          # shown term -> its stems
    listed: set[str] = set()
    for keyword, parts in keyword_words.items():
        needed = terms_of(parts)
        if needed and needed <= in_posting:
            name = one_line(keyword, 60)
            asked[name] = needed
            listed.add(name)
    # A strong word already inside a keyword ("systems" of "distributed systems") is
    # asked once, as the keyword.
    known: set[str] = set().union(*asked.values()) if asked else set()
    for word in await strongest(conn, stemmer, title, description, company):
        needed = terms_of([word])
        if needed and not needed <= known:
            asked[word] = needed
            known |= needed
    present = tuple(t for t, needed in asked.items() if needed <= in_resume)
    missing = tuple(t for t, needed in asked.items() if not needed <= in_resume)
    return Coverage(resume_name, present, missing, tuple(t for t in missing if t in listed))
