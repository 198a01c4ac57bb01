"""A packet's documents: its resume and letter as the files a form takes.

For each format `render.formats` names (config.yaml; PDF by default), the packet's
`resume.md` becomes `resume.pdf` / `resume.docx`, and an accepted letter
`letter.pdf` / `letter.docx` (jobtracker/render/). Every PDF is read back before
it goes into a packet, and the result is said in `answers.md` and `answers.json`.
A document that cannot be rendered (a character no font has, a theme that errs, a
writer that refuses it) is not written, and says why: that is the document's
result, never an error out of `prepare`; a format no longer named, or a letter no longer
accepted, leaves no file behind (unless the user edited it).

Most picks share the master resume: each distinct text is rendered once per
`Documents`, so `prepare --top 20` renders it once, not twenty times.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from jobtracker.config import RenderConfig
from jobtracker.render import build
from jobtracker.render.themes import Theme, ThemeError

if TYPE_CHECKING:      # the check (pypdf) loads only when a PDF is read back
    from jobtracker.render import check

DOCUMENTS = ("resume", "letter")     # the packet's Markdown documents, by stem
SOURCE_FORMAT = "md"                 # a Rendered standing for a missing Markdown source
MISSING_RESUME = ("missing: the workspace has no resume.md, so this packet has no resume "
                  "to send (write resume.md, then prepare again)")


def missing_resume() -> Rendered:
    return Rendered("resume.md", SOURCE_FORMAT, error=MISSING_RESUME)


def broken(rendered: list[Rendered]) -> dict[str, str]:
    """Each document (`resume`, `letter`) that cannot be sent as it should, and why:
    its Markdown is missing, a format could not be rendered, or a PDF failed its
    read-back. A form's field for it is then left to the user, with that reason."""
    out: dict[str, str] = {}
    for item in rendered:
        if not item.ok:
            out.setdefault(item.name.split(".", 1)[0], item.line().removeprefix("✗ "))
    return out


@dataclass(frozen=True)
class Rendered:
    """One rendered file of a packet, or why there is none."""

    name: str                          # resume.pdf
    format: str
    data: bytes | None = None
    pages: int | None = None
    check: check.Check | None = None   # PDFs
    error: str | None = None           # why it was not rendered

    @property
    def ok(self) -> bool:
        return self.data is not None and (self.check is None or self.check.ok)

    def to_json(self) -> dict[str, Any]:
        return {"file": self.name, "format": self.format, "written": self.data is not None,
                "pages": self.pages, "check": self.check.to_json() if self.check else None,
                "error": self.error}

    def line(self) -> str:
        """One line for answers.md: what the file is, and how its read-back went."""
        if self.format == SOURCE_FORMAT:
            return f"✗ {self.name}: {self.error}"
        if self.data is None:
            return f"✗ {self.name}: not rendered: {self.error}"
        if self.check is None:
            return f"✓ {self.name}"
        pages = f"{self.pages} page{'s' if self.pages != 1 else ''}"
        if self.check.ok:
            return (f"✓ {self.name} ({pages}): read back, every heading, list item and "
                    "contact detail is in its text, in order, with no ligatures")
        source = self.name.rsplit(".", 1)[0] + ".md"
        return f"✗ {self.name} ({pages}): read back, {problems(self.check, source)}"


def problems(result: check.Check, document: str = "resume.md") -> str:
    from jobtracker.render import check as reading  # pypdf: loaded once a PDF is read back

    return reading.problems(result, document, most=3)


class Documents:
    """Renders packets' documents with one theme and paper, each distinct text once."""

    def __init__(self, settings: RenderConfig | None = None) -> None:
        self.settings = settings or RenderConfig()
        self._cache: dict[tuple[str, str, str], Rendered] = {}
        self._theme: Theme | str | None = None

    def theme(self) -> Theme | str:
        """The theme, or why it cannot be used (found once)."""
        if self._theme is None:
            try:
                self._theme = self.settings.find_theme()
            except ThemeError as exc:
                self._theme = str(exc)
        return self._theme

    def render(self, stem: str, text: str, fmt: str) -> Rendered:
        key = (stem, text, fmt)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._render(stem, text, fmt)
        return found

    def _render(self, stem: str, text: str, fmt: str) -> Rendered:
        name = f"{stem}.{fmt}"
        theme = self.theme()
        if isinstance(theme, str):
            return Rendered(name, fmt, error=theme)
        try:
            built = build.build(text, f"{stem}.md", fmt, theme, self.settings.paper)
        except build.BadInput as exc:
            return Rendered(name, fmt, error=str(exc))
        except Exception as exc:
            # A writer's own refusal (a third-party limit nobody foresaw) stops this
            # document, never the packet, nor the other postings' packets.
            return Rendered(name, fmt, error=f"{stem}.md could not be rendered: "
                                             f"{type(exc).__name__}: {exc}")
        return Rendered(name, fmt, built.data, built.pages if built.check else None,
                        built.check)

    def for_packet(self, texts: dict[str, str | None]) -> list[Rendered]:
        """The rendered files of a packet whose Markdown documents are `texts`
        (`resume.md` → text, or None when the packet has none)."""
        out = []
        for stem in DOCUMENTS:
            text = texts.get(f"{stem}.md")
            if text is None:
                continue
            out += [self.render(stem, text, fmt) for fmt in self.settings.formats]
        return out


def files_of(rendered: list[Rendered]) -> dict[str, tuple[str, ...]]:
    """Each document's files for a form's upload field, the first one to upload
    first: the rendered ones that were written, then the Markdown."""
    out: dict[str, tuple[str, ...]] = {}
    for stem in DOCUMENTS:
        made = tuple(r.name for r in rendered if r.name.startswith(f"{stem}.") and r.data)
        out[stem] = (*made, f"{stem}.md")
    return out


def packet_files(rendered: list[Rendered]) -> dict[str, bytes | None]:
    """Every rendered file name a packet may hold → its bytes, or None (no longer
    wanted: a format `render.formats` no longer names, a letter no longer accepted;
    an old one is removed unless the user edited it). A file that could not be made
    this time (its Markdown is missing, rendering failed) is left out: what was
    rendered before is never deleted without a new one in its place."""
    out: dict[str, bytes | None] = {f"{stem}.{fmt}": None
                                    for stem in DOCUMENTS for fmt in build.FORMATS}
    for item in rendered:
        if item.format == SOURCE_FORMAT:
            for fmt in build.FORMATS:
                out.pop(f"{item.name.split('.', 1)[0]}.{fmt}", None)
        elif item.data is None:
            out.pop(item.name, None)
        else:
            out[item.name] = item.data
    return out
