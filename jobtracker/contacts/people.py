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
from typing import TYPE_CHECKING, Any

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
    are never linked to a company), newest first."""
    return list(await conn.execute_fetchall(
        "SELECT sender, company, MAX(sent_at) AS at FROM messages "
        "WHERE company IS NOT NULL AND company != '' AND state IS NOT NULL "
        "AND state != 'not_application' GROUP BY sender, company ORDER BY at DESC"))


async def everyone(conn: aiosqlite.Connection) -> dict[str, list[Known]]:
    """Every contact by company key, imported ones first (by name), then the people who
    wrote (newest first); a person imported and also writing is listed once."""
    people: dict[str, list[Known]] = defaultdict(list)
    seen: set[tuple[str, str]] = set()
    rows = await conn.execute_fetchall(
        "SELECT name, position, company, company_key, source, email, url FROM contacts "
        "WHERE company_key != '' ORDER BY company_key, name, id")
    for row in rows:
        marker = (row["company_key"], row["name"].casefold())
        if marker in seen:
            continue
        seen.add(marker)
        people[row["company_key"]].append(Known(
            name=row["name"], position=row["position"], company=row["company"],
            source=row["source"], email=row["email"], url=row["url"]))
    for row in await _from_mail(conn):
        person = _person(row["sender"])
        key = company_key(row["company"])
        if person is None or not key:
            continue
        name, address = person
        marker = (key, name.casefold())
        if marker in seen:
            continue
        seen.add(marker)
        people[key].append(Known(name=name, position=f"wrote {str(row['at'])[:10]}",
                                 company=row["company"], source=MAIL, email=address))
    return dict(people)


class Directory:
    """Every contact, loaded once, asked per company: `known_at(company)`."""

    def __init__(self, people: dict[str, list[Known]]) -> None:
        self.people = people
        self._keys: dict[str, str] = {}

    @classmethod
    async def load(cls, conn: aiosqlite.Connection) -> Directory:
        has_any = await (await conn.execute(
            "SELECT EXISTS (SELECT 1 FROM contacts) OR EXISTS (SELECT 1 FROM messages "
            "WHERE company IS NOT NULL AND state IS NOT NULL)")).fetchone()
        return cls(await everyone(conn) if has_any is not None and has_any[0] else {})

    def known_at(self, company: str | None) -> list[Known]:
        if not self.people or not company:
            return []
        key = self._keys.get(company)
        if key is None:     # one normalization per distinct company name, not per row
            key = self._keys[company] = company_key(company)
        return self.people.get(key, [])


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
