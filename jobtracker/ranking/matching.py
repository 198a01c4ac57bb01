"""What makes a posting a match, in SQL (for pending queries) and in Python (for tests).

A posting is a match when it stands for an open job (`job_open`: it leads its
group of same-job postings, and it or a member is open; see jobtracker/postings/groups.py),
its location passes `profile.locations`, its title holds no `profile.exclude`
word, no rule of `profile.filters` catches it (jobtracker/ranking/filters.py), and
its effective level — the title's, else the level task's reading — is in
`profile.levels`. A *candidate* passes every test but the level: the level task
reads only candidates, because nothing it could learn would make any other posting
a match. A *filtered* posting passes every test but a filter (an UNCERTAIN level
counts as passing until the level task reads otherwise): `filtered_where`.

The SQL fragments refer to `p` (postings) and `lr` (level_readings, LEFT JOINed on
`lr.posting_id = p.id`); use `FROM_POSTINGS` for that.
"""

from __future__ import annotations

from typing import Any

from jobtracker.clock import now_iso
from jobtracker.config import Profile
from jobtracker.ranking import filters

FROM_POSTINGS = "postings AS p LEFT JOIN level_readings AS lr ON lr.posting_id = p.id"

# Postings the user saved (`jobtracker save`) live on one board of this source. A job
# holding one is a match whatever the profile's rules say (location, level, excluded
# words, filters) and whether or not a board still lists it: the user chose it. The
# leaders of such jobs, as a subquery SQLite runs once per statement.
SAVED_SOURCE = "saved"
SAVED_LEADERS = (
    "(SELECT COALESCE(s.lead_id, s.id) FROM postings AS s WHERE s.board_id IN "
    f"(SELECT id FROM boards WHERE source = '{SAVED_SOURCE}'))")


def _like_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def candidate_where(profile: Profile, now: str | None = None) -> tuple[str, list[Any]]:
    """SQL condition (and its parameters): open, location passes, no excluded title word,
    no filter catches it (`now`, ISO 8601, dates `filters.max_age_days`; the clock's
    time when not given).

    "Open" is the job's: a group's members other than its leader never pass, and a
    leader passes while it or a member is open (a reposted job keeps its leader)."""
    where, params = _in_scope_where(profile)
    if profile.filters.active:
        passes, passes_params = filters.passes_where(profile.filters, now or now_iso())
        where, params = f"{where} AND {passes}", [*params, *passes_params]
    return where, params


def _in_scope_where(profile: Profile) -> tuple[str, list[Any]]:
    """A candidate's tests but the filters'."""
    clauses, params = ["p.job_open = 1"], []
    if profile.locations:
        options = []
        for place in profile.locations:
            # LIKE folds ASCII case itself; a lower() here would cost a call per row.
            options.append("p.location LIKE ? ESCAPE '\\'")
            params.append(f"%{_like_escape(place)}%")
            if place == "remote":
                options.append("p.remote = 1")
        clauses.append("(" + " OR ".join(options) + ")")
    for word in profile.exclude:
        # Whole words: pad the title, with punctuation turned into spaces (LIKE folds
        # case). That chain of replace() calls is dear per row, so a plain substring
        # test on the phrase's longest word goes first: a title without it cannot hold
        # the phrase, and most titles are settled there.
        longest = max(word.split(), key=len, default=word)
        clauses.append(f"(p.title NOT LIKE ? ESCAPE '\\' OR "
                       f"' ' || {_word_text('p.title')} || ' ' NOT LIKE ? ESCAPE '\\')")
        params += [f"%{_like_escape(longest)}%", f"% {_like_escape(word)} %"]
    return " AND ".join(clauses), params


# A match the judge can read: a description, and more than a job alert's snippet (such
# a card waits for a board's text: docs/alerts.md). The judge's queue and the TUI's
# not-judged list (`load_unjudged`) both ask this, so the list is what the judge will ask.
JUDGEABLE = "p.description_hash != '' AND p.description_source != 'alert'"


def match_where(profile: Profile, now: str | None = None) -> tuple[str, list[Any]]:
    """SQL condition (and its parameters) for a match: a candidate at a wanted level,
    or a job the user saved (`SAVED_LEADERS`)."""
    where, params = _rule_where(profile, now)
    return f"(({where}) OR p.id IN {SAVED_LEADERS})", params


def _rule_where(profile: Profile, now: str | None) -> tuple[str, list[Any]]:
    """A match by the profile's rules: a candidate at a wanted level."""
    where, params = _in_scope_where(profile)
    if not profile.levels:
        return where + " AND 0", params
    marks = ", ".join("?" for _ in profile.levels)
    # The title's level, else the reading's; written so the title_level test can use
    # the postings_queue index (a CASE expression would hide the column from it).
    level = (f"p.title_level IN ({marks}, 'UNCERTAIN') AND "
             f"(p.title_level != 'UNCERTAIN' OR lr.level IN ({marks}))")
    where, params = f"{where} AND {level}", [*params, *profile.levels, *profile.levels]
    if profile.filters.active:
        # Last: SQLite tests the terms in order, and the filters (a company list, a
        # salary per currency) cost most per posting.
        passes, passes_params = filters.passes_where(profile.filters, now or now_iso())
        where, params = f"{where} AND {passes}", [*params, *passes_params]
    return where, params


def filtered_where(profile: Profile, now: str) -> tuple[str, list[Any]]:
    """SQL condition for a filtered posting: in scope and at a wanted level (an
    UNCERTAIN title not yet read counts: it could be a match), and caught by a filter.
    Always false when no filter is set."""
    if not profile.filters.active or not profile.levels:
        return "0", []
    where, params = _in_scope_where(profile)
    marks = ", ".join("?" for _ in profile.levels)
    level = (f"p.title_level IN ({marks}, 'UNCERTAIN') AND (p.title_level != 'UNCERTAIN' "
             f"OR lr.level IS NULL OR lr.level = 'unclear' OR lr.level IN ({marks}))")
    caught, caught_params = filters.caught_where(profile.filters, now)
    return (f"{where} AND {level} AND {caught}",
            [*params, *profile.levels, *profile.levels, *caught_params])


_PUNCTUATION = "-/,.()[]:;!?&|+\"'"


def _word_text(column: str) -> str:
    expr = column
    for ch in _PUNCTUATION:
        quoted = ch.replace("'", "''")
        expr = f"replace({expr}, '{quoted}', ' ')"
    return expr


# SQLite's lower() and LIKE fold ASCII letters only; the Python twin does the same,
# so the two never disagree (non-ASCII letters compare case-sensitively in both).
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _ascii_lower(text: str) -> str:
    return text.translate(_ASCII_LOWER)


def _padded_words(text: str) -> str:
    """The title as the SQL sees it: ASCII-lowered, punctuation as spaces, space-padded."""
    lowered = _ascii_lower(text)
    for ch in _PUNCTUATION:
        lowered = lowered.replace(ch, " ")
    return f" {lowered} "


def is_candidate(profile: Profile, *, title: str, location: str, remote: bool | None,
                 closed: bool) -> bool:
    """The Python twin of `candidate_where`, for code that has a row in hand.

    `closed`: the job is closed (`job_open` is 0, which a non-leading member always is)."""
    if closed:
        return False
    if profile.locations:
        loc = _ascii_lower(location)
        if not any(_ascii_lower(place) in loc or (place == "remote" and remote)
                   for place in profile.locations):
            return False
    padded = _padded_words(title)
    return not any(f" {_ascii_lower(word)} " in padded for word in profile.exclude)


def effective_level(title_level: str, reading: str | None) -> str:
    return title_level if title_level != "UNCERTAIN" else (reading or "UNCERTAIN")


def is_match(profile: Profile, *, title: str, location: str, remote: bool | None, closed: bool,
             title_level: str, reading: str | None) -> bool:
    return (is_candidate(profile, title=title, location=location, remote=remote, closed=closed)
            and effective_level(title_level, reading) in profile.levels)
