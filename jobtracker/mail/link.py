"""Which company, posting and application an email is about.

Strongest evidence first: a link or job id in the body that names a posting we
fetched (an ATS job id, a posting URL); then the company, from the sender's
domain, the sender's name, the subject, and — only when a single company is named
there — the body; then the posting, when that company has exactly one application
(or one whose title the email names). A link is a hint for proposals, never a
change: the user sees it before anything is applied.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, urlsplit

if TYPE_CHECKING:
    import aiosqlite

# Domain labels that say nothing about the employer: mail hosts, ATS senders, and
# the subdomains companies send from.
_ANONYMOUS_LABELS = frozenset({
    "mail", "email", "e", "em", "mg", "smtp", "send", "bounce", "bounces", "reply",
    "no-reply", "noreply", "notifications", "notify", "info", "news", "www", "us", "eu",
    "careers", "career", "jobs", "job", "talent", "hire", "hiring", "recruiting",
    "recruitment", "people", "hr", "team", "apply", "app",
    "greenhouse", "greenhouse-mail", "lever", "hire-lever", "ashbyhq", "ashby", "workday",
    "myworkday", "myworkdayjobs", "smartrecruiters", "icims", "jobvite", "bamboohr",
    "workable", "teamtailor", "personio", "recruitee", "linkedin", "indeed",
    "gmail", "googlemail", "outlook", "hotmail", "yahoo", "icloud", "proton", "protonmail",
    "sendgrid", "mailgun", "mailchimp", "amazonses",
})
_LEGAL_SUFFIXES = ("inc", "llc", "ltd", "limited", "gmbh", "corp", "corporation", "co",
                   "ag", "sa", "plc", "bv", "oy", "ab", "se", "pty")
_URL = re.compile(r"https?://[^\s<>\"'()\[\]{}]+", re.I)
_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.I)
_NUMERIC_ID = re.compile(r"^\d{6,}$")
_JOB_ID_PHRASE = re.compile(
    r"\b(?:job|req(?:uisition)?|posting)\s*(?:id|#|no\.?|number)\s*[:#]?\s*([A-Za-z0-9-]{4,64})",
    re.I)
MAX_IDS = 40            # ids looked up per message
TEXT_CHARS = 20_000     # how much of a body linking reads
MIN_NAME_CHARS = 3      # shorter company names match too much prose


@dataclass(frozen=True)
class Link:
    company: str | None = None
    posting_id: int | None = None
    reason: str = ""      # how it was found, for people and tests


def normalize_company(name: str) -> str:
    """`Acme Robotics, Inc.` → `acmerobotics`: lower case, legal suffix and punctuation gone."""
    words = re.findall(r"[a-z0-9]+", name.lower())
    while len(words) > 1 and words[-1] in _LEGAL_SUFFIXES:
        words.pop()
    return "".join(words)


def domain_names(domain: str) -> list[str]:
    """The labels of a sender domain that could name an employer, normalized.

    `careers.acme-robotics.co.uk` → [`acmerobotics`]; an ATS or mail host gives [].
    """
    labels = [label for label in domain.lower().split(".") if label]
    if len(labels) < 2:
        return []
    labels = labels[:-1]                      # the top-level domain
    if len(labels) > 1 and len(labels[-1]) <= 3 and labels[-1] in ("co", "com", "org", "ac"):
        labels = labels[:-1]                  # co.uk, com.au, ...
    return [normalize_company(label) for label in labels if label not in _ANONYMOUS_LABELS]


def candidate_ids(text: str) -> list[str]:
    """ATS job ids and posting URLs found in text: the path parts and query values of
    its links that look like ids (6+ digits, a UUID), the links themselves, and ids
    written out as "Job ID: 12345"."""
    found: list[str] = []
    for match in _URL.finditer(text):
        url = match.group(0).rstrip(".,;:!?")
        parts = urlsplit(url)
        found.append(url.split("#", 1)[0])
        values = [*parts.path.split("/"), *(value for _, value in parse_qsl(parts.query))]
        found.extend(v for v in values if _NUMERIC_ID.match(v) or _UUID.match(v))
    found.extend(match.group(1) for match in _JOB_ID_PHRASE.finditer(text))
    return list(dict.fromkeys(found))[:MAX_IDS]


class Linker:
    """The known companies (boards, postings, applications), loaded once per sync."""

    def __init__(self, companies: list[str], basis: str = "") -> None:
        # Names what linking could find: the newest posting and application. A
        # message linked against the same basis would be linked the same way again.
        self.basis = basis
        self.by_norm: dict[str, str] = {}
        for name in sorted(companies, key=len, reverse=True):
            norm = normalize_company(name)
            if norm:
                self.by_norm.setdefault(norm, name)
        names = sorted((n for n in self.by_norm.values() if len(n) >= MIN_NAME_CHARS),
                       key=len, reverse=True)
        self.by_lower = {name.lower(): name for name in names}
        # One alternation, longest first, so "Acme Robotics" wins over "Acme".
        self.pattern = re.compile(
            r"(?<!\w)(" + "|".join(re.escape(n) for n in names) + r")(?!\w)", re.I
        ) if names else None

    @classmethod
    async def load(cls, conn: aiosqlite.Connection) -> Linker:
        rows = await conn.execute_fetchall(
            "SELECT company FROM boards UNION SELECT company FROM postings "
            "UNION SELECT company FROM applications")
        newest = await (await conn.execute(
            "SELECT (SELECT MAX(id) FROM postings), (SELECT MAX(id) FROM applications)"
        )).fetchone()
        return cls([row[0] for row in rows if row[0] and row[0].strip()],
                   f"{newest[0] or 0}:{newest[1] or 0}")

    def companies_in(self, text: str) -> list[str]:
        if self.pattern is None or not text:
            return []
        found = (self.by_lower.get(m.group(1).lower()) for m in self.pattern.finditer(text))
        return list(dict.fromkeys(name for name in found if name))

    def company(self, sender: str, domain: str, subject: str,
                body: str) -> tuple[str | None, str]:
        """The company and where it was found, or (None, '')."""
        for norm in domain_names(domain):
            if norm in self.by_norm:
                return self.by_norm[norm], "sender domain"
        for text, where in ((sender, "sender name"), (subject, "subject")):
            named = self.companies_in(text)
            if len(named) == 1:
                return named[0], where
        named = self.companies_in(body[:TEXT_CHARS])
        if len(named) == 1:
            return named[0], "body"
        return None, ""

    async def link(self, conn: aiosqlite.Connection, sender: str, domain: str, subject: str,
                   body: str) -> Link:
        posting = await _posting_from_ids(conn, candidate_ids(body[:TEXT_CHARS]), body)
        if posting is not None:
            return Link(posting[1] or None, posting[0], "posting link")
        company, where = self.company(sender, domain, subject, body)
        if company is None:
            return Link()
        posting_id = await _posting_from_applications(conn, company, subject, body)
        if posting_id is not None:
            return Link(company, posting_id, f"{where}, application")
        return Link(company, None, where)

    async def relink_unread(self, conn: aiosqlite.Connection) -> int:
        """Link again the unread messages with no posting yet, if postings or
        applications were added since they were linked; returns how many changed."""
        rows = await conn.execute_fetchall(
            "SELECT key, sender, sender_domain, subject, body, company FROM messages "
            "WHERE state IS NULL AND alert IS NULL AND posting_id IS NULL AND link_basis != ?",
            (self.basis,))
        changed = 0
        for key, sender, domain, subject, body, company in rows:
            link = await self.link(conn, sender, domain, subject, body)
            if link.posting_id is not None or link.company not in (None, company):
                changed += 1
            else:
                link = Link(company, None, "")
            await conn.execute(
                "UPDATE messages SET company = ?, posting_id = ?, "
                "link_reason = CASE WHEN ? = '' THEN link_reason ELSE ? END, link_basis = ? "
                "WHERE key = ?",
                (link.company, link.posting_id, link.reason, link.reason, self.basis, key))
        return changed


async def _posting_from_ids(conn: aiosqlite.Connection, ids: list[str],
                            body: str) -> tuple[int, str] | None:
    """The one posting whose ATS id the email names: (id, company), or None.

    A link counts as an id too: feeds key their postings by link. (Matching
    `postings.url` instead would scan the table once per message.)

    Two boards can share a numeric id; the board token named in the email decides,
    and when nothing does the link is left out rather than guessed.
    """
    if not ids:
        return None
    marks = ", ".join("?" for _ in ids)
    rows = await conn.execute_fetchall(
        f"SELECT p.id, p.company, b.token FROM postings AS p JOIN boards AS b "
        f"ON b.id = p.board_id WHERE p.external_id IN ({marks})", ids)
    unique = {row[0]: row for row in rows}
    if len(unique) > 1:
        lowered = body.lower()
        unique = {pid: row for pid, row in unique.items() if row[2].lower() in lowered}
    if len(unique) != 1:
        return None
    pid, company, _ = next(iter(unique.values()))
    return int(pid), str(company)


async def _posting_from_applications(conn: aiosqlite.Connection, company: str, subject: str,
                                     body: str) -> int | None:
    """The posting of the company's one application, or of the one whose title the
    email names; None when that does not decide."""
    rows = await conn.execute_fetchall(
        "SELECT a.posting_id, COALESCE(p.title, '') FROM applications AS a "
        "LEFT JOIN postings AS p ON p.id = a.posting_id "
        "WHERE a.posting_id IS NOT NULL "
        "AND (lower(a.company) = lower(?) OR lower(p.company) = lower(?))",
        (company, company))
    if len(rows) == 1:
        return int(rows[0][0])
    text = f"{subject}\n{body[:TEXT_CHARS]}".lower()
    named = [pid for pid, title in rows if title and title.lower() in text]
    return int(named[0]) if len(named) == 1 else None
