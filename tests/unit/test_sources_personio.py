"""Personio's public XML feed, refusing DTDs and foreign bodies."""

from __future__ import annotations

import pytest
from servers.shapes import (
    personio_position,
    personio_xml,
)

from jobtracker.config import Board
from jobtracker.sources import (
    REGISTRY,
    SourceError,
    identify,
)

PERSONIO = Board("personio", "acme", "Acme")


def test_personio_positions_with_offices_and_sections() -> None:
    xml = personio_xml([personio_position(42, "Backend Developer", additional=("Remote",)),
                        personio_position(43, "Data Engineer")])
    first, second = REGISTRY["personio"].parse(xml.encode(), PERSONIO)
    assert first.external_id == "42" and first.title == "Backend Developer"
    assert first.location == "Munich, Remote" and first.remote is True
    assert first.url == "https://acme.jobs.personio.de/job/42"
    assert first.description == "Your tasks\n\nCode.\n\nYour profile\n\n- Kotlin"
    assert first.posted_at == "2026-09-01T10:00:00Z"
    assert second.remote is None
    assert identify("https://acme.jobs.personio.de/job/42?display=en") == \
        ("personio", "acme", "42")


@pytest.mark.parametrize("payload", [
    b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><workzag-jobs>&a;</workzag-jobs>',
    b"<html><body>Not found</body></html>", b"{}", b"<workzag-jobs><position>",
], ids=["dtd", "html", "json", "truncated"])
def test_personio_refuses_dtds_and_foreign_bodies(payload: bytes) -> None:
    with pytest.raises(SourceError):
        REGISTRY["personio"].parse(payload, PERSONIO)
