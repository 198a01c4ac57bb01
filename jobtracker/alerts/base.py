"""What every alert sender shares: lines, job links, cards, and the reading of a card.

A mail's HTML part and its text part are both turned into `Line`s (a line of text,
the job link it carries, the card box it sits in); a sender cuts the lines into
cards (`Sender.split`) and reads each card into a posting (`Sender.card`). The
cutting differs by part (in HTML a card starts at its first link; in text it ends
at its link), the reading does not: one card logic for both parts.

A sender module is pure: no mailbox, no database, no clock. It names the domains
it sends from (matched dot-bounded, never as a substring), the subject and body
words that tell its alerts from its other mail, and the shape of its job links.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from urllib.parse import parse_qs, quote_plus, unquote_plus, urlsplit

from jobtracker.hosts import host_in
from jobtracker.sources.base import NormalizedPosting
from jobtracker.text import one_line

# The description source of a card's snippet: never a job's own prose, so the judge
# waits for a board's text (docs/alerts.md).
ALERT_SOURCE = "alert"
# Bounds, so a hostile or broken mail costs little and never hangs a fetch.
MAX_CARDS = 100              # cards read from one mail
MAX_CARD_LINES = 16          # lines one card may hold before it is cut
MAX_CARD_LINKS = 12          # links one card may hold; more are counted and ignored
MAX_LINE_CHARS = 400         # a line is cut to this
MAX_LINES_LOOKED = 2_000     # lines looked through to tell a text part's layout
SNIPPET_CHARS = 500          # the snippet kept as the card's short description
FIELD_CHARS = 200            # title, company, location

# Characters mail senders pad or split text with, invisible to a reader: the combining
# grapheme joiner (LinkedIn's preheader padding), zero-width spaces and joiners, the
# word joiner, the byte-order mark, the soft hyphen. Odd spaces become spaces.
_INVISIBLE = {ord(ch): None for ch in "\u034f\u200b\u200c\u200d\u2060\ufeff\u00ad"}
_INVISIBLE.update({ord(ch): " " for ch in "\u00a0\u2007\u202f\u2009\u200a\u3000"})


def tidy(text: str, limit: int = MAX_LINE_CHARS) -> str:
    """One clean line: invisible marks gone, accents composed (NFC), controls removed,
    whitespace collapsed, at most `limit` characters."""
    if not text:
        return ""
    if not text.isascii():      # every invisible mark is outside ASCII
        text = unicodedata.normalize("NFC", text.translate(_INVISIBLE))
    elif text.isprintable():    # the usual line: nothing to clean, only spaces to fold
        flat = " ".join(text.split())
        if len(flat) <= limit:
            return flat
    return one_line(text, limit)


@dataclass(slots=True)
class Line:
    """One line of a mail part: its text, the link it carries (None: none), the card
    box it sits in (0: none; HTML only), and whether a blank line came before it."""

    text: str
    href: str | None = None
    box: int = 0
    gap: bool = False


@dataclass(frozen=True)
class JobLink:
    """What a job link says: `key` tells two cards apart; `external_id` and `url` are
    the stable id and canonical page when the link carries them (None otherwise)."""

    key: str
    external_id: str | None = None
    url: str | None = None
    site: str = ""            # the sender's site the link is on (its country's currency)


@dataclass
class Mail:
    """A mail as the senders read it (jobtracker.alerts.mime makes it)."""

    key: str                       # Message-ID, else hash:<16 hex> of the bytes read
    message_id: str
    address: str                   # the sender's address, lower case
    display: str                   # the sender's display name
    subject: str
    date: str | None               # UTC ISO 8601 from Date:, None when absent or odd
    html: str | None = None
    text: str | None = None
    headers: dict[str, str] = field(default_factory=dict)   # a few X- headers, lower keys
    unwalkable: bool = False       # its MIME tree could not be walked (nested too deep)

    @property
    def domain(self) -> str:
        return self.address.rpartition("@")[2] if "@" in self.address else ""

    @property
    def local(self) -> str:
        return self.address.rpartition("@")[0] if "@" in self.address else ""


@dataclass
class Counts:
    """What a reading had to leave out, for the fetch line: never silently."""

    unsafe_links: int = 0          # javascript:, file:, data: ... links refused
    over_bounds: int = 0           # cards, links or tags past a bound
    unreadable: int = 0            # cards with a link but no title

    @property
    def total(self) -> int:
        return self.unsafe_links + self.over_bounds + self.unreadable


# --- small readers every sender uses ------------------------------------------------

def domain_is(domain: str, *suffixes: str) -> bool:
    """Whether `domain` is one of `suffixes` or a subdomain of one: dot-bounded, so
    `linkedin.com.example` and `evil-linkedin.com` are not `linkedin.com`."""
    return host_in(domain, suffixes)


_HOST = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]{0,20}://(?:[^/?#@]{0,200}@)?([^/?#:@\\]{1,253})")


def host_of(href: str) -> str:
    """A link's host, lower case ('' when it has none): a search, not urlsplit, since
    every link of a mail is asked."""
    found = _HOST.match(href)
    return found.group(1).lower().rstrip(".") if found else ""


def param(href: str, *names: str) -> str:
    """The first of `names` in a link's query, decoded ('' when absent)."""
    query_at = href.find("?")
    if query_at < 0:
        return ""
    text = href[query_at + 1:].split("#", 1)[0]
    for name in names:
        found = _param_pattern(name).search(text)
        if found:
            return unquote_plus(found.group(1))
    return ""


@lru_cache(maxsize=64)
def _param_pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?:^|&){re.escape(name)}=([^&]*)")


def query(href: str) -> dict[str, list[str]]:
    try:
        return parse_qs(urlsplit(href).query, max_num_fields=64)
    except ValueError:
        return {}


def first(values: dict[str, list[str]], *names: str) -> str:
    for name in names:
        if values.get(name):
            return values[name][0]
    return ""


_WORDS = re.compile(r"\w+")
_REMOTE = re.compile(r"\bremote\b|télétravail|remoto|home ?office")
_ONSITE = re.compile(r"\bon-?site\b|sur site|\bhybrid|hybride|in office|présentiel")
_PAY = re.compile(r"[$€£]\s?\d|\d\s?[kK]?\s?(?:€|EUR|CHF)|\bpay\b")
_DIGIT = re.compile(r"\d")


def _norm(text: str) -> str:
    return " ".join(_WORDS.findall(unicodedata.normalize("NFKC", text).casefold()))


# Work-place notes a location carries in one sender and not another.
_ARRANGEMENT = re.compile(
    r"\s*\((?:remote|hybrid|on-?site|in-?person|in person|hybride|sur site|télétravail|remoto"
    r"|híbrido)\)\s*$", re.I)


def location_key(location: str) -> str:
    return _norm(_ARRANGEMENT.sub("", location))


def hashed_id(sender: str, company: str, title: str, location: str) -> str:
    """The identity of a card whose links carry no stable id: its company, title and
    place, normalised, hashed. The same job in tomorrow's mail hashes the same."""
    basis = "|".join((_norm(company), _norm(title), location_key(location)))
    return f"{sender}:h{hashlib.sha256(basis.encode()).hexdigest()[:16]}"


def search_url(base: str, **params: str) -> str:
    """A site's own search for a card that has no stable page (no tracking in it)."""
    return base + "?" + "&".join(f"{k}={quote_plus(v)}" for k, v in params.items() if v)


def remote_of(location: str) -> bool | None:
    low = location.lower()
    if _REMOTE.search(low):
        return True
    if _ONSITE.search(low):
        return False
    return None


_WRAPPED = re.compile(r"[\d,.]$")
_CONTINUED = re.compile(r"^\d{3}\b")


def join_wrapped(lines: Sequence[str]) -> list[str]:
    """Lines with a number broken across two of them joined back ("… Up to £130" /
    "000 + Bonus" is one title): a text part wraps long lines at a fixed width."""
    out: list[str] = []
    for line in lines:
        if out and _WRAPPED.search(out[-1]) and _CONTINUED.match(line):
            joiner = "" if out[-1].endswith((",", ".")) else ","
            out[-1] = out[-1] + joiner + line
        else:
            out.append(line)
    return out


# --- salary ---------------------------------------------------------------------------

# The currency a bare "$" or "£" stands for on a sender's country site (the host's
# first label or its last: `ca.indeed.com`, `www.glassdoor.ca`, `uk.indeed.com`).
COUNTRY_CURRENCY = {"ca": "CAD", "au": "AUD", "nz": "NZD", "sg": "SGD", "hk": "HKD",
                    "ch": "CHF", "uk": "GBP", "gb": "GBP", "ie": "EUR", "de": "EUR",
                    "fr": "EUR", "nl": "EUR", "be": "EUR", "at": "EUR", "es": "EUR",
                    "it": "EUR", "in": "INR", "mx": "MXN"}
_BARE = frozenset(("$", "£"))


def site_currency(host: str) -> str | None:
    """The currency of the country a sender's site is for, from its host name."""
    labels = host.lower().rstrip(".").split(".")
    if len(labels) >= 3 and labels[0] in COUNTRY_CURRENCY:
        return COUNTRY_CURRENCY[labels[0]]        # uk.indeed.com
    if labels and labels[-1] in COUNTRY_CURRENCY:
        return COUNTRY_CURRENCY[labels[-1]]       # glassdoor.ca
    if len(labels) >= 2 and labels[-2] in ("co", "com") and labels[-1] in COUNTRY_CURRENCY:
        return COUNTRY_CURRENCY[labels[-1]]
    return None


_CURRENCY = (("CA$", "CAD"), ("C$", "CAD"), ("A$", "AUD"), ("AU$", "AUD"), ("US$", "USD"),
             ("$", "USD"), ("€", "EUR"), ("£", "GBP"), ("CHF", "CHF"), ("EUR", "EUR"),
             ("USD", "USD"), ("GBP", "GBP"))
_AMOUNT = r"(\d{1,3}(?:[,.\u202f ]\d{3})+|\d+(?:[.,]\d+)?)\s*([kKmM])?"
_SYMBOL = r"(CA\$|C\$|AU?\$|US\$|\$|€|£|CHF|EUR|USD|GBP)"
# "$125K/yr - $175K/yr": a unit may follow the first amount too.
_PER = r"(?:\s*/\s*(?:yr|year|hr|hour|mo|month))?"
_RANGE = re.compile(
    rf"{_SYMBOL}?\s?{_AMOUNT}\s*{_SYMBOL}?{_PER}\s*(?:-|–|—|to|à|bis)\s*{_SYMBOL}?\s?"
    rf"{_AMOUNT}\s*{_SYMBOL}?", re.I)
_SINGLE = re.compile(rf"{_SYMBOL}\s?{_AMOUNT}|{_AMOUNT}\s*{_SYMBOL}", re.I)
_HOURLY = re.compile(r"an hour|per hour|/\s?h(?:ou)?r\b|hourly|/heure|de l'heure|pro stunde",
                     re.I)
_MONTHLY = re.compile(r"a month|per month|/\s?mo(?:nth)?\b|monthly|par mois|/mois", re.I)
_YEARLY = re.compile(r"a year|per year|/\s?yr\b|/\s?year|yearly|annual|par an|/an\b|pro jahr",
                     re.I)


def _amount(digits: str, suffix: str | None) -> float | None:
    text = digits.replace("\u202f", "").replace(" ", "")
    if re.fullmatch(r"\d{1,3}(?:[,.]\d{3})+", text):
        value = float(re.sub(r"[,.]", "", text))
    else:
        value = float(text.replace(",", "."))
    if suffix and suffix.lower() == "m":
        return None          # "$250M+": a company's funding, never a salary
    return value * 1000 if suffix else value


def _currency(*symbols: str | None) -> str | None:
    for symbol in symbols:
        if symbol:
            for mark, code in _CURRENCY:
                if symbol.upper() == mark.upper():
                    return code
    return None


def salary(text: str, bare: str | None = None) -> tuple[float, float | None, str] | None:
    """(yearly minimum, maximum or None, currency) when `text` states a yearly pay with
    a currency: "$75,000 - $100,000 a year", "$183K - $237K", "€60–80k". Hourly and
    monthly pay are not yearly salaries (the postings table holds those only).
    `bare`: the currency a bare "$" or "£" stands for (the sender's country site)."""
    if _HOURLY.search(text) or _MONTHLY.search(text):
        return None
    found = _RANGE.search(text)
    if found:
        s1, low, k1, s2, s3, high, k2, s4 = found.groups()
        currency = _currency(s1, s2, s3, s4)
        if bare and next((x for x in (s1, s2, s3, s4) if x), None) in _BARE:
            currency = bare
        # "$173–233k": the suffix written once counts for both ends.
        lo, hi = _amount(low, k1 or k2), _amount(high, k2 or k1)
        yearly = bool(k1 or k2) or bool(_YEARLY.search(text))
        # Under 1,000 a year is no salary ("$25 - $28 / yr" is an hourly rate mislabelled).
        if currency and lo is not None and hi is not None and 1000 <= lo <= hi and (
                yearly or lo >= 1000):
            return lo, hi, currency
        return None
    single = _SINGLE.search(text)
    if single:
        groups = single.groups()
        if groups[0]:
            currency, value = _currency(groups[0]), _amount(groups[1], groups[2])
        else:
            currency, value = _currency(groups[5]), _amount(groups[3], groups[4])
        if bare and (groups[0] or groups[5]) in _BARE:
            currency = bare
        if currency and value and (value >= 1000):
            return value, None, currency
    return None


def looks_like_salary(text: str) -> bool:
    return _PAY.search(text) is not None and _DIGIT.search(text) is not None


# --- age ------------------------------------------------------------------------------

_AGE = re.compile(
    r"^(?:(just posted|today|new|aujourd'hui|heute|nouveau|publié à l'instant|posted today)"
    r"|(?:active |posted |il y a |vor )?(\d{1,3})\+?\s*"
    r"(h|d|w|hours?|days?|weeks?|months?|jours?|semaines?|mois|stunden?|tagen?|wochen?)"
    r"(?: ago)?)$", re.I)


def age_days(text: str) -> float | None:
    """Days since a card says the job was posted ("Just posted", "3 days ago", "21h",
    "7d", "30+ days ago"); None when the line is no age."""
    found = _AGE.match(text.strip())
    if not found:
        return None
    if found.group(1):
        return 0.0
    number, unit = int(found.group(2)), found.group(3).lower()
    if unit.startswith(("h", "stund")):
        return number / 24
    if unit.startswith(("w", "sem", "woch")):
        return number * 7.0
    if unit.startswith(("month", "mois")):
        return number * 30.0
    return float(number)


def posted_at(mail_date: str | None, days: float | None) -> str | None:
    """The posting date an age implies, counted from the mail's own Date: (an alert read
    a week late still dates its cards right)."""
    if mail_date is None or days is None:
        return None
    try:
        sent = datetime.fromisoformat(mail_date.replace("Z", "+00:00"))
    except ValueError:
        return None
    return (sent - timedelta(days=days)).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# --- the card ---------------------------------------------------------------------------

@dataclass
class CardText:
    """A card's lines without chrome and badges, the links it holds, and its mail."""

    lines: list[str]
    links: list[JobLink]
    mail: Mail
    part: str                    # "html" or "text"


def posting(sender: str, card: CardText, *, title: str, company: str, location: str = "",
            snippet: str = "", pay: str = "", age: str = "", url: str | None = None,
            search: str = "", bare: str | None = None) -> NormalizedPosting | None:
    """The posting a card stands for; None when it has no title or company.

    The id and page come from the card's first link that carries them, else the id
    is a hash of company, title and place and the page a search on the sender's site
    (`search`): a tracking link is never stored."""
    title, company, location = (tidy(title, FIELD_CHARS), tidy(company, FIELD_CHARS),
                                tidy(location, FIELD_CHARS))
    if not title or not company:
        return None
    with_id = next((link for link in card.links if link.external_id), None)
    external_id = with_id.external_id if with_id else hashed_id(sender, company, title,
                                                                location)
    page = url or (with_id.url if with_id and with_id.url else None) or next(
        (link.url for link in card.links if link.url), None) or search
    if bare is None:
        bare = next((site_currency(link.site) for link in card.links if link.site), None)
    found = salary(pay, bare) if pay else None
    if pay and found is None:      # an hourly or monthly pay: shown, not stored as salary
        snippet = f"{pay}. {snippet}" if snippet else pay
    return NormalizedPosting(
        external_id=external_id or "", title=title, company=company, location=location,
        remote=remote_of(location), url=page or "",
        description=tidy(snippet, SNIPPET_CHARS) or None, description_source=ALERT_SOURCE,
        salary_min=found[0] if found else None, salary_max=found[1] if found else None,
        salary_currency=found[2] if found else None,
        posted_at=posted_at(card.mail.date, age_days(age)) if age else None)


# --- a sender ---------------------------------------------------------------------------

class Sender:
    """One sender family. A module subclasses this and sets the class attributes; the
    defaults cut cards the usual way (HTML: a card starts at a link to a new job; text:
    a card ends at its job link), and `read` turns a card's lines into a posting."""

    name: str = ""                         # the token of its board: `alerts:<name>`
    label: str = ""                        # its name for people
    domains: tuple[str, ...] = ()          # the sender's domains (dot-bounded)
    # Local parts that send alerts; empty: any address at the domains.
    locals: tuple[str, ...] = ()
    # A mail is an alert when its subject matches one of these ...
    subjects: tuple[re.Pattern[str], ...] = ()
    # ... or its body (either part) holds one of these words.
    markers: tuple[str, ...] = ()
    # Lines that are the mail's own furniture (headers, buttons, footers): never a card's.
    chrome: tuple[re.Pattern[str], ...] = ()
    # Lines inside a card that say nothing about the job itself.
    badges: tuple[re.Pattern[str], ...] = ()
    # HTML: (tag, class word) of the element that holds one card, when the sender has one.
    box: tuple[str, str] | None = None
    # Text: a card is only the paragraph before its link (no blank line inside a card).
    text_paragraph: bool = False
    # Text: the job link sits on the card's first line (the title), details after it.
    text_link_first: bool = False
    # Text: a line of 10 or more of these separates cards.
    rule: str = "-"
    # Cards whose link comes last in both parts ("Learn More"): HTML is cut as text is.
    link_last: bool = False

    # -- recognising ------------------------------------------------------------------
    def sends(self, address: str) -> bool:
        local, _, domain = address.lower().rpartition("@")
        if not domain_is(domain, *self.domains):
            return False
        return not self.locals or local in self.locals

    def is_alert(self, mail: Mail, body: str) -> bool:
        """Whether a mail from this sender is a job alert (its other mail is not)."""
        if any(p.search(mail.subject) for p in self.subjects):
            return True
        low = body.lower()
        return any(marker in low for marker in self.markers)

    def template(self, mail: Mail) -> str:
        """Which of the sender's layouts the mail is, for people and the docs."""
        return "alert"

    # -- links --------------------------------------------------------------------------
    def job_link(self, href: str) -> JobLink | None:
        """What a link to a job says; None for any other link."""
        raise NotImplementedError

    # -- cutting ------------------------------------------------------------------------
    def __init__(self) -> None:
        # One search per line instead of one per pattern: every line of a mail is asked.
        self._chrome = _joined(self.chrome)
        self._badges = _joined(self.badges)

    def is_chrome(self, text: str) -> bool:
        # "View job:", "Voir l'offre :": a label's colon (and the space French puts
        # before it) is no part of the words matched.
        return self._chrome(text) or (text[-1:] == ":" and self._chrome(text.rstrip(" :")))

    def is_badge(self, text: str) -> bool:
        return self._badges(text) or (text[-1:] == ":" and self._badges(text.rstrip(" :")))

    def is_rule(self, text: str) -> bool:
        return len(text) >= 10 and text.strip(self.rule + " ") == ""

    def split(self, lines: Sequence[Line], part: str, counts: Counts
              ) -> list[tuple[list[Line], list[JobLink]]]:
        if part == "html" and not self.link_last:
            if self.box is not None and any(line.box for line in lines):
                return self.split_boxes(lines, counts)
            return self.split_html(lines, counts)
        return self.split_text(lines, counts)

    def split_boxes(self, lines: Sequence[Line], counts: Counts
                    ) -> list[tuple[list[Line], list[JobLink]]]:
        """HTML with a card element: the lines of each box are one card."""
        cards: dict[int, tuple[list[Line], list[JobLink]]] = {}
        for line in lines:
            if not line.box or self.is_chrome(line.text):
                continue
            body, links = cards.setdefault(line.box, ([], []))
            link = self.job_link(line.href) if line.href else None
            if link is not None:
                _add_link(links, link, counts)
            if line.text and len(body) < MAX_CARD_LINES:
                body.append(line)
        return [card for card in cards.values() if card[1]]

    def split_html(self, lines: Sequence[Line], counts: Counts
                   ) -> list[tuple[list[Line], list[JobLink]]]:
        """A card starts at a link to a job other than the current card's, and takes
        the lines after it until the next job, a link elsewhere, or the mail's chrome."""
        cards: list[tuple[list[Line], list[JobLink]]] = []
        current: tuple[list[Line], list[JobLink]] | None = None
        keys: set[str] = set()
        for line in lines:
            if line.text and self.is_chrome(line.text):
                current = None
                continue
            link = self.job_link(line.href) if line.href else None
            if line.href and link is None:
                current = None          # a link elsewhere (see all, settings): chrome
                continue
            if link is not None and (current is None or link.key not in keys):
                if current is not None and line.text and self.is_badge(line.text):
                    keys.add(link.key)     # a button of this card with a link of its own
                else:
                    current, keys = ([], []), {link.key}
                    cards.append(current)
            if current is None:
                continue
            if link is not None:
                keys.add(link.key)
                _add_link(current[1], link, counts)
            if line.text:
                if len(current[0]) >= MAX_CARD_LINES:
                    counts.over_bounds += 1
                    current = None
                    continue
                current[0].append(line)
        return cards

    def split_text(self, lines: Sequence[Line], counts: Counts
                   ) -> list[tuple[list[Line], list[JobLink]]]:
        """A card is the lines between two job links: those before its link, back to
        the last job link, rule, other link or line of the mail's chrome. Blank lines
        inside a card do not end it (LinkedIn puts one before its badges, Glassdoor and
        some LinkedIn layouts one between every field); senders whose text cards never
        hold one (`text_paragraph`) may still cut at a blank line. For senders whose
        link sits on the title line (`text_link_first`), the card is that line and the
        ones after it, up to the next job link that is not one of its buttons."""
        if self.text_link_first or self._title_carries_link(lines):
            return self._split_link_first(lines, counts)
        cards: list[tuple[list[Line], list[JobLink]]] = []
        block: list[Line] = []
        for line in lines:
            link = self.job_link(line.href) if line.href else None
            if line.href and link is None:
                block = []
                continue
            if link is None and self.is_rule(line.text):
                block = []
                continue
            if line.gap and self.text_paragraph:
                block = []
            if link is None:
                if line.text:
                    block.append(line)
                    if len(block) > 4 * MAX_CARD_LINES:
                        block = block[-MAX_CARD_LINES:]
                continue
            text = line.text if line.text and not self.is_chrome(line.text) else ""
            body = block + ([replace(line, text=text)] if text else [])
            if cards and cards[-1][1] and cards[-1][1][0].key == link.key and not block:
                _add_link(cards[-1][1], link, counts)     # a second link of the same card
                continue
            cards.append((body[-MAX_CARD_LINES:], [link]))
            block = []
        return cards

    def _title_carries_link(self, lines: Sequence[Line]) -> bool:
        """Whether this mail's text puts each job link on its card's first line: the
        first line with a job link says more than a button or the mail's chrome."""
        for line in lines[:MAX_LINES_LOOKED]:
            if line.href and self.job_link(line.href) is not None and line.text:
                return not (self.is_chrome(line.text) or self.is_badge(line.text))
        return False

    def _split_link_first(self, lines: Sequence[Line], counts: Counts
                          ) -> list[tuple[list[Line], list[JobLink]]]:
        cards: list[tuple[list[Line], list[JobLink]]] = []
        current: tuple[list[Line], list[JobLink]] | None = None
        for line in lines:
            link = self.job_link(line.href) if line.href else None
            if (line.href and link is None) or self.is_rule(line.text) or (
                    line.text and self.is_chrome(line.text)):
                current = None
                continue
            if link is not None and line.text and not self.is_badge(line.text):
                current = ([line], [link])       # a title with its link: a new card
                cards.append(current)
                continue
            if current is None:
                continue
            if link is not None:
                _add_link(current[1], link, counts)   # a button of this card
            if line.text and len(current[0]) < MAX_CARD_LINES:
                current[0].append(line)
        return cards

    # -- reading ------------------------------------------------------------------------
    def clean(self, lines: Sequence[Line]) -> list[str]:
        """A card's lines without chrome and badges."""
        out = []
        for line in lines:
            text = line.text
            if text and not self.is_chrome(text) and not self.is_badge(text):
                out.append(text)
        return out

    def read(self, card: CardText) -> NormalizedPosting | None:
        """The posting a card's lines describe (each sender's own layout)."""
        raise NotImplementedError


def _add_link(links: list[JobLink], link: JobLink, counts: Counts) -> None:
    if any(existing.key == link.key for existing in links):
        return
    if len(links) >= MAX_CARD_LINKS:
        counts.over_bounds += 1
        return
    links.append(link)


def pattern(*texts: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(text, re.I) for text in texts)


class _Any:
    """Whether any of the patterns is found in a text, in at most two searches: one
    anchored at the start for the patterns that begin with `^` (most), one for the rest."""

    def __init__(self, patterns: tuple[re.Pattern[str], ...]) -> None:
        starts = [p.pattern[1:] for p in patterns if p.pattern.startswith("^")]
        anywhere = [p.pattern for p in patterns if not p.pattern.startswith("^")]
        self.start = re.compile("|".join(f"(?:{p})" for p in starts), re.I) if starts else None
        self.anywhere = (re.compile("|".join(f"(?:{p})" for p in anywhere), re.I)
                         if anywhere else None)

    def __call__(self, text: str) -> bool:
        return bool((self.start is not None and self.start.match(text))
                    or (self.anywhere is not None and self.anywhere.search(text)))


def _joined(patterns: tuple[re.Pattern[str], ...]) -> _Any:
    return _Any(patterns)


__all__ = [
    "ALERT_SOURCE",
    "CardText",
    "Counts",
    "JobLink",
    "Line",
    "Mail",
    "Sender",
    "age_days",
    "domain_is",
    "first",
    "hashed_id",
    "host_of",
    "join_wrapped",
    "looks_like_salary",
    "param",
    "pattern",
    "posted_at",
    "posting",
    "query",
    "remote_of",
    "salary",
    "search_url",
    "site_currency",
    "tidy",
]
