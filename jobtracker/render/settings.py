"""config.yaml's `render:` section: the theme, the paper and the formats (docs/render.md)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jobtracker.render import themes
from jobtracker.yamlfile import Document, checks


@dataclass(frozen=True)
class RenderConfig:
    """How documents are rendered (docs/render.md): the theme (a built-in name, or a
    .typ file; a relative path is from the workspace), the paper, and which formats
    a packet carries."""

    theme: str = themes.DEFAULT_THEME
    paper: str = themes.DEFAULT_PAPER
    formats: tuple[str, ...] = ("pdf",)
    home: Path | None = None          # where a relative theme path starts

    def find_theme(self) -> themes.Theme:
        return themes.find_theme(self.theme, self.home)


RENDER_FORMATS = ("pdf", "docx")


def load(doc: Document, value: Any) -> RenderConfig:
    raw = checks.mapping(doc, value, "render", allowed=("theme", "paper", "formats"))
    home = doc.path.parent
    theme = checks.string(doc, raw.get("theme", themes.DEFAULT_THEME), "render", "theme").strip()
    try:
        themes.find_theme(theme, home)
    except themes.ThemeError as exc:
        raise doc.error(str(exc), "render", "theme") from None
    paper = checks.string(doc, raw.get("paper", themes.DEFAULT_PAPER), "render",
                          "paper").strip().lower()
    if paper not in themes.PAPERS:
        raise doc.error(f"unknown paper {paper!r} (expected one of: {', '.join(themes.PAPERS)})",
                        "render", "paper")
    formats = checks.str_list(doc, raw.get("formats", ["pdf"]), "render", "formats",
                        check=lambda v: v in RENDER_FORMATS, expected=", ".join(RENDER_FORMATS))
    return RenderConfig(theme, paper, tuple(dict.fromkeys(formats)), home)
