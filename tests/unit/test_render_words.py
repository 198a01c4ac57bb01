"""Which pieces of a text a theme keeps on one line (jobtracker/render/words.py), and
that the themes do: no line break inside a hyphenated compound, an address or a phone
number, in either theme, on either paper."""

from __future__ import annotations

import pytest

from jobtracker.render import build, check, words
from jobtracker.render.themes import find_theme


def kept(text: str) -> list[str]:
    return [piece for piece, keep in words.pieces(text) if keep]


@pytest.mark.parametrize("text", [
    "both the length-limited and adaptive variants",
    "richard.hendriks@mail.com and more",
    "see www.twitter.com today",
    "https://soundcloud.example.com/dandymusicnl",
    "a CEO/President role",
    "1999–2004 at Harbor",
])
def test_the_pieces_join_back_to_the_text_exactly(text: str) -> None:
    assert "".join(piece for piece, _ in words.pieces(text)) == text


def test_compounds_addresses_and_urls_are_kept_whole_plain_words_are_not() -> None:
    assert kept("both the length-limited and adaptive variants") == ["length-limited"]
    assert kept("mail richard.hendriks@mail.com now") == ["richard.hendriks@mail.com"]
    assert kept("see www.twitter.com, or not") == ["www.twitter.com,"]
    assert kept("Plain words and the end.") == []


def test_a_phone_number_with_spaces_is_one_piece() -> None:
    assert kept("x · (912) 555-4321 · San Francisco") == ["(912) 555-4321"]
    assert kept("tel 06 00 00 00 00 or") == ["06 00 00 00 00"]
    assert kept("+86 139-0000-0000") == ["+86 139-0000-0000"]
    assert kept("from 6% to 33% in 2 years") == []


def test_a_long_piece_may_be_shrunk_to_fit_and_cjk_is_left_to_break() -> None:
    url = "https://www.youtube.com/watch?v=-aaaaaaaaaa&list=PL0000000000000000000"
    assert words.pieces(f"see {url}") == [("see ", ""), (url, "fit")]
    assert kept("负责多个复杂Web与跨平台产品的前端架构与交付，覆盖实时系统、2D/3D渲染") == ["2D/3D"]


# --- what the themes make of it ---------------------------------------------------------

# Each of these broke across a line in a real resume (pypdf read "length- limited",
# pdftotext "lengthlimited", "www.twitter. com"): placed where a line must wrap.
FILLER = ("Words that fill the line until the break falls right here beside the word we "
          "look at, and a few more words to make it longer still, across the width of a "
          "line in either theme, and ")
STEPS = range(50, len(FILLER), 4)


@pytest.mark.parametrize("theme", ["classic", "compact"])
@pytest.mark.parametrize("paper", ["a4", "us-letter"])
def test_no_theme_breaks_a_line_inside_a_word(theme: str, paper: str) -> None:
    whole = ["length-limited", "shipment-tracking", "python-bitcoinlib", "www.twitter.com",
             "jane.dev+jobs@example.com", "(912) 555-4321", "Content-oriented",
             "https://soundcloud.example.com/dandymusicnl"]
    lines = [f"- {FILLER[:n]}{w} and then some more words after it" for w in whole
             for n in STEPS]
    source = "# Jane\n\n## Work\n\n" + "\n".join(lines) + "\n"
    built = build.build(source, "cv.md", "pdf", find_theme(theme), paper)
    assert built.check is not None and built.check.ok, check.problems(built.check, "cv.md")
    layer = check.extract(built.data)[0]
    for word in whole:
        assert layer.count(word) == len(STEPS), word


def test_a_url_longer_than_a_line_is_shrunk_to_fit_and_reads_back_whole() -> None:
    url = "https://example.com/" + "segment/" * 14 + "end"
    built = build.build(f"# Jane\n\n- see {url} there\n", "cv.md", "pdf",
                        find_theme("classic"), "a4")
    assert built.check is not None and built.check.ok
    assert url in check.extract(built.data)[0]
