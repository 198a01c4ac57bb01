"""jobtracker/hosts.py: host names compared exactly or as a dot-bounded suffix."""

from __future__ import annotations

import pytest

from jobtracker.hosts import host_is


@pytest.mark.parametrize(("host", "domain", "expected"), [
    ("acme.com", "acme.com", True),
    ("jobs.acme.com", "acme.com", True),
    ("JOBS.Acme.COM.", "acme.com", True),
    ("evilacme.com", "acme.com", False),
    ("acme.com.evil.net", "acme.com", False),
    ("", "acme.com", False),
    ("acme.com", "", False),
])
def test_host_is(host: str, domain: str, expected: bool) -> None:
    assert host_is(host, domain) is expected
