"""Dates, times and zones in one sentence of a scheduling mail, and whether a model's
reading of that sentence holds (pure: no clock, no I/O; the mail's Date is given).

`slots(quote, sent, ...)` finds every time the sentence names — "Tuesday 3 December at
14:00 CET", "Dec 3, 2:30 pm PST", "2026-12-03 14:00 (UTC+01:00)", "tomorrow at 10",
"3 December, 14:00-15:00 or 16:00" — each paired with the date before it (or after it,
when none comes before). What makes a time uncertain is said, never guessed:

- a weekday that contradicts its date ("Tuesday 3 December" in a year where the 3rd is
  a Thursday) refuses the sentence;
- an hour with no am/pm and no minutes under 7 ("at 3") could be either;
- no zone in the sentence, none the model found elsewhere in the mail, and no
  `timezone:` of the user's: the proposal asks for one.

A year left out is the date's next occurrence from the mail's day; "today" and
"tomorrow" count from the mail's Date, in the zone the mail was written in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from jobtracker.text import one_line

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december")
DEFAULT_MINUTES = 60

# Abbreviations a mail writes, as the fixed offset each names (hours), and the zone of
# the region it usually stands for (to notice "CET" in July, when that region is on
# summer time). Ambiguous ones (IST, BST outside the UK...) are read as the list says.
ABBREVIATIONS: dict[str, tuple[float, str]] = {
    "UTC": (0, "UTC"), "GMT": (0, "Europe/London"), "Z": (0, "UTC"),
    "WET": (0, "Europe/Lisbon"), "WEST": (1, "Europe/Lisbon"),
    "BST": (1, "Europe/London"), "IST": (5.5, "Asia/Kolkata"),
    "CET": (1, "Europe/Berlin"), "CEST": (2, "Europe/Berlin"),
    "MEZ": (1, "Europe/Berlin"), "MESZ": (2, "Europe/Berlin"),
    "EET": (2, "Europe/Athens"), "EEST": (3, "Europe/Athens"),
    "MSK": (3, "Europe/Moscow"),
    "EST": (-5, "America/New_York"), "EDT": (-4, "America/New_York"),
    "CST": (-6, "America/Chicago"), "CDT": (-5, "America/Chicago"),
    "MST": (-7, "America/Denver"), "MDT": (-6, "America/Denver"),
    "PST": (-8, "America/Los_Angeles"), "PDT": (-7, "America/Los_Angeles"),
    "AKST": (-9, "America/Anchorage"), "HST": (-10, "Pacific/Honolulu"),
    "JST": (9, "Asia/Tokyo"), "KST": (9, "Asia/Seoul"), "SGT": (8, "Asia/Singapore"),
    "HKT": (8, "Asia/Hong_Kong"), "AEST": (10, "Australia/Sydney"),
    "AEDT": (11, "Australia/Sydney"), "NZST": (12, "Pacific/Auckland"),
    "NZDT": (13, "Pacific/Auckland"),
}
# US zones written without standard/daylight ("PT", "ET"): the region's time that day.
REGIONS = {"PT": "America/Los_Angeles", "MT": "America/Denver", "CT": "America/Chicago",
           "ET": "America/New_York"}


class Refused(ValueError):
    """The sentence names a time that cannot be right (a weekday against its date)."""


@dataclass(frozen=True)
class Zone:
    tz: tzinfo
    name: str | None        # an IANA name, when the zone is one
    written: str            # as the mail wrote it ("CET", "UTC+1", "Europe/Berlin")


@dataclass(frozen=True)
class Slot:
    """One time the sentence names, certain."""

    start: datetime                 # aware
    end: datetime
    zone: str | None                # IANA name, when known
    written: str                    # the zone as written ("" when it came from elsewhere)
    notes: tuple[str, ...] = ()

    def key(self) -> str:
        """The local date and time as the mail meant it: YYYY-MM-DDTHH:MM."""
        return f"{self.start:%Y-%m-%dT%H:%M}"


@dataclass(frozen=True)
class Found:
    """What a sentence holds: the certain slots, or why there is none."""

    slots: list[Slot] = field(default_factory=list)
    local: list[str] = field(default_factory=list)   # YYYY-MM-DDTHH:MM of each time named
    problem: str | None = None       # why no slot is certain
    ask_zone: bool = False           # times are certain but for their zone


# --- the pieces of a sentence --------------------------------------------------------------

_WD = r"(?P<wd>mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|" \
      r"fri(?:day)?|sat(?:urday)?|sun(?:day)?)\.?,?\s+(?:the\s+)?"
_MON = r"(?P<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|" \
       r"aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?:,?\s+(?P<year>\d{4}))?"
DATES = [
    re.compile(rf"\b(?:{_WD})?(?P<y>\d{{4}})-(?P<m>\d{{2}})-(?P<d>\d{{2}})\b", re.I),
    re.compile(rf"\b(?:{_WD})?{_DAY}(?:\s+of)?\s+{_MON}{_YEAR}\b", re.I),
    re.compile(rf"\b(?:{_WD})?{_MON}\s+{_DAY}\b{_YEAR}", re.I),
    re.compile(r"\b(?P<rel>today|tomorrow)\b", re.I),
    re.compile(r"\b(?:on\s+|next\s+|this\s+)(?P<only>monday|tuesday|wednesday|thursday|"
               r"friday|saturday|sunday)\b", re.I),
]
_MERIDIEM = r"(?:\s*(?P<mer{n}>[ap])\.?\s?m\b\.?)"
_CLOCK = (r"(?P<h{n}>\d{{1,2}})(?:(?::|\.|h)(?P<mi{n}>\d{{2}})|(?P<hh{n}>h)(?!\w))?"
          + _MERIDIEM + "?")
TIME = re.compile(
    r"(?<![\d:.])(?:(?P<noon>noon|midday)|" + _CLOCK.format(n=1)
    + r"(?:\s*(?:-|–|to|until|till)\s*" + _CLOCK.format(n=2) + r")?)(?![\d:])", re.I)
_OFFSET = r"(?P<sign>[+-−])\s?(?P<oh>\d{1,2})(?::?(?P<om>\d{2}))?"
ZONE = re.compile(
    r"^\s*\(?\s*(?:(?P<utc>UTC|GMT)\s*(?:" + _OFFSET + r")?|(?P<bare>[+-]\d{2}:?\d{2})"
    r"|(?P<abbr>[A-Z]{1,5})\b|(?P<iana>[A-Z][A-Za-z_]+/[A-Za-z_]+(?:/[A-Za-z_]+)?))\s*\)?")
IANA = re.compile(r"\b([A-Z][a-z]+(?:_[A-Z][a-z]+)*/[A-Z][A-Za-z_]+(?:/[A-Z][A-Za-z_]+)?)\b")


@dataclass(frozen=True)
class _Date:
    at: int
    end: int
    day: date | None
    weekday: str | None
    problem: str | None = None
    relative: int | None = None     # today 0, tomorrow 1: counted in the time's own zone


@dataclass(frozen=True)
class _Time:
    at: int
    end: int
    start: time | None
    until: time | None
    zone: Zone | None
    problem: str | None = None


def _month(text: str) -> int:
    return next(i for i, name in enumerate(MONTHS, 1) if name.startswith(text.lower()[:3]))


def _weekday(text: str) -> int:
    return next(i for i, name in enumerate(WEEKDAYS) if name.startswith(text.lower()[:3]))


def _dates(quote: str, today: date) -> list[_Date]:
    found: list[_Date] = []
    taken: list[range] = []
    for pattern in DATES:
        for m in pattern.finditer(quote):
            if any(m.start() in span for span in taken):
                continue
            taken.append(range(m.start(), m.end()))
            groups = m.groupdict()
            weekday = groups.get("wd") or groups.get("only")
            try:
                if groups.get("y"):
                    day = date(int(groups["y"]), int(groups["m"]), int(groups["d"]))
                elif groups.get("mon"):
                    month, dom = _month(groups["mon"]), int(groups["day"])
                    if groups.get("year"):
                        day = date(int(groups["year"]), month, dom)
                    else:
                        day = date(today.year, month, dom)
                        if day < today:
                            day = date(today.year + 1, month, dom)
                elif groups.get("rel"):
                    ahead = int(groups["rel"].lower() == "tomorrow")
                    found.append(_Date(m.start(), m.end(), today + timedelta(days=ahead), None,
                                       relative=ahead))
                    continue
                else:
                    ahead = (_weekday(weekday or "") - today.weekday()) % 7
                    if ahead == 0:
                        said = m.group(0).strip()
                        found.append(_Date(m.start(), m.end(), None, None,
                                           f"'{said}', written on a "
                                           f"{WEEKDAYS[today.weekday()].title()}, could be "
                                           "today or in a week"))
                        continue
                    day, weekday = today + timedelta(days=ahead), None
            except ValueError:
                found.append(_Date(m.start(), m.end(), None, None,
                                   f"'{m.group(0).strip()}' is not a date"))
                continue
            found.append(_Date(m.start(), m.end(), day, weekday))
    return sorted(found, key=lambda d: d.at)


def _clock(h: str | None, mi: str | None, mer: str | None, bare: bool) -> time | str:
    hour, minute = int(h or 0), int(mi or 0)
    if mer:
        if not 1 <= hour <= 12:
            return f"{hour} {mer}m is not a time"
        hour = hour % 12 + (12 if mer.lower() == "p" else 0)
    elif bare and 1 <= hour <= 6:
        return f"'{hour}' could be morning or afternoon"
    if hour > 23 or minute > 59:
        return f"{hour}:{minute:02d} is not a time"
    return time(hour, minute)


def _zone(text: str, moment: date, user_zone: str | None) -> Zone | None:
    """The zone written right after a time, if one is."""
    m = ZONE.match(text)
    if not m:
        return None
    if m.group("iana"):
        try:
            return Zone(ZoneInfo(m.group("iana")), m.group("iana"), m.group("iana"))
        except (ZoneInfoNotFoundError, ValueError):
            return None
    if m.group("utc") or m.group("bare"):
        written = m.group(0).strip(" ()")
        if m.group("bare"):
            sign, digits = m.group("bare")[0], m.group("bare")[1:].replace(":", "")
            hours, minutes = int(digits[:2]), int(digits[2:])
        else:
            sign = (m.group("sign") or "+").replace("−", "-")
            hours, minutes = int(m.group("oh") or 0), int(m.group("om") or 0)
        offset = timedelta(hours=hours, minutes=minutes) * (-1 if sign == "-" else 1)
        if abs(offset) > timedelta(hours=14) or minutes > 59:
            raise Refused(f"{written} is no time zone (offsets run from UTC-12 to UTC+14)")
        return Zone(timezone(offset), "UTC" if not offset else None, written)
    abbr = m.group("abbr")
    if abbr in REGIONS:
        return Zone(ZoneInfo(REGIONS[abbr]), REGIONS[abbr], abbr)
    if abbr in ABBREVIATIONS:
        hours, _region = ABBREVIATIONS[abbr]
        return Zone(timezone(timedelta(hours=hours)), "UTC" if not hours else None, abbr)
    return None


def _times(quote: str, day_hint: date, user_zone: str | None) -> list[_Time]:
    found = []
    zone_end = -1        # "UTC+01:00" after a time: its "01:00" is no time of its own
    for m in TIME.finditer(quote):
        if m.start() < zone_end:
            continue
        g = m.groupdict()
        if g["noon"]:
            start: time | str = time(12, 0)
            until: time | str | None = None
        else:
            # A number alone is a time only after "at"/"from" ("at 10"), with a meridiem,
            # minutes or an "h" ("14h"); else it is a count or a day ("3 December").
            before = quote[max(0, m.start() - 6):m.start()].lower()
            plain = not (g["mi1"] or g["mer1"] or g["hh1"])
            if plain and not re.search(r"\b(?:at|from|um|à)\s*$", before):
                continue
            mer1 = g["mer1"] or (g["mer2"] if g["h2"] else None)
            start = _clock(g["h1"], g["mi1"], mer1, plain)
            until = _clock(g["h2"], g["mi2"], g["mer2"] or mer1, False) if g["h2"] else None
        if isinstance(start, str) or isinstance(until, str):
            problem = start if isinstance(start, str) else str(until)
            found.append(_Time(m.start(), m.end(), None, None, None, problem))
            continue
        after = quote[m.end():m.end() + 40]
        zone = _zone(after, day_hint, user_zone)
        if zone is not None:
            matched = ZONE.match(after)
            zone_end = m.end() + (matched.end() if matched else 0)
        found.append(_Time(m.start(), m.end(), start, until, zone))
    return found


def mail_zone(quote: str, written: str) -> Zone | None:
    """A zone the model found elsewhere in the mail ("all times are CET"), read the
    same way as one written after a time."""
    text = written.strip()
    if not text:
        return None
    found = IANA.search(text)
    return _zone(found.group(1) if found else text, date.today(), None)


def _note_local(naive: datetime, zone: Zone) -> tuple[str, ...]:
    """A local time the clocks skip (spring forward) or pass twice (fall back) there."""
    first, second = naive.replace(tzinfo=zone.tz, fold=0), naive.replace(tzinfo=zone.tz, fold=1)
    where = zone.name or zone.written
    if first.utcoffset() == second.utcoffset():
        return ()
    back = first.astimezone(UTC).astimezone(zone.tz).replace(tzinfo=None)
    if back != naive:
        return (f"{naive:%H:%M} does not exist on {naive:%-d %B %Y} in {where} (the clocks "
                f"spring forward); read as {back:%H:%M}: check the time with the employer",)
    return (f"{naive:%H:%M} happens twice on {naive:%-d %B %Y} in {where} (the clocks go "
            "back); read as the first: check which the employer meant",)


def _note_season(zone: Zone, moment: datetime) -> tuple[str, ...]:
    """"CET" written for a day its region is on summer time (and the reverse)."""
    if zone.written not in ABBREVIATIONS:
        return ()
    hours, region = ABBREVIATIONS[zone.written]
    actual = moment.replace(tzinfo=ZoneInfo(region)).utcoffset()
    named = timedelta(hours=hours)
    if actual is None or actual == named or region == "UTC":
        return ()
    sign = "+" if actual >= timedelta(0) else "-"
    total = abs(int(actual.total_seconds())) // 60
    return (f"{zone.written} is UTC{'+' if hours >= 0 else ''}{hours:g}, but {region} is on "
            f"UTC{sign}{total // 60:02d}:{total % 60:02d} that day; check which the "
            "employer meant",)


# How far from the mail's Date an interview it names may be: about two years. A date
# past it is a slip (a year typed wrong) or hostile (year 9999 overflows a calendar).
HORIZON = timedelta(days=2 * 366)


def slots(quote: str, sent: datetime, *, user_zone: str | None = None,
          mail_zone_text: str = "", minutes: int = 0) -> Found:
    """Every certain time `quote` names (see the module note). `sent` is the mail's
    Date, aware, in the zone it was written in.

    Every error of reading a date is a Refused with its reason, never another error
    the scheduling unit would fail on: a day more than HORIZON from `sent`, a zone
    past ±24 hours (`UTC+25`), a time past year 9999 (`OverflowError`)."""
    try:
        return _slots(quote, sent, user_zone, mail_zone_text, minutes)
    except Refused:
        raise
    except (ValueError, OverflowError, ArithmeticError) as exc:
        raise Refused(f"not a time there can be: {one_line(str(exc), 120)}") from None


def _slots(quote: str, sent: datetime, user_zone: str | None, mail_zone_text: str,
           minutes: int) -> Found:
    today = sent.date()
    dates = _dates(quote, today)
    times = _times(quote, today, user_zone)
    refused = [d.problem for d in dates if d.problem] + [t.problem for t in times if t.problem]
    for d in dates:
        if d.day is not None and d.weekday and _weekday(d.weekday) != d.day.weekday():
            raise Refused(f"the mail says {d.weekday.title()}, but {d.day:%-d %B %Y} is a "
                          f"{WEEKDAYS[d.day.weekday()].title()}")
    good_dates = [d for d in dates if d.day is not None]
    good_times = [t for t in times if t.start is not None]
    if not good_times or not good_dates:
        what = "no time of day" if not good_times else "no date"
        return Found(problem="; ".join(refused) or f"the sentence names {what}")
    fallback = mail_zone(quote, mail_zone_text)
    user = Zone(ZoneInfo(user_zone), user_zone, "") if user_zone else None
    out: list[Slot] = []
    local: list[str] = []
    ask = False
    for t in good_times:
        before = [d for d in good_dates if d.at < t.at]
        d = before[-1] if before else good_dates[0]
        assert d.day is not None and t.start is not None
        naive = datetime.combine(d.day, t.start)
        local.append(f"{naive:%Y-%m-%dT%H:%M}")
        zone = t.zone or next((z.zone for z in times if z.zone and z.at > t.at), None) \
            or fallback or user
        if zone is None:
            ask = True
            continue
        if d.relative is not None:
            # "tomorrow at 10 CET": tomorrow as the day is in CET when the mail was sent.
            naive = datetime.combine(sent.astimezone(zone.tz).date()
                                     + timedelta(days=d.relative), t.start)
            local[-1] = f"{naive:%Y-%m-%dT%H:%M}"
        start = naive.replace(tzinfo=zone.tz)
        if zone.name is None and user is not None and \
                start.utcoffset() == naive.replace(tzinfo=user.tz).utcoffset():
            zone = Zone(user.tz, user.name, zone.written)   # the user's own zone, by name
            start = naive.replace(tzinfo=zone.tz)
        if abs(start.astimezone(UTC) - sent.astimezone(UTC)) > HORIZON:
            raise Refused(f"{naive:%-d %B %Y} is more than two years from the mail's date "
                          f"({sent:%-d %B %Y}); not an interview time")
        notes = _note_local(naive, zone)
        # End times are reckoned in UTC: arithmetic on an aware time in a zone with
        # summer time counts wall-clock hours (60 minutes across the fall-back hour
        # would be 120).
        if t.until is not None:
            end = datetime.combine(naive.date(), t.until, tzinfo=zone.tz)
            if end.astimezone(UTC) <= start.astimezone(UTC):
                end = datetime.combine(naive.date() + timedelta(days=1), t.until,
                                       tzinfo=zone.tz)
        else:
            length = timedelta(minutes=minutes if 5 <= minutes <= 600 else DEFAULT_MINUTES)
            end = (start.astimezone(UTC) + length).astimezone(zone.tz)
        notes += _note_season(zone, naive)
        if zone is user and not t.zone:
            notes += ("the mail names no time zone: read in yours (config.yaml timezone)",)
        out.append(Slot(start, end, zone.name, zone.written, notes))
    if refused and not out and not ask:
        return Found(problem="; ".join(refused))
    return Found(slots=out, local=local, problem="; ".join(refused) or None, ask_zone=ask)


def holds(found: Found, start: str) -> bool:
    """Whether the model's `start` (YYYY-MM-DDTHH:MM, local as the mail wrote it) is one
    of the times the sentence names."""
    return start[:16] in found.local


__all__ = ["ABBREVIATIONS", "Found", "Refused", "Slot", "Zone", "holds", "slots"]
