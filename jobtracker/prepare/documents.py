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
`Documents`, so `prepare --top 20` renders it once, not twenty times. When the picks
hold many distinct documents (a tailored resume each), `start` hands them to a pool
of processes, one per core (jobtracker/render/pool.py), before the packets are
written; each result is the same bytes and read-back as one drawn in this process.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from jobtracker.config import RenderConfig
from jobtracker.render import build
from jobtracker.render.themes import Theme, ThemeError

if TYPE_CHECKING:      # the check (pypdf) loads only when a PDF is read back
    from concurrent.futures import Future

    from jobtracker.render import check, pool

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
        self._renderer: pool.Renderer | None = None
        self._pending: dict[tuple[str, str, str], Future[pool.Outcome]] = {}

    def theme(self) -> Theme | str:
        """The theme, or why it cannot be used (found once)."""
        if self._theme is None:
            try:
                self._theme = self.settings.find_theme()
            except ThemeError as exc:
                self._theme = str(exc)
        return self._theme

    def start(self, packets: list[dict[str, str | None]]) -> None:
        """Begin rendering the documents of these packets (each as `for_packet` takes
        it) in a pool of processes, one per core, when there are enough distinct ones
        to be worth it; `render` then takes each result as it is done. Fewer, or one
        core, and each renders in this process when it is asked for, as before."""
        theme = self.theme()
        if isinstance(theme, str) or self._renderer is not None:
            return
        from jobtracker.render import pool  # the pool's modules load only when it is used

        wanted = list(dict.fromkeys(
            (stem, text, fmt) for texts in packets for stem in DOCUMENTS
            if (text := texts.get(f"{stem}.md")) is not None
            for fmt in self.settings.formats if (stem, text, fmt) not in self._cache))
        workers = min(pool.cores(), len(wanted))
        if len(wanted) < pool.MIN_JOBS or workers < 2:
            return
        try:
            self._renderer = pool.Renderer(workers, theme)
        except Exception:      # no pool here (no semaphores, no processes): in process
            return
        futures = self._renderer.submit_all([self._job(*key, theme) for key in wanted])
        self._pending.update(zip(wanted, futures, strict=True))

    def expect(self, packets: int) -> None:
        """Say that about `packets` packets are coming: when their documents may be
        enough for a pool (`start`), its server starts now, while the database is read."""
        from jobtracker.render import pool

        if packets * len(self.settings.formats) >= pool.MIN_JOBS and pool.cores() >= 2:
            pool.warm()

    def close(self) -> None:
        """End the pool of `start`, if there is one (what it has not given is dropped)."""
        self._pending.clear()
        if self._renderer is not None:
            renderer, self._renderer = self._renderer, None
            renderer.close()

    def render(self, stem: str, text: str, fmt: str) -> Rendered:
        key = (stem, text, fmt)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._render(stem, text, fmt)
            if not self._pending:
                self.close()       # every document the pool was given is done
        return found

    def _job(self, stem: str, text: str, fmt: str, theme: Theme) -> pool.Job:
        from jobtracker.render import pool

        return pool.Job(text, f"{stem}.md", fmt, theme, self.settings.paper)

    def _render(self, stem: str, text: str, fmt: str) -> Rendered:
        from jobtracker.render import pool

        name = f"{stem}.{fmt}"
        theme = self.theme()
        if isinstance(theme, str):
            return Rendered(name, fmt, error=theme)
        job = self._job(stem, text, fmt, theme)
        outcome = None
        future = self._pending.pop((stem, text, fmt), None)
        if future is not None:
            try:
                outcome = future.result()
            except Exception:  # a worker that died, a pool that broke: drawn here instead
                outcome = None
        if outcome is None:
            outcome = pool.attempt(job)
        built = outcome.built
        if built is None:
            return Rendered(name, fmt, error=outcome.error)
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
