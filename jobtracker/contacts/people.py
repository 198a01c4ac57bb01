"""Contacts in the store: an import replaces its source's rows; people who wrote about
an application are read from the messages, never copied; a company's people are
found by the company key mail linking uses.

`known_at()` is the one way every surface (matches, `--json`, the packet, the digest,
the TUI) asks "who do I know at this company": one query for the whole list, then a
dictionary lookup per match, so listing 100,000 matches costs one pass over contacts.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from email.utils import parseaddr
from typing import TYPE_CHECKING, Any, cast

from jobtracker.contacts.csvfile import Contact
from jobtracker.mail.link import normalize_company
from jobtracker.text import one_line

if TYPE_CHECKING:
    import aiosqlite

MAIL = "mail"          # the source of people who wrote about an application
SHOWN = 3              # people named in a one-line summary; the rest are counted

# Mailboxes that are no person: the senders of automatic mail.
_ROBOT_LOCALS = ("noreply", "no-reply", "no_reply", "donotreply", "do-not-reply",
                 "notifications", "notification", "notify", "mailer-daemon", "postmaster",
                 "jobs", "careers", "recruiting", "talent", "hiring", "hr", "info",
                 "team", "hello", "support")


@dataclass(frozen=True)
class Known:
    """One person the user knows at a company, as every surface shows them."""

    name: str
    position: str
    company: str
    source: str          # 'linkedin', a CSV's name, or 'mail'
    email: str = ""
    url: str = ""

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "position": self.position, "company": self.company,
                "source": self.source, "email": self.email, "url": self.url}

    def brief(self) -> dict[str, str]:
        """What a match names of a person (`jobtracker contacts COMPANY` says the rest)."""
        return {"name": self.name, "position": self.position, "source": self.source}


def company_key(name: str | None) -> str:
    """How contacts meet companies: mail linking's normalized name ('' for none)."""
    return normalize_company(name or "")


async def replace(conn: aiosqlite.Connection, source: str, contacts: Iterable[Contact],
                  now: str) -> tuple[int, int]:
    """Put `contacts` in place of `source`'s rows (inside the caller's write
    transaction): (rows before, rows now)."""
    counted = await (await conn.execute(
        "SELECT COUNT(*) FROM contacts WHERE source = ?", (source,))).fetchone()
    before = counted[0] if counted is not None else 0
    await conn.execute("DELETE FROM contacts WHERE source = ?", (source,))
    rows = [(source, c.name, c.company, company_key(c.company), c.position, c.email, c.url,
             c.connected_on, c.line, now) for c in contacts]
    await conn.executemany(
        "INSERT INTO contacts (source, name, company, company_key, position, email, url, "
        "connected_on, line, imported_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    return int(before), len(rows)


async def sources(conn: aiosqlite.Connection) -> list[tuple[str, int, str]]:
    """(source, rows, imported at) of every import."""
    rows = await conn.execute_fetchall(
        "SELECT source, COUNT(*) AS n, MAX(imported_at) AS at FROM contacts "
        "GROUP BY source ORDER BY source")
    return [(row["source"], int(row["n"]), row["at"]) for row in rows]


def _person(sender: str) -> tuple[str, str] | None:
    """(name, address) of a message's sender when it is a person, else None."""
    name, address = parseaddr(sender)
    local = address.split("@", 1)[0].lower()
    if not name or not address or any(local.startswith(robot) for robot in _ROBOT_LOCALS):
        return None
    if "@" in name or name.lower() == address.lower():
        return None
    return one_line(name), address


async def _from_mail(conn: aiosqlite.Connection) -> list[Any]:
    """Messages about an application whose company is known (alerts and newsletters
    are never linked to a company), newest first: (sender, company, latest). Only
    senders that can name a person: parseaddr finds a name only in `Name <address>`
    or a comment `address (Name)`, so a bare address (most automatic mail) is left
    out before the grouping rather than parsed after it."""
    cursor = await conn.execute(MAIL_SQL)
    cursor.row_factory = None
    return list(await cursor.fetchall())


# Its WHERE is the partial index messages_people's (migration 0023), term for term.
MAIL_SQL = ("SELECT sender, company, MAX(sent_at) AS at FROM messages "
            "WHERE company IS NOT NULL AND company != '' AND state IS NOT NULL "
            "AND state != 'not_application' AND (instr(sender, '<') OR instr(sender, '(')) "
            "GROUP BY sender, company ORDER BY at DESC")


async def everyone(conn: aiosqlite.Connection) -> dict[str, list[Known]]:
    """Every contact by company key, imported ones first (by name), then the people who
    wrote (newest first); a person imported and also writing is listed once."""
    return (await Directory.load(conn)).people


# A contact as read, before it is a Known: an imported row (name, position, company,
# company_key, source, email, url), or (name, position, company, key, MAIL, address, '')
# for a person who wrote.
_Raw = tuple[str, str, str, str, str, str, str]


async def _gather(conn: aiosqlite.Connection) -> dict[str, list[_Raw]]:
    """Every contact as read, by company key, in `everyone`'s order (not yet deduplicated)."""
    found: dict[str, list[_Raw]] = defaultdict(list)
    cursor = await conn.execute(
        "SELECT name, position, company, company_key, source, email, url FROM contacts "
        "WHERE company_key != '' ORDER BY company_key, name, id")
    cursor.row_factory = None     # plain tuples: _Raw
    for row in cast("list[_Raw]", await cursor.fetchall()):
        found[row[3]].append(row)
    persons: dict[str, tuple[str, str] | None] = {}   # a sender writes about many jobs
    keys: dict[str, str] = {}
    for sender, company, at in await _from_mail(conn):
        person = persons[sender] if sender in persons else persons.setdefault(
            sender, _person(sender))
        if person is None:
            continue
        key = keys.get(company)
        if key is None:
            key = keys[company] = company_key(company)
        if key:
            found[key].append((person[0], f"wrote {str(at)[:10]}", company, key, MAIL,
                               person[1], ""))
    return found


def _known(rows: list[_Raw]) -> list[Known]:
    """One company's contacts as Known, each person once (by name, case folded)."""
    seen: set[str] = set()
    out = []
    for name, position, company, _key, source, email, url in rows:
        marker = name.casefold()
        if marker not in seen:
            seen.add(marker)
            out.append(Known(name=name, position=position, company=company, source=source,
                             email=email, url=url))
    return out


class Directory:
    """Every contact, loaded once, asked per company: `known_at(company)`. What is read
    becomes Known objects only for the companies asked about (a list of matches asks
    about a few hundred of the thousands a LinkedIn export names)."""

    def __init__(self, raw: dict[str, list[_Raw]]) -> None:
        self._raw = raw
        self._built: dict[str, list[Known]] = {}
        self._keys: dict[str, str] = {}

    @classmethod
    async def load(cls, conn: aiosqlite.Connection) -> Directory:
        has_any = await (await conn.execute(
            "SELECT EXISTS (SELECT 1 FROM contacts) OR EXISTS (SELECT 1 FROM messages "
            "WHERE company IS NOT NULL AND state IS NOT NULL)")).fetchone()
        return cls(await _gather(conn) if has_any is not None and has_any[0] else {})

    @property
    def has_people(self) -> bool:
        return bool(self._raw)

    @property
    def people(self) -> dict[str, list[Known]]:
        """Every contact by company key (all of them built)."""
        return {key: self._at(key) for key in self._raw}

    def _at(self, key: str) -> list[Known]:
        built = self._built.get(key)
        if built is None:
            rows = self._raw.get(key)
            built = self._built[key] = _known(rows) if rows else []
        return built

    def known_at(self, company: str | None) -> list[Known]:
        if not self._raw or not company:
            return []
        key = self._keys.get(company)
        if key is None:     # one normalization per distinct company name, not per row
            key = self._keys[company] = company_key(company)
        return self._at(key)


def summary(people: list[dict[str, str]], company: str | None, total: int = 0) -> str:
    """`you know 2 people at Acme (Dana Lee, Staff Engineer; Sam Roe)`; '' for nobody.
    Takes the JSON form (`Known.to_json()`), as a Match carries it; `total` counts
    the people when `people` holds only the first of them."""
    if not people:
        return ""
    total = max(total, len(people))
    shown = "; ".join(", ".join(part for part in (p["name"], p["position"]) if part)
                      for p in people[:SHOWN])
    more = f"; {total - SHOWN} more" if total > SHOWN else ""
    count = "1 person" if total == 1 else f"{total} people"
    where = one_line(company or people[0].get("company"))
    return f"you know {count} at {where} ({shown}{more})"
