"""Recruitee's public offers API."""

from __future__ import annotations

import json

from servers.shapes import (
    recruitee_offer,
)

from jobtracker.config import Board
from jobtracker.sources import (
    REGISTRY,
)

RECRUITEE = Board("recruitee", "acme", "Acme")


def test_recruitee_offers_and_its_utc_time_format() -> None:
    body = {"offers": [recruitee_offer(11, "Rails Engineer", remote=True),
                       recruitee_offer(12, "Ops", location="")]}
    first, second = REGISTRY["recruitee"].parse(json.dumps(body), RECRUITEE)
    assert first.external_id == "11" and first.remote is True
    assert first.posted_at == "2026-09-01T10:00:00Z"       # "2026-09-01 10:00:00 UTC"
    assert first.url == "https://acme.recruitee.com/o/job-11"
    assert first.description == "Our product.\n\n- Ruby"
    assert second.location == "Amsterdam, Netherlands"      # from city and country
    assert REGISTRY["recruitee"].default_url("acme") == "https://acme.recruitee.com/api/offers/"
