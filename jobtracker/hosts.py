"""Host names compared the one safe way: exactly, or as a dot-bounded suffix.

`host_is("jobs.acme.com", "acme.com")` is true; `evilacme.com` and `acme.com.evil.net`
are not `acme.com`. Case and one trailing dot do not count. Used wherever a host from
outside (a page's, a posting's claimed company site) is compared with a domain.
"""

from __future__ import annotations


def host_is(host: str, domain: str) -> bool:
    """Whether `host` is `domain` or one of its subdomains (case-insensitive)."""
    host = (host or "").strip().rstrip(".").lower()
    domain = (domain or "").strip().rstrip(".").lower()
    if not host or not domain:
        return False
    return host == domain or host.endswith("." + domain)


__all__ = ["host_is"]
