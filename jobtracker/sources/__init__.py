"""Job-board and feed parsers, one module per source, plus the registry.

Adding an ATS is one module here (a `SOURCE` with its default address, its parser
and its job-page pattern) and one entry in `REGISTRY`'s tuple below; docs/sources.md says how.
Feeds are a separate kind (`feed.parse`), not an `ats` a board may name.
"""

from __future__ import annotations

from jobtracker.registry import Registry
from jobtracker.sources import (
    ashby,
    feed,
    greenhouse,
    hackernews,
    himalayas,
    lever,
    personio,
    recruitee,
    remoteok,
    remotive,
    smartrecruiters,
    workable,
    workday,
)
from jobtracker.sources.base import NormalizedPosting, Source, SourceError, token_ok

# ATS name (the `ats` of a board in sources.yaml) → its source.
REGISTRY: Registry[Source] = Registry((
    greenhouse.SOURCE, lever.SOURCE, ashby.SOURCE,
    workable.SOURCE, smartrecruiters.SOURCE, recruitee.SOURCE, personio.SOURCE, workday.SOURCE,
    # Aggregators: many companies in one listing; each posting carries its company.
    hackernews.SOURCE, remoteok.SOURCE, remotive.SOURCE, himalayas.SOURCE,
))

parse_feed = feed.parse


def identify(url: str) -> tuple[str, str, str] | None:
    """(ats, token, external_id) when `url` is a job page of a known ATS, else None."""
    for source in REGISTRY.values():
        found = source.match_url(url)
        if found and token_ok(found[0]):
            return source.name, found[0], found[1]
    return None


__all__ = ["REGISTRY", "NormalizedPosting", "Source", "SourceError", "identify", "parse_feed"]
