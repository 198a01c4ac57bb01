"""Which company, posting and application an email is about.

Strongest evidence first: a link or job id in the body that names a posting we
fetched (an ATS job id, a posting URL); then the companies the mail could be
from — the sender's domain (with every known company whose name normalises the
same, and the parent or subsidiary whose name begins with it), the sender's
name, the subject, and (only when a single company is named there) the body.

When more than one company fits, the mail's own evidence decides, in this order:
the posting title of one of the user's applications, a URL naming a candidate's
board or posting, a job id of any length among the candidates' postings, and a
posting title. A sender domain never shadows an application whose exact title the
mail names. When nothing decides, the link says the company is uncertain (and
names the candidates) rather than guessing: the proposal shows that, and accepting
it asks the user to set the status by hand.

A link is a hint for proposals, never a change: the user sees it before anything
is applied.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, urlsplit

from jobtracker.hosts import host_in
from jobtracker.sources import identify

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
    r"\b(?:job|req(?:uisition)?|posting)\s*(?:id|#|no\.?|number)\s*[:#]?\s*([A-Za-z0-9-]{1,64})",
    re.I)
MAX_IDS = 40            # ids looked up per message
TEXT_CHARS = 20_000     # how much of a body linking reads
MIN_NAME_CHARS = 3      # shorter company names match too much prose
MIN_TITLE_CHARS = 4     # shorter titles are words, not evidence
# Hosts of the job boards jobtracker reads, whose links name a board by its token.
_BOARD_HOSTS = ("greenhouse.io", "lever.co", "ashbyhq.com", "workable.com",
                "smartrecruiters.com", "recruitee.com", "personio.de", "personio.com",
                "myworkdayjobs.com")
UNCERTAIN = "company uncertain: "   # how a link that could not choose says so
_UNCERTAIN_SEPARATOR = " | "


@dataclass(frozen=True)
class Link:
    company: str | None = None
    posting_id: int | None = None
    reason: str = ""      # how it was found, for people and tests


def uncertain_companies(reason: str | None) -> list[str]:
    """The companies an uncertain link could not choose between (its `reason`), else []."""
    if not reason or not reason.startswith(UNCERTAIN):
        return []
    return [name for name in reason[len(UNCERTAIN):].split(_UNCERTAIN_SEPARATOR) if name]


def company_words(name: str) -> tuple[str, ...]:
    """`Acme Robotics, Inc.` → (`acme`, `robotics`): lower case, legal suffix gone."""
    words = re.findall(r"[a-z0-9]+", name.lower())
    while len(words) > 1 and words[-1] in _LEGAL_SUFFIXES:
        words.pop()
    return tuple(words)


def normalize_company(name: str) -> str:
    """`Acme Robotics, Inc.` → `acmerobotics`: lower case, legal suffix and punctuation gone."""
    return "".join(company_words(name))


def _domain_labels(domain: str) -> list[str]:
    """The labels of a sender domain that could name an employer, as written."""
    labels = [label for label in domain.lower().split(".") if label]
    if len(labels) < 2:
        return []
    labels = labels[:-1]                      # the top-level domain
    if len(labels) > 1 and len(labels[-1]) <= 3 and labels[-1] in ("co", "com", "org", "ac"):
        labels = labels[:-1]                  # co.uk, com.au, ...
    return [label for label in labels if label not in _ANONYMOUS_LABELS]


def domain_names(domain: str) -> list[str]:
    """The labels of a sender domain that could name an employer, normalized.

    `careers.acme-robotics.co.uk` → [`acmerobotics`]; an ATS or mail host gives [].
    """
    return [normalize_company(label) for label in _domain_labels(domain)]


def _urls(text: str) -> list[str]:
    return [match.group(0).rstrip(".,;:!?") for match in _URL.finditer(text)]


def candidate_ids(text: str) -> list[str]:
    """ATS job ids and posting URLs found in text: the path parts and query values of
    its links that look like ids (6+ digits, a UUID), the links themselves, and ids
    written out as "Job ID: 12345" (4 characters or more)."""
    found: list[str] = []
    for url in _urls(text):
        parts = urlsplit(url)
        found.append(url.split("#", 1)[0])
        values = [*parts.path.split("/"), *(value for _, value in parse_qsl(parts.query))]
        found.extend(v for v in values if _NUMERIC_ID.match(v) or _UUID.match(v))
    found.extend(match.group(1) for match in _JOB_ID_PHRASE.finditer(text)
                 if len(match.group(1)) >= 4)
    return list(dict.fromkeys(found))[:MAX_IDS]


def url_words(text: str) -> tuple[set[str], set[str]]:
    """What the links in text say, lower case: the labels and path parts of links to
    a job board's host (where board tokens and slugs sit: `jobs.lever.co/acme-gmbh/…`,
    `acme.recruitee.com`), and every id-like value (path parts and query values of
    any link, "Job ID: 77"), of any length. Only ever compared with the boards and
    postings of the companies already in the running, so short ids are safe here."""
    words: set[str] = set()
    ids: set[str] = set()
    for url in _urls(text):
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        path = [part.lower() for part in parts.path.split("/") if part]
        if host_in(host, _BOARD_HOSTS):
            words.update(label for label in host.split(".") if label)
            words.update(path)
        ids.update(path)
        ids.update(value.lower() for _, value in parse_qsl(parts.query) if value)
    ids.update(match.group(1).lower() for match in _JOB_ID_PHRASE.finditer(text))
    return words, ids


_WORD = re.compile(r"\w+")


def _words(text: str) -> str:
    """Text as its words, lower case, one space apart and padded: what a title is
    looked for in (so punctuation, case and spacing never hide it)."""
    return " " + " ".join(_WORD.findall(text.lower())) + " "


def _named(title: str, words: str) -> bool:
    """Whether `title` appears exactly or nearly in the text whose `_words` are
    `words`: its words, in order, as whole words, whatever the case, punctuation or
    spacing around them ("Senior Backend Engineer (Python)" in "Interview: senior
    backend engineer - Python")."""
    if len(title.strip()) < MIN_TITLE_CHARS:
        return False
    wanted = _words(title)
    return wanted.strip() != "" and wanted in words


class Linker:
    """The known companies (boards, postings, applications), loaded once per sync."""

    def __init__(self, companies: list[str], basis: str = "") -> None:
        # Names what linking could find: the newest posting and application. A
        # message linked against the same basis would be linked the same way again.
        self.basis = basis
        # Every spelling that normalises the same is kept: "Acme" and "Acme GmbH" are
        # two companies to choose between, never one that shadows the other.
        self.by_norm: dict[str, list[str]] = {}
        for name in sorted(set(companies), key=lambda n: (-len(n), n)):
            norm = normalize_company(name)
            if norm:
                self.by_norm.setdefault(norm, []).append(name)
        # By words too, for a parent and its subsidiaries: (acme,) and (acme, robotics).
        self.by_words: dict[tuple[str, ...], list[str]] = {}
        for spellings in self.by_norm.values():
            for name in spellings:
                self.by_words.setdefault(company_words(name), []).append(name)
        self.word_keys = sorted(self.by_words)
        names = sorted((name for spellings in self.by_norm.values() for name in spellings
                        if len(name) >= MIN_NAME_CHARS), key=len, reverse=True)
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

    def domain_companies(self, domain: str) -> tuple[list[str], list[str]]:
        """The companies the sender domain names: those whose name normalises to one
        of its labels, and the related ones — a parent or a subsidiary, whose name's
        words begin with the label's or are its first words (`acme` / `Acme
        Robotics`, `acme-robotics` / `Acme`; not `company1` / `Company12`)."""
        exact: list[str] = []
        related: list[str] = []
        for label in _domain_labels(domain):
            norm = normalize_company(label)
            if len(norm) < MIN_NAME_CHARS:
                continue
            exact.extend(self.by_norm.get(norm, []))
            words = company_words(label)
            # Names whose words begin with the label's (its subsidiaries), then the
            # label's first words that are a name (its parent): a sorted list finds both.
            start = bisect.bisect_right(self.word_keys, words)
            keys = self.word_keys
            while start < len(keys) and keys[start][:len(words)] == words:
                related.extend(self.by_words[keys[start]])
                start += 1
            for end in range(1, len(words)):
                if len("".join(words[:end])) >= MIN_NAME_CHARS:
                    related.extend(self.by_words.get(words[:end], []))
        exact = list(dict.fromkeys(exact))
        return exact, [name for name in dict.fromkeys(related) if name not in exact]

    def candidates(self, sender: str, domain: str, subject: str,
                   body: str) -> tuple[list[str], list[str], str]:
        """(the companies the strongest evidence names, every company in the running,
        where the strongest evidence is). The first list is what the mail is taken
        to be about when nothing else decides; the second adds related companies and
        those named in the sender's name and the subject, for its evidence to pick."""
        exact, related = self.domain_companies(domain)
        named = [*self.companies_in(sender), *self.companies_in(subject)]
        running = list(dict.fromkeys([*exact, *named, *related]))
        if exact:
            return exact, running, "sender domain"
        for text, where in ((sender, "sender name"), (subject, "subject")):
            found = self.companies_in(text)
            if found:
                return found, running, where
        found = self.companies_in(body[:TEXT_CHARS])
        if len(found) == 1:
            return found, list(dict.fromkeys([*running, *found])), "body"
        # Several companies in a body (a newsletter) are not a tie worth a proposal.
        return [], running, ""

    async def link(self, conn: aiosqlite.Connection, sender: str, domain: str, subject: str,
                   body: str) -> Link:
        """The application (else posting, else company) the mail is about. Strongest
        first: the title of one of the user's own applications named in the subject
        or body (exactly or nearly); a posting's link or job id; then the company the
        sender and the subject name, and within it its one application, the one whose
        title the mail names, or the posting whose title it names."""
        text = body[:TEXT_CHARS]
        evidence = f"{subject}\n{text}"
        words = _words(evidence)
        chosen, running, where = self.candidates(sender, domain, subject, text)
        # The user's own application whose posting title the mail names outranks a
        # sender domain and a link: an agency, a parent company or a namesake sends it too.
        applied = await _application_by_title(conn, running, words, chosen) \
            if running else None
        if applied is not None:
            return Link(applied[1], applied[0], "application title")
        posting = await _posting_from_ids(conn, candidate_ids(text), text)
        if posting is not None:
            return Link(posting[1] or None, await _job_posting(conn, posting[0]),
                        "posting link")
        if not running or not chosen:
            return Link()
        if len(chosen) == 1:
            # One company named, but others in the running: only a link or a job id
            # (not a title, which namesakes share) moves the mail to another.
            decided = (await _decide(conn, running, evidence, titles=False)
                       if len(running) > 1 else None)
            company, where = decided or (chosen[0], where)
        else:
            decided = await _decide(conn, running, evidence, titles=True)
            if decided is None:
                return Link(None, None, UNCERTAIN + _UNCERTAIN_SEPARATOR.join(chosen))
            company, where = decided
        posting_id = await _posting_from_applications(conn, company, words)
        if posting_id is not None:
            return Link(company, posting_id, f"{where}, application")
        posting_id = await _posting_by_title(conn, company, words)
        if posting_id is not None:
            return Link(company, posting_id, f"{where}, posting title")
        return Link(company, None, where)

    async def relink_unread(self, conn: aiosqlite.Connection) -> int:
        """Link again the unread messages with no posting yet, if postings or
        applications were added since they were linked; returns how many changed."""
        rows = await conn.execute_fetchall(
            "SELECT key, sender, sender_domain, subject, body, company, link_reason "
            "FROM messages WHERE state IS NULL AND alert IS NULL AND posting_id IS NULL "
            "AND link_basis != ?",
            (self.basis,))
        changed = 0
        for key, sender, domain, subject, body, company, reason in rows:
            link = await self.link(conn, sender, domain, subject, body)
            if link.posting_id is not None or link.company not in (None, company) or (
                    link.company is None and link.reason != (reason or "")
                    and uncertain_companies(link.reason)):
                changed += 1
            else:
                link = Link(company, None, "")
            await conn.execute(
                "UPDATE messages SET company = ?, posting_id = ?, "
                "link_reason = CASE WHEN ? = '' THEN link_reason ELSE ? END, link_basis = ? "
                "WHERE key = ?",
                (link.company, link.posting_id, link.reason, link.reason, self.basis, key))
        return changed


def _marks(values: list[str] | set[str]) -> str:
    return ", ".join("?" for _ in values)


async def _posting_from_ids(conn: aiosqlite.Connection, ids: list[str],
                            body: str) -> tuple[int, str] | None:
    """The one posting whose ATS id the email names: (id, company), or None.

    A link counts as an id too: feeds key their postings by link. (Matching
    `postings.url` instead would scan the table once per message.) A link to a job
    page of a known ATS names its board and id, so its id counts at any length.

    Two boards can share a numeric id; the board token named in the email decides,
    and when nothing does the link is left out rather than guessed.
    """
    # A job page's id that is not among `ids` (shorter than they need) is looked up by
    # its board; one among them was just looked up on every board.
    looked_up = set(ids)
    pages = [found for found in (identify(url) for url in _urls(body))
             if found and found[2] not in looked_up]
    rows: list = []
    if ids:
        rows = list(await conn.execute_fetchall(
            f"SELECT p.id, p.company, b.token FROM postings AS p JOIN boards AS b "
            f"ON b.id = p.board_id WHERE p.external_id IN ({_marks(ids)})", ids))
    for ats, token, external_id in pages[:MAX_IDS]:
        rows.extend(await conn.execute_fetchall(
            "SELECT p.id, p.company, b.token FROM postings AS p JOIN boards AS b "
            "ON b.id = p.board_id WHERE b.source = ? AND lower(b.token) = lower(?) "
            "AND p.external_id = ?", (ats, token, external_id)))
    unique = {row[0]: row for row in rows}
    if len(unique) > 1:
        lowered = body.lower()
        unique = {pid: row for pid, row in unique.items() if row[2].lower() in lowered}
    if len(unique) != 1:
        return None
    pid, company, _ = next(iter(unique.values()))
    return int(pid), str(company)


async def _application_by_title(conn: aiosqlite.Connection, companies: list[str],
                                text: str, preferred: list[str]) -> tuple[int, str] | None:
    """(posting id, company) of the one application, among `companies`, whose posting
    title `text` names; the longest title named wins, then one of `preferred`."""
    if not companies:
        return None
    lowered = [name.lower() for name in companies]
    rows = await conn.execute_fetchall(
        "SELECT a.posting_id, COALESCE(NULLIF(a.company, ''), p.company), p.title "
        "FROM applications AS a JOIN postings AS p ON p.id = a.posting_id "
        f"WHERE lower(a.company) IN ({_marks(lowered)}) "
        f"OR lower(p.company) IN ({_marks(lowered)})", [*lowered, *lowered])
    named = [(len(_words(title)), int(pid), str(company)) for pid, company, title in rows
             if title and _named(title, text)]
    if not named:
        return None
    longest = max(length for length, _, _ in named)
    best = [(pid, company) for length, pid, company in named if length == longest]
    if len(best) > 1:
        best = [found for found in best if found[1] in preferred]
    return best[0] if len(best) == 1 else None


async def _decide(conn: aiosqlite.Connection, companies: list[str], text: str, *,
                  titles: bool) -> tuple[str, str] | None:
    """The one of `companies` the mail's own evidence names, and which evidence: a
    link naming its board (a token or slug in the host or path) or one of its posting
    URLs, a job id (any length) of one of its postings, or (with `titles`) one of its
    posting titles; None when that evidence does not single one out."""
    lowered = {name.lower(): name for name in companies}
    words, ids = url_words(text)
    urls = [url.split("#", 1)[0] for url in _urls(text)]
    boards = await conn.execute_fetchall(
        f"SELECT company, lower(token) FROM boards WHERE lower(company) IN ({_marks(lowered)})",
        list(lowered))
    by_url = {lowered[company.lower()] for company, token in boards if token in words}
    postings = await conn.execute_fetchall(
        "SELECT company, lower(external_id), url, title FROM postings "
        f"WHERE lower(company) IN ({_marks(lowered)})", list(lowered))
    by_url |= {lowered[company.lower()] for company, _, url, _ in postings
               if url and url.split("#", 1)[0] in urls}
    if len(by_url) == 1:
        return next(iter(by_url)), "link"
    by_id = {lowered[company.lower()] for company, external_id, _, _ in postings
             if external_id and external_id in ids}
    if len(by_id) == 1:
        return next(iter(by_id)), "job id"
    if not titles:
        return None
    said = _words(text)
    titled = [(len(title), lowered[company.lower()]) for company, _, _, title in postings
              if title and _named(title, said)]
    if titled:
        longest = max(length for length, _ in titled)
        best = {company for length, company in titled if length == longest}
        if len(best) == 1:
            return next(iter(best)), "posting title"
    return None


async def _posting_from_applications(conn: aiosqlite.Connection, company: str,
                                     words: str) -> int | None:
    """The posting of the company's one application, or of the one whose title the
    email (`words`: its subject and body as `_words`) names; None when that does not
    decide."""
    rows = await conn.execute_fetchall(
        "SELECT a.posting_id, COALESCE(p.title, '') FROM applications AS a "
        "LEFT JOIN postings AS p ON p.id = a.posting_id "
        "WHERE a.posting_id IS NOT NULL "
        "AND (lower(a.company) = lower(?) OR lower(p.company) = lower(?))",
        (company, company))
    if len(rows) == 1:
        return int(rows[0][0])
    named = [pid for pid, title in rows if title and _named(title, words)]
    return int(named[0]) if len(named) == 1 else None


async def _posting_by_title(conn: aiosqlite.Connection, company: str,
                            words: str) -> int | None:
    """The company's job whose posting title the email names (the longest title named
    wins), as the posting an application for it is (or would be) on: None when no
    title is named, or the longest names two different jobs (two openings)."""
    rows = await conn.execute_fetchall(
        "SELECT id, title, COALESCE(lead_id, id) FROM postings "
        "WHERE lower(company) = lower(?) AND title IS NOT NULL", (company,))
    named = [(len(_words(title)), int(job)) for _, title, job in rows
             if _named(title, words)]
    if not named:
        return None
    longest = max(length for length, _ in named)
    jobs = {job for length, job in named if length == longest}
    return await _job_posting(conn, jobs.pop()) if len(jobs) == 1 else None


async def _job_posting(conn: aiosqlite.Connection, posting_id: int) -> int:
    """The posting of `posting_id`'s job that an application is on (the user may have
    applied through any posting of the group), else the group's leader: so a mail
    about a job an alert's card or a copy found belongs to the one application."""
    row = await (await conn.execute(
        "SELECT COALESCE(lead_id, id) FROM postings WHERE id = ?", (posting_id,))).fetchone()
    if row is None:
        return posting_id
    leader = int(row[0])
    applied = await (await conn.execute(
        "SELECT a.posting_id FROM applications AS a JOIN postings AS p ON p.id = a.posting_id "
        "WHERE (p.id = ? OR p.lead_id = ?) ORDER BY p.id = ? DESC, a.id LIMIT 1",
        (leader, leader, posting_id))).fetchone()
    return int(applied[0]) if applied else leader
