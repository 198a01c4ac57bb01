"""profile.yaml's `filters`: the postings kept from the model, in SQL and in Python.

A filter is a rule over what the board said about a posting (its company, salary,
remote flag and location, when it was first seen) or what its text says (that it
will not sponsor a visa, read once per text by `jobtracker.ranking.prerank`). A
posting a rule catches is *filtered*: the level and judge tasks never ask about it,
it is not in `matches`, not tailored and not prepared. Nothing is stored: every
query that lists work or matches adds `passes_where()`, so editing `filters`
changes what is listed at once and asks the model nothing, and a posting back in
scope keeps the verdict it had.

Each rule is one SQL predicate over `p` (postings) that is 1 when the posting
passes and 0 when the rule catches it, never NULL, so the same text counts a rule's
catches (`counts`) and keeps them out (`passes_where`). `caught_by()` is its Python
twin, which also says why, for `jobtracker matches --filtered`.

Salaries: the top of the stated range (the maximum, else the minimum) against the
floor in the posting's own currency, when the profile gives one, else the first
floor converted with `config.USD_PER_UNIT`. A top below what 1,000 US dollars are
worth in its currency is taken as an hourly rate (x 2,080 hours: 40 a week, 52
weeks), since no yearly salary is that low. No salary, or a currency not in the
table, passes: the rule is a floor under what is stated, never a guess.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import timedelta
from functools import lru_cache
from typing import Any

from jobtracker.config import USD_PER_UNIT, CompanyRule, Filters, SalaryFloor
from jobtracker.ranking.scoring import parse_time
from jobtracker.ranking.signals import OWN_BOARD_SQL, REPOSTS_SQL

HOURS_PER_YEAR = 2080
HOURLY_BELOW_USD = 1000.0
RULES = ("company", "salary", "remote", "sponsorship", "age", "reposts", "own_board")

# The top of a stated range, as the salary rule reads it (NULL: no salary stated).
_TOP = ("(CASE WHEN p.salary_max > 0 THEN p.salary_max "
        "WHEN p.salary_min > 0 THEN p.salary_min END)")


@dataclass(frozen=True)
class Caught:
    """One rule that catches a posting, and why, for people."""

    rule: str
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"rule": self.rule, "reason": self.reason}


# --- the rules' SQL ------------------------------------------------------------------

# SQLite's lower() folds ASCII letters only: the list is folded the same way.
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _ascii_lower(text: str) -> str:
    return text.translate(_ASCII_LOWER)


def company_key(name: str) -> str:
    """How a company name is compared, as SQL's `lower(trim(...))` does: spaces at the
    ends dropped, ASCII letters folded (profile.yaml's names have their spaces
    collapsed when read)."""
    return _ascii_lower(name.strip(" "))


def floor_in(floors: tuple[SalaryFloor, ...], currency: str) -> float | None:
    """The floor a salary in `currency` is held to (None: no comparable floor)."""
    for floor in floors:
        if floor.currency == currency:
            return floor.amount
    if not floors or currency not in USD_PER_UNIT:
        return None
    first = floors[0]
    return first.amount * USD_PER_UNIT[first.currency] / USD_PER_UNIT[currency]


def hourly_below(currency: str) -> float:
    """A top under this, in `currency`, is an hourly rate."""
    return HOURLY_BELOW_USD / USD_PER_UNIT[currency]


def annual(top: float, currency: str) -> float:
    return top * HOURS_PER_YEAR if top < hourly_below(currency) else top


@lru_cache(maxsize=16)
def cutoff(max_age_days: int, now: str) -> str:
    """The oldest `first_seen` that passes, in the stored form (ISO 8601 UTC, `Z`)."""
    moment = parse_time(now)
    if moment is None:
        raise ValueError(f"not an ISO 8601 time: {now!r}")
    oldest = moment - timedelta(days=max_age_days)
    return oldest.replace(microsecond=0).isoformat().replace("+00:00", "Z")


def rule_sql(filters: Filters, now: str) -> dict[str, tuple[str, list[Any]]]:
    """Each active rule's predicate over `p`: 1 passes, 0 caught (never NULL)."""
    rules: dict[str, tuple[str, list[Any]]] = {}
    if filters.companies:
        names = sorted({company_key(rule.name) for rule in filters.companies})
        # One JSON parameter however long the list: SQLite builds the IN set once per
        # statement, and a 10,000-name list needs no 10,000 placeholders.
        rules["company"] = ("(lower(trim(p.company)) NOT IN (SELECT value FROM json_each(?)))",
                            [json.dumps(names)])
    if filters.salary_min:
        cases, params = [], []
        for code in sorted(USD_PER_UNIT):
            floor = floor_in(filters.salary_min, code)
            if floor is None:
                continue
            cases.append(f"WHEN '{code}' THEN (CASE WHEN {_TOP} < ? THEN {_TOP} * "
                         f"{HOURS_PER_YEAR} ELSE {_TOP} END) >= ?")
            params += [hourly_below(code), floor]
        rules["salary"] = (f"COALESCE(CASE upper(trim(p.salary_currency)) {' '.join(cases)} "
                           "END, 1)", params)
    if filters.remote == "required":
        # The scoring's reading of remote (scoring.remote_part): the board's flag, else
        # the location's word.
        rules["remote"] = ("(p.remote IS 1 OR (p.remote IS NULL AND "
                           "p.location LIKE '%remote%'))", [])
    if filters.sponsorship == "required":
        rules["sponsorship"] = ("(p.id NOT IN (SELECT posting_id FROM preranks "
                                "WHERE refuses_sponsorship IS NOT NULL))", [])
    if filters.max_age_days is not None:
        rules["age"] = ("(p.first_seen >= ?)", [cutoff(filters.max_age_days, now)])
    if filters.max_reposts is not None:
        rules["reposts"] = (f"({REPOSTS_SQL} <= ?)", [filters.max_reposts])
    if filters.own_board == "required":
        rules["own_board"] = (f"({OWN_BOARD_SQL})", [])
    return rules


def passes_where(filters: Filters, now: str) -> tuple[str, list[Any]]:
    """SQL true for a posting no rule catches ('1' when no filter is set)."""
    rules = rule_sql(filters, now)
    if not rules:
        return "1", []
    params: list[Any] = []
    for _, rule_params in rules.values():
        params += rule_params
    return "(" + " AND ".join(sql for sql, _ in rules.values()) + ")", params


def caught_where(filters: Filters, now: str) -> tuple[str, list[Any]]:
    """SQL true for a posting some rule catches ('0' when no filter is set)."""
    where, params = passes_where(filters, now)
    return f"NOT {where}", params


def counts_select(filters: Filters, now: str) -> tuple[str, list[Any]]:
    """Select items counting, per active rule, the rows it catches: `SUM(...) AS rule`."""
    rules = rule_sql(filters, now)
    params: list[Any] = []
    items = []
    for name, (sql, rule_params) in rules.items():
        items.append(f"SUM(1 - {sql}) AS {name}")
        params += rule_params
    return ", ".join(items), params


# --- the Python twin -----------------------------------------------------------------

def caught_by(filters: Filters, row: Any, now: str) -> list[Caught]:
    """Every rule that catches the posting in `row` (company, salary_min, salary_max,
    salary_currency, remote, location, first_seen, refusal, reposts, own_board), each
    with its reason.
    For many rows, make one `Catcher` and ask it for each."""
    return Catcher(filters, now).caught(row)


class Catcher:
    """The Python twin of `passes_where` for many rows under one profile: the company
    names are looked up in a table made once (a list of thousands, and thousands of
    postings listed), the age's cutoff computed once."""

    def __init__(self, filters: Filters, now: str) -> None:
        self.filters = filters
        self.companies: dict[str, CompanyRule] = {}
        for rule in filters.companies:      # the first of two that compare the same wins
            self.companies.setdefault(company_key(rule.name), rule)
        self.oldest = (cutoff(filters.max_age_days, now)
                       if filters.max_age_days is not None else None)

    def caught(self, row: Any) -> list[Caught]:
        filters, out = self.filters, []
        rule = self.companies.get(company_key(row["company"] or "")) if self.companies else None
        if rule is not None:
            out.append(Caught("company", f"{rule.name}: {rule.reason}" if rule.reason
                              else rule.name))
        if filters.salary_min:
            found = _salary_reason(filters.salary_min, row)
            if found:
                out.append(Caught("salary", found))
        if filters.remote == "required":
            remote, location = row["remote"], row["location"] or ""
            if not (remote == 1 or (remote is None and "remote" in _ascii_lower(location))):
                out.append(Caught("remote", "not remote" if remote == 0
                                  else "remote not stated"))
        if filters.sponsorship == "required" and row["refusal"]:
            out.append(Caught("sponsorship", f"says: {row['refusal']}"))
        if self.oldest is not None and row["first_seen"] < self.oldest:
            out.append(Caught("age", f"first seen {str(row['first_seen'])[:10]}, more than "
                              f"{filters.max_age_days} day(s) ago"))
        if filters.max_reposts is not None and row["reposts"] > filters.max_reposts:
            out.append(Caught("reposts", f"reposted {row['reposts']} time(s), more than "
                              f"{filters.max_reposts}"))
        if filters.own_board == "required" and not row["own_board"]:
            out.append(Caught("own_board", "only on aggregators and in job alerts"))
        return out


def _salary_reason(floors: tuple[SalaryFloor, ...], row: Any) -> str | None:
    high, low = row["salary_max"], row["salary_min"]
    top = high if high and high > 0 else (low if low and low > 0 else None)
    code = (row["salary_currency"] or "").strip().upper()
    if top is None:
        return None
    floor = floor_in(floors, code)
    if floor is None:
        return None
    yearly = annual(top, code)
    if yearly >= floor:
        return None
    hourly = " an hour" if yearly != top else ""
    return f"top of range {code} {top:,.0f}{hourly}, below {code} {floor:,.0f} a year"


__all__ = ["RULES", "Catcher", "Caught", "caught_by", "caught_where", "company_key",
           "counts_select", "cutoff", "floor_in", "passes_where", "rule_sql"]
