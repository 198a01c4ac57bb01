"""A job title's level, read deterministically from the title alone.

`RULES` is the whole mapping: an ordered table of patterns, first match wins, so a
title naming two levels ("Senior Staff Engineer", "Associate Director") gets the
one whose row comes first — directors before individual contributors, higher
levels before lower. A title that matches no row is `UNCERTAIN`; the level task
reads its description later.

Decisions worth knowing:
- "Lead" (Tech Lead, Lead Engineer) maps to senior: most companies use it for a
  senior engineer leading a team or project, and few ladders put it at staff.
  "Staff"/"Principal" in the same title win because their rows come first.
- Numbered ladders: "Engineer I/II/III/IV/V" (or 1–5) read as junior, mid, senior,
  staff, principal; "L3–L8"/"E3–E8"/"IC3–IC6" follow the common big-tech reading
  (L3 junior, L4 mid, L5 senior, L6–L7 staff, L8 principal).
- Managers, executives and "Head of" map to director only when the title says
  director, VP, chief or "head of"; "Engineering Manager" alone stays UNCERTAIN.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from jobtracker.config import LEVELS

UNCERTAIN = "UNCERTAIN"

# Roles a ladder number follows: "Software Engineer II", "SDE 2", "Data Scientist III".
_ROLE = (r"(?:engineer|developer|programmer|scientist|analyst|architect|designer|sde|swe"
         r"|researcher|specialist|administrator|consultant|technician|tester)")


def _ladder(roman: str, digit: str) -> str:
    """A role word then a rung: "Engineer II" (numerals in capitals only) or "SDE 2".

    Not "Engineer 2+ years" or "Engineer 3D": a digit followed by + or d is no rung.
    """
    return rf"\b{_ROLE}(?:\s+(?-i:{roman})|\s*{digit})\b(?!\s*[+d])"


@dataclass(frozen=True)
class Rule:
    name: str         # a stable id for tests and docs
    pattern: str      # matched case-insensitively unless `case_sensitive`
    level: str
    case_sensitive: bool = False

    def compiled(self) -> re.Pattern[str]:
        return re.compile(self.pattern, 0 if self.case_sensitive else re.IGNORECASE)


RULES: tuple[Rule, ...] = (
    # Executives and directors, before any word they may carry ("Senior Director").
    Rule("director", r"\bdirector\b", "director"),
    Rule("vp", r"\b(?:vp|svp|evp|avp|vice[\s-]+president)\b", "director"),
    Rule("head-of", r"\bhead\s+of\b", "director"),
    Rule("chief", r"\bchief\b|\bc[tei]o\b", "director"),
    # Top individual contributors.
    Rule("distinguished", r"\b(?:distinguished|fellow)\b", "principal"),
    Rule("principal", r"\bprincipal\b", "principal"),
    Rule("staff", r"\bstaff\b", "staff"),
    # Numbered ladders, before the words: "Senior Engineer II" is rare, "SDE II" common.
    Rule("ladder-v", _ladder("V", "5"), "principal"),
    Rule("ladder-iv", _ladder("IV", "4"), "staff"),
    Rule("ladder-iii", _ladder("III", "3"), "senior"),
    Rule("ladder-ii", _ladder("II", "2"), "mid"),
    Rule("ladder-i", _ladder("I", "1"), "junior"),
    Rule("l8", r"\b(?:L|E|IC)(?:8|9|10)\b", "principal", case_sensitive=True),
    Rule("l6-l7", r"\b(?:L|E|IC)[67]\b", "staff", case_sensitive=True),
    Rule("l5", r"\b(?:L|E|IC)5\b", "senior", case_sensitive=True),
    Rule("l4", r"\b(?:L|E|IC)4\b", "mid", case_sensitive=True),
    Rule("l3", r"\b(?:L|E|IC)[1-3]\b", "junior", case_sensitive=True),
    # Words.
    Rule("senior", r"\b(?:senior|snr|sr)\b\.?", "senior"),
    Rule("lead", r"\blead\b", "senior"),
    Rule("intern", r"\b(?:intern|interns|internship|co-?op|working\s+student|werkstudent)\b",
         "intern"),
    Rule("junior", r"\b(?:junior|jr|entry[\s-]+level|graduate|new\s+grad|trainee"
                   r"|apprentice|associate)\b", "junior"),
    Rule("mid", r"\b(?:mid[\s-]*level|intermediate)\b", "mid"),
)

_COMPILED = tuple((rule, rule.compiled()) for rule in RULES)
assert all(rule.level in LEVELS for rule in RULES), "a rule names a level outside LEVELS"


def rule_for(title: str) -> Rule | None:
    """The first rule whose pattern occurs in `title`, or None."""
    for rule, pattern in _COMPILED:
        if pattern.search(title):
            return rule
    return None


def title_level(title: str) -> str:
    """The level vocabulary word for `title`, or 'UNCERTAIN'."""
    rule = rule_for(title)
    return rule.level if rule else UNCERTAIN
