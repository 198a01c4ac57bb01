"""sources.yaml: the boards and feeds `fetch` reads (docs/sources.md)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from jobtracker.yamlfile import checks, load, parse


@dataclass(frozen=True)
class Board:
    ats: str
    token: str
    company: str
    url: str | None = None

    @property
    def name(self) -> str:
        return f"{self.ats}:{self.token}"


@dataclass(frozen=True)
class Feed:
    name: str
    url: str


@dataclass(frozen=True)
class Sources:
    boards: tuple[Board, ...] = ()
    feeds: tuple[Feed, ...] = ()


def load_sources(path: Path, known_ats: Iterable[str], text: str | None = None) -> Sources:
    """sources.yaml at `path`, or `text` read as that file (see load_profile)."""
    doc = load(path) if text is None else parse(path, text)
    known = tuple(sorted(known_ats))
    top = checks.mapping(doc, doc.data, allowed=("boards", "feeds"))
    boards, feeds = [], []
    for key, items in (("boards", top.get("boards")), ("feeds", top.get("feeds"))):
        if items is None:
            continue
        if not isinstance(items, list):
            raise doc.error("must be a list", key)
        for index, item in enumerate(items):
            if key == "boards":
                raw = checks.mapping(doc, item, key, index,
                                     allowed=("ats", "token", "company", "url"))
                ats = checks.string(doc, raw.get("ats"), key, index, "ats").strip().lower()
                if ats not in known:
                    raise doc.error(f"unknown ATS {ats!r} (known: {', '.join(known)})",
                                    key, index, "ats")
                token = checks.string(doc, raw.get("token"), key, index, "token").strip()
                if not token.isprintable() or any(
                        part in ("", ".", "..") for part in token.split("/")):
                    raise doc.error("not a board token (it goes into the board's address "
                                    "as one path segment)", key, index, "token")
                company = str(raw.get("company") or token)
                url = checks.url(doc, raw["url"], key, index, "url") if raw.get("url") else None
                boards.append(Board(ats, token, company, url))
            else:
                raw = checks.mapping(doc, item, key, index, allowed=("name", "url"))
                feeds.append(Feed(checks.string(doc, raw.get("name"), key, index, "name").strip(),
                                  checks.url(doc, raw.get("url"), key, index, "url")))
    return Sources(tuple(boards), tuple(feeds))
