"""profile.yaml: who the user is, for the judge and the ranking (docs/ranking.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from jobtracker.settings import filters
from jobtracker.settings.filters import Filters
from jobtracker.store import description_hash
from jobtracker.yamlfile import checks, load, parse

LEVELS = ("intern", "junior", "mid", "senior", "staff", "principal", "director")
WEIGHT_KEYS = ("fit", "remote", "location", "recency", "salary")
DEFAULT_WEIGHTS = {"fit": 1.0, "remote": 0.3, "location": 0.2, "recency": 0.2, "salary": 0.1}


@dataclass(frozen=True)
class Profile:
    prose: str = ""
    levels: tuple[str, ...] = ()
    locations: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    weights: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_WEIGHTS))
    exists: bool = False
    filters: Filters = field(default_factory=Filters)

    @property
    def prose_hash(self) -> str:
        return description_hash(self.prose.strip())


def load_profile(path: Path, text: str | None = None) -> Profile:
    """profile.yaml at `path`, or `text` read as that file (an edit checked before it is
    written: errors name the user's file)."""
    doc = load(path) if text is None else parse(path, text)
    top = checks.mapping(doc, doc.data, allowed=("prose", "levels", "locations", "exclude",
                                                 "weights", "filters"))
    prose = top.get("prose") or ""
    if not isinstance(prose, str):
        raise doc.error("must be text", "prose")
    weights = checks.mapping(doc, top.get("weights"), "weights", allowed=WEIGHT_KEYS)
    return Profile(
        prose=prose,
        levels=checks.str_list(doc, top.get("levels"), "levels", check=lambda v: v in LEVELS,
                               expected=", ".join(LEVELS)),
        locations=checks.str_list(doc, top.get("locations"), "locations"),
        exclude=checks.str_list(doc, top.get("exclude"), "exclude"),
        weights={**DEFAULT_WEIGHTS,
                 **{k: checks.number(doc, v, "weights", k, minimum=-100, maximum=100)
                    for k, v in weights.items()}},
        exists=doc.data is not None,
        filters=filters.load(doc, top.get("filters")),
    )
