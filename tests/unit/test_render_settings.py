"""config.yaml's `render:` section, read by its room (jobtracker/render/settings.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobtracker.render import settings, themes
from jobtracker.yamlfile import ConfigError, parse


def read(tmp_path: Path, text: str) -> settings.RenderConfig:
    doc = parse(tmp_path / "config.yaml", text)
    return settings.load(doc, doc.data["render"] if doc.data else None)


def test_absent_it_is_the_default_theme_on_the_default_paper_as_pdf(tmp_path: Path) -> None:
    got = read(tmp_path, "")
    assert (got.theme, got.paper, got.formats) == (themes.DEFAULT_THEME, themes.DEFAULT_PAPER,
                                                   ("pdf",))
    assert got.home == tmp_path      # a relative theme file is found from the workspace


def test_formats_are_kept_once_each_in_their_order(tmp_path: Path) -> None:
    assert read(tmp_path, "render: {formats: [docx, pdf, docx]}").formats == ("docx", "pdf")


def test_an_unknown_paper_names_the_papers_there_are(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"config.yaml:1: render.paper: unknown paper 'tabloid'"):
        read(tmp_path, "render: {paper: tabloid}")
