"""Host names compared one way everywhere: exact, or a dot-bounded suffix, never a substring.

`host_is("jobs.linkedin.com", "linkedin.com")` is true; `linkedin.com.example`,
`evil-linkedin.com` and `notlinkedin.com` are not `linkedin.com`. Case does not count
and a trailing root dot is dropped. A name written in Unicode is compared in its
punycode form (each non-ASCII label as `xn--…`, with no mapping of look-alike
characters), so `bücher.example` is `xn--bcher-kva.example`, while a homoglyph
(`linkedın.com`, `ｌｉｎｋｅｄｉｎ.com`) is never the ASCII name it imitates. A name that
cannot be written in punycode is no host at all.

Every host test in jobtracker/ goes through here (tests/unit/test_hosts.py fails on a
`startswith`/`endswith` applied to a host name anywhere else), against closed lists:
Google's own search hosts are `google.com` and the country domains in `GOOGLE_DOMAINS`.
"""

from __future__ import annotations

from functools import lru_cache

# Google Search's own domains (its country sites): a jobs view is trusted only on these.
GOOGLE_DOMAINS = frozenset((
    "google.com", "google.ad", "google.ae", "google.at", "google.be", "google.bg",
    "google.ca", "google.ch", "google.cl", "google.cn", "google.cz", "google.de", "google.dk",
    "google.ee", "google.es", "google.fi", "google.fr", "google.gr", "google.hr", "google.hu",
    "google.ie", "google.is", "google.it", "google.lt", "google.lu", "google.lv", "google.nl",
    "google.no", "google.pl", "google.pt", "google.ro", "google.rs", "google.ru", "google.se",
    "google.si", "google.sk", "google.co.id", "google.co.il", "google.co.in", "google.co.jp",
    "google.co.kr", "google.co.nz", "google.co.th", "google.co.uk", "google.co.za",
    "google.com.ar", "google.com.au", "google.com.br", "google.com.co", "google.com.eg",
    "google.com.hk", "google.com.mx", "google.com.my", "google.com.ng", "google.com.pe",
    "google.com.ph", "google.com.pk", "google.com.sa", "google.com.sg", "google.com.tr",
    "google.com.tw", "google.com.ua", "google.com.vn",
))
MAX_HOST_CHARS = 253


@lru_cache(maxsize=4096)
def ascii_host(host: str) -> str:
    """`host` lower case, without a trailing dot, each non-ASCII label in punycode;
    '' when it is empty, too long, or holds a label punycode cannot write."""
    text = host.strip().lower().rstrip(".")
    if not text or len(text) > MAX_HOST_CHARS:
        return ""
    if text.isascii():
        return text
    labels = []
    for label in text.split("."):
        if label.isascii():
            labels.append(label)
            continue
        try:
            labels.append("xn--" + label.encode("punycode").decode("ascii"))
        except UnicodeError:
            return ""
    out = ".".join(labels)
    return out if len(out) <= MAX_HOST_CHARS else ""


def host_is(host: str, domain: str) -> bool:
    """Whether `host` is `domain` or a name under it (dot-bounded), case and a root
    dot aside, Unicode compared in punycode."""
    name, suffix = ascii_host(host), ascii_host(domain)
    if not name or not suffix:
        return False
    if name == suffix:
        return True
    return len(name) > len(suffix) and name[-len(suffix) - 1:] == "." + suffix


def host_in(host: str, domains: frozenset[str] | tuple[str, ...]) -> bool:
    """Whether `host` is one of `domains` or under one of them."""
    return any(host_is(host, domain) for domain in domains)


def google_search_host(host: str) -> bool:
    """Whether `host` is Google Search itself (`google.<country>` or `www.` of it), from
    the closed table: `www.google.com.evil.example` is not."""
    name = ascii_host(host)
    if name[:4] == "www.":
        name = name[4:]
    return name in GOOGLE_DOMAINS


__all__ = ["GOOGLE_DOMAINS", "ascii_host", "google_search_host", "host_in", "host_is"]
