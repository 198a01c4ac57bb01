"""profile.yaml's `filters:` (docs/ranking.md): postings never judged, never matched."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jobtracker.yamlfile import Document, checks

# Currencies a salary floor may name, with roughly how many US dollars one unit is worth
# (late 2026). Used only to compare a posting's salary with a floor given in another
# currency; a floor for the posting's own currency, when given, is used as it is.
USD_PER_UNIT: dict[str, float] = {
    "USD": 1.0, "EUR": 1.08, "GBP": 1.27, "CHF": 1.13, "CAD": 0.72, "AUD": 0.65,
    "NZD": 0.59, "JPY": 0.0066, "CNY": 0.14, "HKD": 0.128, "SGD": 0.74, "INR": 0.012,
    "SEK": 0.095, "NOK": 0.092, "DKK": 0.145, "PLN": 0.25, "CZK": 0.043, "HUF": 0.0027,
    "RON": 0.217, "BGN": 0.55, "ILS": 0.27, "AED": 0.272, "ZAR": 0.055, "BRL": 0.18,
    "MXN": 0.055, "ARS": 0.001, "CLP": 0.0011, "COP": 0.00025, "KRW": 0.00072,
    "TWD": 0.031, "THB": 0.028, "MYR": 0.22, "IDR": 0.000063, "PHP": 0.017, "TRY": 0.029,
    "UAH": 0.024, "EGP": 0.02, "NGN": 0.00065, "KES": 0.0077, "PKR": 0.0036,
    "VND": 0.00004, "ISK": 0.0072,
}
REMOTE_CHOICES = ("required", "any")
SPONSORSHIP_CHOICES = ("required", "any")
OWN_BOARD_CHOICES = ("required", "any")
MAX_COMPANY_CHARS = 200


@dataclass(frozen=True)
class CompanyRule:
    """`filters.companies` entry: a company never judged, and why (shown beside it)."""

    name: str
    reason: str = ""


@dataclass(frozen=True)
class SalaryFloor:
    """`filters.salary_min` entry: a stated salary whose top is below it is filtered."""

    amount: float
    currency: str


@dataclass(frozen=True)
class Filters:
    """profile.yaml's `filters` (docs/ranking.md): postings never judged, never matched.

    Nothing here is stored anywhere: the queue and the lists read them as they read the
    rest of the profile, so editing them changes what is listed and asks nothing."""

    companies: tuple[CompanyRule, ...] = ()
    salary_min: tuple[SalaryFloor, ...] = ()    # one per currency; the first converts others
    remote: str = "any"                          # required | any
    sponsorship: str = "any"                     # required | any
    max_age_days: int | None = None
    max_reposts: int | None = None               # `signals.max_reposts` (ranking/signals.py)
    own_board: str = "any"                       # `signals.own_board`: required | any

    @property
    def active(self) -> bool:
        return bool(self.companies or self.salary_min or self.remote == "required"
                    or self.sponsorship == "required" or self.max_age_days is not None
                    or self.max_reposts is not None or self.own_board == "required")


def _salary_floor(doc: Document, value: Any, *at: Any) -> SalaryFloor:
    raw = checks.mapping(doc, value, *at, allowed=("amount", "currency"))
    if "amount" not in raw or "currency" not in raw:
        raise doc.error("needs both amount and currency, e.g. {amount: 120000, "
                        "currency: USD}", *at)
    amount = raw["amount"]
    if isinstance(amount, int | float) and not isinstance(amount, bool) and amount < 0:
        raise doc.error("must not be negative", *at, "amount")
    amount = checks.number(doc, amount, *at, "amount", maximum=1e12)
    code = checks.string(doc, raw["currency"], *at, "currency").strip().upper()
    if code not in USD_PER_UNIT:
        raise doc.error(f"unknown currency {code!r} (an ISO 4217 code, one of: "
                        f"{', '.join(sorted(USD_PER_UNIT))})", *at, "currency")
    return SalaryFloor(amount, code)


def load(doc: Document, value: Any) -> Filters:
    raw = checks.mapping(doc, value, "filters", allowed=(
        "companies", "salary_min", "remote", "sponsorship", "max_age_days", "signals"))
    signal_rules = checks.mapping(doc, raw.get("signals"), "filters", "signals",
                                  allowed=("max_reposts", "own_board"))
    reposts = signal_rules.get("max_reposts")
    companies = []
    listed = raw.get("companies")
    if listed is not None and not isinstance(listed, list):
        raise doc.error("must be a list of {name: ..., reason: ...}", "filters", "companies")
    for index, item in enumerate(listed or []):
        at = ("filters", "companies", index)
        if isinstance(item, str):     # a bare name is a rule with no reason
            item = {"name": item}
        entry = checks.mapping(doc, item, *at, allowed=("name", "reason"))
        name = " ".join(checks.string(doc, entry.get("name"), *at, "name").split())
        if len(name) > MAX_COMPANY_CHARS:
            raise doc.error(f"longer than {MAX_COMPANY_CHARS} characters", *at, "name")
        reason = entry.get("reason")
        if reason is not None and not isinstance(reason, str | int | float):
            raise doc.error("must be text", *at, "reason")
        companies.append(CompanyRule(name, " ".join(str(reason or "").split())))
    floors: list[SalaryFloor] = []
    salary = raw.get("salary_min")
    if isinstance(salary, list):
        for index, item in enumerate(salary):
            floor = _salary_floor(doc, item, "filters", "salary_min", index)
            if any(f.currency == floor.currency for f in floors):
                raise doc.error(f"a second floor in {floor.currency}", "filters",
                                "salary_min", index, "currency")
            floors.append(floor)
    elif salary is not None:
        floors.append(_salary_floor(doc, salary, "filters", "salary_min"))
    age = raw.get("max_age_days")
    return Filters(
        companies=tuple(companies), salary_min=tuple(floors),
        remote=checks.choice(doc, raw.get("remote"), REMOTE_CHOICES, "filters", "remote"),
        sponsorship=checks.choice(doc, raw.get("sponsorship"), SPONSORSHIP_CHOICES, "filters",
                            "sponsorship"),
        max_age_days=None if age is None else checks.integer(doc, age, "filters", "max_age_days",
                                                   maximum=36_500),
        max_reposts=None if reposts is None else checks.integer(
            doc, reposts, "filters", "signals", "max_reposts", minimum=0, maximum=1_000),
        own_board=checks.choice(doc, signal_rules.get("own_board"), OWN_BOARD_CHOICES,
                                "filters", "signals", "own_board"))
