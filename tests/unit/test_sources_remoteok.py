"""Remote OK's public API."""

from __future__ import annotations

import json

from servers.shapes import (
    REMOTEOK_LEGAL,
    remoteok_job,
)

from jobtracker.config import Board
from jobtracker.sources import (
    REGISTRY,
)


def test_remoteok_skips_the_legal_notice_and_links_back() -> None:
    body = [REMOTEOK_LEGAL, remoteok_job("901", "Go Developer", salary=(100000, 140000)),
            remoteok_job("902", "Support", company="Bolt")]
    first, second = REGISTRY["remoteok"].parse(json.dumps(body), Board("remoteok", "all", "x"))
    assert first.url == "https://remoteOK.com/remote-jobs/remote-901"
    assert first.description.endswith("Via Remote OK: https://remoteOK.com/remote-jobs/remote-901")
    assert (first.salary_min, first.salary_max, first.salary_currency) == \
        (100000.0, 140000.0, "USD")
    assert (second.company, second.salary_min, second.salary_currency) == ("Bolt", None, None)
    assert first.remote is True
