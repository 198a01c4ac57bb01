"""Remotive's public API."""

from __future__ import annotations

import json

from servers.shapes import (
    remotive_board,
    remotive_job,
)

from jobtracker.config import Board
from jobtracker.sources import (
    REGISTRY,
)


def test_remotive_jobs() -> None:
    body = remotive_board([remotive_job(5, "Python Developer", company="Bolt")])
    [posting] = REGISTRY["remotive"].parse(json.dumps(body), Board("remotive", "all", "x"))
    assert (posting.external_id, posting.company, posting.location) == ("5", "Bolt", "Europe")
    assert posting.posted_at == "2026-09-01T10:00:00Z" and posting.remote is True
    assert posting.department == "Software Development"
