"""host_is: exact or dot-bounded, case-blind, punycode-aware; and the one place host names
are compared (no `startswith`/`endswith` on a host name anywhere else in jobtracker/)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from jobtracker.hosts import ascii_host, google_search_host, host_in, host_is

ROOT = Path(__file__).resolve().parents[2] / "jobtracker"


@pytest.mark.parametrize("host, domain, expected", [
    ("linkedin.com", "linkedin.com", True),
    ("www.linkedin.com", "linkedin.com", True),
    ("E.LinkedIn.COM.", "linkedin.com", True),             # case and a root dot aside
    ("linkedin.com.example", "linkedin.com", False),        # a look-alike suffix
    ("evil-linkedin.com", "linkedin.com", False),           # not dot-bounded
    ("notlinkedin.com", "linkedin.com", False),
    ("linkedin.co", "linkedin.com", False),
    ("com", "linkedin.com", False),
    ("", "linkedin.com", False),
    ("linkedin.com", "", False),
    ("xn--linkedn-y6a.com", "linkedin.com", False),         # punycode of a homoglyph
    ("linkedın.com", "linkedin.com", False),                # dotless i
    ("ｌｉｎｋｅｄｉｎ.com", "linkedin.com", False),           # fullwidth letters: not mapped
    ("bücher.example", "xn--bcher-kva.example", True),      # Unicode compared in punycode
    ("a.xn--bcher-kva.example", "bücher.example", True),
    ("a" * 300 + ".linkedin.com", "linkedin.com", False),  # longer than a host can be
])
def test_host_is_exact_or_dot_bounded(host: str, domain: str, expected: bool) -> None:
    assert host_is(host, domain) is expected


def test_host_in_and_ascii_host() -> None:
    assert host_in("jobs.indeed.com", ("glassdoor.com", "indeed.com"))
    assert not host_in("indeed.com.evil", ("glassdoor.com", "indeed.com"))
    assert ascii_host("Bücher.Example.") == "xn--bcher-kva.example"
    assert ascii_host("a" * 254) == "" and ascii_host(" ") == ""


@pytest.mark.parametrize("host, expected", [
    ("www.google.com", True), ("google.de", True), ("www.google.co.uk", True),
    ("www.google.com.evil.example", False), ("www.google.evil", False),
    ("google.com.au.evil.example", False), ("mail.google.com", False),
    ("www.googlecom.com", False), ("notgoogle.com", False),
])
def test_google_s_own_search_hosts_come_from_a_closed_table(host: str, expected: bool) -> None:
    assert google_search_host(host) is expected


# --- no host name is compared by its ends anywhere else --------------------------------

_HOSTY = re.compile(r"host|domain|netloc|site", re.I)
# A literal that reads as a host name or a piece of one: "www.", ".linkedin.com", "google."
_HOST_LITERAL = re.compile(r"^(?:www\.|\.?[a-z0-9-]+\.(?:[a-z0-9-]+\.?)*)$"
                           r"|^[a-z][a-z0-9+.-]*://[^/?#]*[a-z0-9-]\.", re.I)


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_name(node.value)}.{node.attr}"
    if isinstance(node, ast.Call):
        return _name(node.func) + "()"
    if isinstance(node, ast.Subscript):
        return _name(node.value) + "[]"
    if isinstance(node, ast.BoolOp):
        return " ".join(_name(value) for value in node.values)
    return ""


def _literals(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple):
        return [text for item in node.elts for text in _literals(item)]
    if isinstance(node, ast.BinOp):            # "." + domain
        return _literals(node.left) + _literals(node.right)
    return []


def host_end_tests(source: str) -> list[tuple[int, str]]:
    """The `x.startswith(…)` / `x.endswith(…)` calls that test a host name: on a value
    named like one (host, domain, netloc, site), or with an argument that reads as one."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("startswith", "endswith")):
            continue
        receiver = _name(node.func.value)
        literals = [text for arg in node.args for text in _literals(arg)]
        if _HOSTY.search(receiver) or any(_HOST_LITERAL.match(text) for text in literals
                                          if "." in text):
            found.append((node.lineno, f"{receiver}.{node.func.attr}"))
    return found


def test_the_scan_finds_the_forms_it_forbids() -> None:
    """The scan itself, on the forms the project used before host_is."""
    forbidden = [
        'host.endswith(".linkedin.com")',
        '(parts.hostname or "").startswith(("www.google.", "google."))',
        'mail.domain.endswith("match.indeed.com")',
        'domain.endswith("." + s)',
        'url.startswith("https://www.linkedin")',
        'site = host if host.startswith("www.") else "www." + host',
    ]
    for source in forbidden:
        assert host_end_tests(source), source
    allowed = ['href[:8].lower().startswith(("http://", "https://"))',
               'text.startswith(("#", "mailto:"))', 'line.endswith(" ")']
    for source in allowed:
        assert not host_end_tests(source), source


def test_no_module_but_hosts_compares_a_host_name_by_its_ends() -> None:
    offenders = []
    for path in sorted(ROOT.rglob("*.py")):
        if path.name == "hosts.py" and path.parent == ROOT:
            continue
        for line, what in host_end_tests(path.read_text(encoding="utf-8")):
            offenders.append(f"{path.relative_to(ROOT.parent)}:{line}: {what}")
    assert not offenders, "use jobtracker.hosts.host_is:\n" + "\n".join(offenders)


@pytest.mark.parametrize(("host", "domain", "expected"), [
    ("acme.com", "acme.com", True),
    ("jobs.acme.com", "acme.com", True),
    ("JOBS.Acme.COM.", "acme.com", True),
    ("evilacme.com", "acme.com", False),
    ("acme.com.evil.net", "acme.com", False),
    ("", "acme.com", False),
    ("acme.com", "", False),
])
def test_a_claimed_company_site_is_the_page_s_host_or_above_it(
        host: str, domain: str, expected: bool) -> None:
    # The cases `jobtracker save` relies on (a JobPosting claiming another company's site).
    assert host_is(host, domain) is expected
