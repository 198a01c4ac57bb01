"""What the user's decisions say about their profile: suggested edits, each with evidence.

Pure: it reads decisions already loaded (dismissals, applications and what became
of them) and the current profile, and returns suggestions; `learn` stores them as
proposals. A suggestion is made only on at least MIN_DECISIONS decisions, all named
in it, and only where the decisions agree strongly (SHARE of them). The rules:

- **exclude word**: dismissals for `role`, `stack` or `level` that share a title
  word (7 of 9 `level` dismissals had "principal" in the title) → add the word to
  `exclude`, unless the user applied to a posting with that word in its title.
  When the word is a level the profile asks for, the suggestion is to remove that
  level instead.
- **company filter**: dismissals of one company's postings, SHARE of them for one
  reason → a `filters.companies` entry with that reason.
- **weight**: dismissals for `location` or `salary` making up SHARE of them all →
  that part's weight up by WEIGHT_STEP (a higher weight ranks postings that have
  it above those that do not).
- **level added**: applications to postings at a level the profile leaves out →
  add the level.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from jobtracker.config import LEVELS, Profile
from jobtracker.yamlfile.edit import Edit

MIN_DECISIONS = 5
SHARE = 0.6          # the part of the relevant decisions that must agree
WEIGHT_STEP = 0.1
WEIGHT_MAX = 2.0
_WORD = re.compile(r"[^\W\d_][\w+#.-]*[\w+#]|[^\W\d_]", re.UNICODE)
# Words too common in titles to say anything about a role.
_STOP = frozenset((
    "a", "an", "and", "the", "of", "for", "in", "at", "to", "with", "on", "engineer",
    "engineering", "developer", "software", "lead", "manager", "team", "remote", "hybrid",
))
_WORD_REASONS = ("role", "stack", "level")
_WEIGHT_REASONS = {"location": "location", "salary": "salary"}


@dataclass(frozen=True)
class Dismissal:
    id: int
    posting_id: int
    reason: str
    company: str
    title: str


@dataclass(frozen=True)
class Applied:
    """An application the user made (any status past `saved`), with its posting's facts."""

    id: int
    posting_id: int | None
    company: str
    title: str
    level: str | None        # the posting's title level, None when it names none


@dataclass(frozen=True)
class Suggestion:
    rule: str            # exclude_word, remove_level, company, weight, add_level
    edit: Edit
    evidence: str                              # one sentence for people
    decisions: list[dict[str, Any]] = field(default_factory=list)   # {type, id, posting_id}

    @property
    def summary(self) -> str:
        return f"profile.yaml: {describe(self.edit)} — {self.evidence}"


def describe(edit: Edit) -> str:
    where = ".".join(edit.path)
    value = edit.value.get("name") if isinstance(edit.value, dict) else edit.value
    if edit.op == "append":
        return f"add {value!r} to {where}"
    if edit.op == "remove":
        return f"remove {value!r} from {where}"
    return f"set {where} to {value}"


def title_words(title: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(title or "")} - _STOP


def suggestions(profile: Profile, dismissals: Sequence[Dismissal], applied: Sequence[Applied],
                filtered_companies: Iterable[str] = ()) -> list[Suggestion]:
    """Every suggestion the decisions support, strongest evidence first."""
    found = [*_words(profile, dismissals, applied),
             *_companies(dismissals, {c.casefold() for c in filtered_companies}),
             *_weights(profile, dismissals), *_levels(profile, applied)]
    return sorted(found, key=lambda s: (-len(s.decisions), s.rule, describe(s.edit)))


def _refs(dismissals: Iterable[Dismissal]) -> list[dict[str, Any]]:
    return [{"type": "dismissal", "id": d.id, "posting_id": d.posting_id} for d in dismissals]


def _words(profile: Profile, dismissals: Sequence[Dismissal],
           applied: Sequence[Applied]) -> list[Suggestion]:
    excluded = {w.lower() for w in profile.exclude}
    applied_words = set().union(*(title_words(a.title) for a in applied)) if applied else set()
    out = []
    for reason in _WORD_REASONS:
        group = [d for d in dismissals if d.reason == reason]
        if len(group) < MIN_DECISIONS:
            continue
        by_word: dict[str, list[Dismissal]] = defaultdict(list)
        for item in group:
            for word in title_words(item.title):
                by_word[word].append(item)
        for word, items in sorted(by_word.items()):
            if len(items) < MIN_DECISIONS or len(items) < SHARE * len(group):
                continue
            if word in excluded or word in applied_words:
                continue
            evidence = (f"{len(items)} of {len(group)} dismissals for `{reason}` had "
                        f"{word!r} in the title")
            if word in profile.levels:
                if len(profile.levels) > 1:
                    out.append(Suggestion("remove_level", Edit("remove", ("levels",), word),
                                          evidence, _refs(items)))
                continue
            out.append(Suggestion("exclude_word", Edit("append", ("exclude",), word),
                                  evidence, _refs(items)))
    return out


def _companies(dismissals: Sequence[Dismissal], filtered: set[str]) -> list[Suggestion]:
    by_company: dict[str, list[Dismissal]] = defaultdict(list)
    for item in dismissals:
        if item.company.strip():
            by_company[item.company.strip().casefold()].append(item)
    out = []
    for key, items in sorted(by_company.items()):
        if len(items) < MIN_DECISIONS or key in filtered:
            continue
        reason, count = Counter(d.reason for d in items).most_common(1)[0]
        if count < MIN_DECISIONS or count < SHARE * len(items):
            continue        # dismissed for all sorts of reasons: nothing about the company
        name = items[0].company.strip()
        evidence = f"you dismissed {len(items)} of {name}'s postings, {count} for `{reason}`"
        out.append(Suggestion("company", Edit("append", ("filters", "companies"),
                                              {"name": name, "reason": reason}),
                              evidence, _refs(d for d in items if d.reason == reason)))
    return out


def _weights(profile: Profile, dismissals: Sequence[Dismissal]) -> list[Suggestion]:
    out = []
    for reason, part in _WEIGHT_REASONS.items():
        items = [d for d in dismissals if d.reason == reason]
        if len(items) < MIN_DECISIONS or len(items) < SHARE * len(dismissals):
            continue
        current = float(profile.weights.get(part, 0.0))
        if current >= WEIGHT_MAX:
            continue
        new = round(min(current + WEIGHT_STEP, WEIGHT_MAX), 4)
        evidence = (f"{len(items)} of {len(dismissals)} dismissals were for `{reason}` "
                    f"(weight {current:g} → {new:g})")
        out.append(Suggestion("weight", Edit("set", ("weights", part), new), evidence,
                              _refs(items)))
    return out


def _levels(profile: Profile, applied: Sequence[Applied]) -> list[Suggestion]:
    by_level: dict[str, list[Applied]] = defaultdict(list)
    for item in applied:
        if item.level in LEVELS and item.level not in profile.levels:
            by_level[item.level].append(item)
    out = []
    for level, items in sorted(by_level.items()):
        if len(items) < MIN_DECISIONS:
            continue
        evidence = f"you applied to {len(items)} postings at level {level}, which levels leaves out"
        refs = [{"type": "application", "id": a.id, "posting_id": a.posting_id} for a in items]
        out.append(Suggestion("add_level", Edit("append", ("levels",), level), evidence, refs))
    return out
