"""Real resumes (tests/fixtures/real/resumes/, from public repositories, scrubbed)
imported and rendered in both themes on both papers: each renders with its check ok,
and its text layer reads the same — every heading, entry, bullet, contact detail and
URL whole and in order — through three extractors: pypdf (the render's own check),
pdfminer.six and poppler's `pdftotext` (a process; where poppler is not installed
that extractor's cases say so and skip, the other two still run)."""

from __future__ import annotations

import functools
import io
import shutil
import subprocess
from pathlib import Path

import pytest
from pdfminer.high_level import extract_text as pdfminer_text

from jobtracker import cli
from jobtracker.render import build, check, jsonresume, markdown
from jobtracker.render.document import expected_text
from jobtracker.render.themes import find_theme

REAL = Path(__file__).parents[1] / "fixtures" / "real" / "resumes"
RENDERED = ["official-sample.json", "pre1-architect-en.json", "coach-fr.json",
            "fullstack-de.json", "typed-lists.json"]
THEMES, PAPERS = ("classic", "compact"), ("a4", "us-letter")
EXTRACTORS = ("pypdf", "pdfminer", "pdftotext")

# One worker takes the whole file, so each of the 20 renders is made once (`rendered` is
# cached per process) instead of once on every worker that draws one of its cases.
pytestmark = pytest.mark.xdist_group("render_real")


@functools.cache
def rendered(name: str, theme: str, paper: str) -> tuple[str, build.Built]:
    text = jsonresume.import_text((REAL / name).read_text()).markdown
    return text, build.build(text, name, "pdf", find_theme(theme), paper)


def layer(extractor: str, pdf: bytes, tmp_path: Path) -> str:
    if extractor == "pypdf":
        return check.extract(pdf)[0]
    if extractor == "pdfminer":
        return pdfminer_text(io.BytesIO(pdf))
    tool = shutil.which("pdftotext")
    if tool is None:
        pytest.skip("poppler's pdftotext is not installed: this extractor is not checked here")
    path = tmp_path / "resume.pdf"
    path.write_bytes(pdf)
    return subprocess.run([tool, "-enc", "UTF-8", str(path), "-"], check=True,
                          capture_output=True, text=True, timeout=60).stdout


def not_found(text: str, markdown_text: str, theme: str) -> list[str]:
    """The document's pieces that `text` does not hold whole and in order."""
    haystack, position, missing = check.normal(text), 0, []
    for piece in expected_text(markdown.read(markdown_text)):
        forms = [check.normal(piece.text)]
        if piece.what == "heading" and piece.level in (find_theme(theme).upper or ()):
            forms.insert(0, check.normal(piece.text.upper()))
        ends = [at + len(form) for form in forms
                if (at := haystack.find(form, position)) >= 0]
        if ends:
            position = min(ends)
        else:
            missing.append(piece.text)
    return missing


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("name", RENDERED)
def test_a_real_resume_renders_and_passes_its_check(name: str, theme: str,
                                                    paper: str) -> None:
    _, built = rendered(name, theme, paper)
    assert built.check is not None
    assert built.check.ok, check.problems(built.check, name)
    assert built.pages >= 1 and built.check.outside == []


@pytest.mark.parametrize("extractor", EXTRACTORS)
@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("name", RENDERED)
def test_every_extractor_reads_every_piece_whole_and_in_order(
        name: str, theme: str, paper: str, extractor: str, tmp_path: Path) -> None:
    text, built = rendered(name, theme, paper)
    assert not_found(layer(extractor, built.data, tmp_path), text, theme) == []


@pytest.mark.parametrize("extractor", EXTRACTORS)
def test_the_words_that_broke_before_read_back_whole(extractor: str, tmp_path: Path) -> None:
    # Each of these was cut across a line in the first renders of these files.
    _, sample = rendered("official-sample.json", "classic", "a4")
    _, legacy = rendered("pre1-architect-en.json", "compact", "us-letter")
    sample_text = " ".join(layer(extractor, sample.data, tmp_path).split())
    legacy_text = " ".join(layer(extractor, legacy.data, tmp_path).split())
    assert "www.twitter.com" in sample_text
    assert sample_text.count("length-limited") == 2
    for word in ("python-bitcoinlib", "Content-oriented", "Mobile-first", "fully-tested"):
        assert word in legacy_text, (extractor, word)


def test_the_official_sample_imports_and_renders_from_the_command_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "home"
    assert cli.main(["--home", str(home), "init"]) == 0
    assert cli.main(["--home", str(home), "resume", "import",
                     str(REAL / "official-sample.json")]) == 0
    assert cli.main(["--home", str(home), "render", str(home / "resume.md")]) == 0
    out = capsys.readouterr().out
    assert f"wrote {home / 'resume.pdf'} (2 pages, classic, a4); read back" in out


def test_a_cjk_resume_imports_and_its_render_names_the_first_character_no_font_has(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "home"
    assert cli.main(["--home", str(home), "init"]) == 0
    assert cli.main(["--home", str(home), "resume", "import",
                     str(REAL / "frontend-zh.json")]) == 0
    text = (home / "resume.md").read_text()
    assert text.startswith("# Alex Li 李明\n") and "(May 2023 – present)" in text
    capsys.readouterr()
    assert cli.main(["--home", str(home), "render", str(home / "resume.md")]) == 2
    err = capsys.readouterr().err
    assert "no font of the theme 'classic' can draw" in err
    assert f"{home / 'resume.md'}:1: 李 (U+674E CJK UNIFIED IDEOGRAPH-674E)" in err
    assert not (home / "resume.pdf").exists()
