"""The read-back check (jobtracker/render/check.py) compares what the theme typeset
and what a person sees: the text as the theme set it (classic's capitals, Typst's own
upper-casing), replacement characters counted against the document, every text run
inside its page; its messages quote each missing piece whole (or its start and end)
with the document's line, in one wording for `render` and `prepare`."""

from __future__ import annotations

import pytest

from jobtracker.prepare.documents import Rendered
from jobtracker.render import build, check, markdown
from jobtracker.render.themes import find_theme

CLASSIC, COMPACT = find_theme("classic"), find_theme("compact")


def pdf_of(text: str, theme=CLASSIC, paper: str = "a4") -> build.Built:
    return build.build(text, "cv.md", "pdf", theme, paper)


# --- text that is there is found ---------------------------------------------------------

@pytest.mark.parametrize("heading", ["Yazılım Geliştirici", "Proǰect", "Straße", "ﬁnal"])
@pytest.mark.parametrize("theme", [CLASSIC, COMPACT], ids=["classic", "compact"])
def test_a_heading_is_found_as_the_theme_upper_cased_it(heading: str, theme) -> None:
    # casefold(upper("ı")) is "i", upper("ǰ") is two code points, upper("ß") is "SS".
    built = pdf_of(f"# Jane\n\n## {heading}\n\n- one item\n", theme)
    assert built.check is not None and built.check.ok, check.problems(built.check, "cv.md")


@pytest.mark.parametrize("source", ["- a\x00b\n", "- a&#0;b\n", "- a\ufffdb\n"])
def test_replacement_characters_the_document_holds_are_not_undecodable(source: str) -> None:
    # markdown-it turns NUL and &#0; into U+FFFD: the document holds it, so does the PDF.
    built = pdf_of("# Jane\n\n## Work\n\n" + source)
    assert built.check is not None and built.check.ok and built.check.undecodable == 0


def test_a_replacement_character_the_document_does_not_hold_is_counted() -> None:
    document = markdown.read("# Jane\n\n- ab\n")
    assert check.check_text("Jane • a\ufffdb ab", document).undecodable == 1
    assert check.check_text("Jane • ab\x00", document).undecodable == 1


def test_a_mark_the_reading_removed_is_not_blamed_for_a_missing_glyph() -> None:
    # U+200F is removed as the Markdown is read: only the emoji lacks a glyph.
    with pytest.raises(build.BadInput) as caught:
        pdf_of("# Jane\n\n- A\u200fb test\n- Happy 😀\n")
    message = str(caught.value)
    assert "cv.md:4: 😀 (U+1F600 GRINNING FACE)" in message and "200F" not in message


def test_a_link_too_long_for_a_pdf_names_the_line_not_the_theme() -> None:
    with pytest.raises(build.BadInput, match=r"^cv\.md:3: a link of 9,0\d\d characters"):
        pdf_of("# Jane\n\n- [my page](https://example.com/" + "a" * 9000 + ")\n")


# --- what a person sees ------------------------------------------------------------------

KEYWORDS = ",".join(["Kubernetes", "Terraform", "PostgreSQL", "Elasticsearch", "RabbitMQ",
                     "Prometheus", "Grafana", "MongoDB"] * 3)


@pytest.mark.parametrize("theme", [CLASSIC, COMPACT], ids=["classic", "compact"])
def test_an_unbreakable_line_that_runs_off_the_page_fails_naming_its_line(theme) -> None:
    built = pdf_of(f"# Jane\n\n## Skills\n\n- Keywords: {KEYWORDS}\n", theme)
    assert built.check is not None and not built.check.ok
    assert built.check.missing == []           # the text layer has it: the paper does not
    (off,) = built.check.outside
    assert (off.edge, off.page, off.line) == ("right", 1, 5)
    message = check.problems(built.check, "cv.md")
    assert message.startswith("cv.md:5: 'Kubernetes,Terraform,")
    assert " … Prometheus,Grafana,MongoDB' " in message
    assert "runs off the right edge of page 1" in message


def test_the_same_words_with_spaces_wrap_and_pass() -> None:
    built = pdf_of(f"# Jane\n\n## Skills\n\n- Keywords: {KEYWORDS.replace(',', ', ')}\n")
    assert built.check is not None and built.check.ok and built.check.outside == []


# --- the wording --------------------------------------------------------------------------

def test_a_missing_piece_is_quoted_whole_with_its_line() -> None:
    sentence = ("Richard hails from Tulsa. He has earned degrees from the University of "
                "Oklahoma and Stanford.")
    document = markdown.read(f"# Jane\n\nmail\n\n## Work\n\n{sentence}\n\n- Led a team\n")
    result = check.check_text("Jane mail WORK • Led a team", document)
    assert result.missing == [sentence] and result.missing_lines == [7]
    message = check.problems(result, "resume.md")
    # 80 characters or fewer: whole; longer: the start and the end around "…".
    assert message.startswith("resume.md:7: 'Richard hails from Tulsa. He has earned degrees")
    assert message.endswith("Oklahoma and Stanford.' is missing from its text layer "
                            "(or out of order)")
    assert "…" in message
    short = check.check_text("Jane mail WORK", document)
    assert check.problems(short, "resume.md").endswith(
        "resume.md:9: 'Led a team' is missing from its text layer (or out of order)")


def test_render_and_prepare_word_a_failed_check_the_same_way() -> None:
    built = pdf_of(f"# Jane\n\n## Skills\n\n- Keywords: {KEYWORDS}\n")
    assert built.check is not None
    line = Rendered("resume.pdf", "pdf", built.data, built.pages, built.check).line()
    assert check.problems(built.check, "resume.md", most=3) in line
    assert line.startswith("✗ resume.pdf (1 page): read back, resume.md:5: 'Kubernetes,")


def test_a_font_pypdf_cannot_measure_is_left_out_of_the_page_bounds_test(
        monkeypatch: pytest.MonkeyPatch) -> None:
    class Unmeasurable:
        @staticmethod
        def from_font_resource(_font: object) -> None:
            raise KeyError("/W")

    monkeypatch.setattr(check, "Font", Unmeasurable)   # only the check's own measuring
    built = pdf_of(f"# Jane\n\n## Skills\n\n- Keywords: {KEYWORDS}\n")
    assert built.check is not None and built.check.outside == [] and built.check.missing == []
