"""clean_text and html_to_text: untrusted text made safe and readable."""

from __future__ import annotations

import time

import pytest

from jobtracker.text import clean_text, html_to_text, one_line


@pytest.mark.parametrize(("raw", "expected"), [
    ("plain text\nsecond line\tand a tab", "plain text\nsecond line\tand a tab"),
    ("red \x1b[31malert\x1b[0m done", "red alert done"),                 # CSI sequences
    ("title\x1b]0;pwned\x07 after", "title after"),                       # OSC (window title)
    ("bell\x07 back\x08space null\x00 del\x7f", "bell backspace null del"),
    ("c1 \x85next \x9b31m csi", "c1 next  csi"),                          # C1 controls
    ("bidi \u202eevil\u202c and \u2066iso\u2069", "bidi evil and iso"),   # bidi overrides
    ("zero\u200bwidth\ufeff", "zerowidth"),
    ("no\u00a0break\u2009thin", "no break thin"),                         # odd spaces → space
    ("line\u2028sep", "line\nsep"),
    ("crlf\r\nand\rcr", "crlf\nand\ncr"),
    ("ünïcødé 😀 中文", "ünïcødé 😀 中文"),                                  # printable stays
])
def test_clean_text_removes_controls_and_keeps_text(raw: str, expected: str) -> None:
    assert clean_text(raw) == expected


def test_clean_text_of_nothing_is_empty() -> None:
    assert clean_text(None) == ""
    assert clean_text("") == ""


def test_one_line_collapses_and_bounds() -> None:
    assert one_line("  a\n\n b\t c  ") == "a b c"
    assert one_line("x" * 50, limit=10) == "x" * 9 + "…"


def test_paragraphs_and_headings_are_separated_by_blank_lines() -> None:
    text = html_to_text("<h2>About us</h2><p>We build   things.</p><p>Second\nparagraph.</p>")
    assert text == "About us\n\nWe build things.\n\nSecond paragraph."


def test_list_items_become_bullets_numbers_and_nested_indents() -> None:
    text = html_to_text(
        "<ul><li>Python</li><li>Go<ul><li>generics</li></ul></li><li>SQL</li></ul>"
        "<ol><li>apply</li><li>interview</li></ol>")
    assert text == "- Python\n- Go\n  - generics\n- SQL\n\n1. apply\n2. interview"


def test_scripts_styles_and_comments_are_dropped() -> None:
    text = html_to_text("<style>p {color: red}</style><p>Visible</p>"
                        "<script>document.write('<p>injected</p>')</script><!-- secret -->"
                        "<p>Also visible</p><noscript>enable js</noscript>")
    assert text == "Visible\n\nAlso visible"


def test_an_unclosed_script_swallows_the_rest_like_a_browser() -> None:
    assert html_to_text("<p>kept</p><script>var a = '<p>never</p>'") == "kept"


def test_entities_are_decoded_once() -> None:
    assert html_to_text("<p>R&amp;D &lt;b&gt; caf&eacute; &#x27;q&#39; &bogus;</p>") == \
        "R&D <b> café 'q' &bogus;"


def test_decoded_angle_brackets_are_text_not_tags() -> None:
    assert html_to_text("&lt;script&gt;alert(1)&lt;/script&gt;") == "<script>alert(1)</script>"


def test_inline_tags_join_text_without_extra_spaces() -> None:
    assert html_to_text("<p>Use <b>Py</b>thon and <a href='x'>links</a>, <em>ok</em>?</p>") \
        == "Use Python and links, ok?"


def test_tables_are_one_row_per_line() -> None:
    text = html_to_text("<table><tr><th>Level</th><th>Pay</th></tr>"
                        "<tr><td>Senior</td><td>100k</td></tr></table>")
    assert text == "Level Pay\nSenior 100k"


def test_pre_keeps_its_whitespace() -> None:
    text = html_to_text("<p>Example:</p><pre>  def f():\n      return 1 &lt; 2</pre><p>end</p>")
    assert text == "Example:\n\n  def f():\n      return 1 < 2\n\nend"


def test_breaks_and_xhtml_empty_elements() -> None:
    assert html_to_text("one<br>two<br/>three<p/>four") == "one\ntwo\nthree\n\nfour"


def test_lenient_with_stray_angle_brackets_and_unbalanced_tags() -> None:
    assert html_to_text("5 < 6 and 7 > 3</div></div><p>end") == "5 < 6 and 7 > 3\n\nend"


def test_control_characters_inside_html_are_removed() -> None:
    assert html_to_text("<p>bad \x1b[2J clear &#27;[31m and \u202e</p>") == "bad clear [31m and"


def test_empty_input() -> None:
    assert html_to_text(None) == ""
    assert html_to_text("") == ""
    assert html_to_text("<p> </p><div></div>") == ""


def test_hostile_input_stays_linear() -> None:
    """Thousands of `<` without `>`, and unclosed comments, cost no more than reading."""
    started = time.perf_counter()
    for hostile in ("<a " * 200_000, "<!--" * 100_000, "<p" + "x" * 500_000,
                    "<script>" * 50_000):
        html_to_text(hostile)
    assert time.perf_counter() - started < 5


def test_a_huge_description_converts_in_reasonable_time() -> None:
    big = "<p>" + "word " * 200 + "</p><ul><li>item</li></ul>" * 1
    started = time.perf_counter()
    text = html_to_text(big * 1000)        # ~1 MB of HTML
    assert time.perf_counter() - started < 5
    assert text.count("- item") == 1000


def test_lines_are_stripped_and_blank_runs_made_one_as_expressions_would() -> None:
    """`html_to_text` tidies lines in one loop; it does what stripping every line's
    spaces and collapsing newlines with regular expressions does, on text of every
    shape."""
    import random
    import re

    from jobtracker.text import _lines

    rng = random.Random(5)
    pieces = [" ", "  ", "\n", " \n ", "\n\n", "\n\n\n", "a", "b c", "\t", "\u00a0", "-"]
    for _ in range(5000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        stripped = re.sub(r" *\n *", "\n", text).strip(" ")
        assert _lines(text) == re.sub(r"\n{3,}", "\n\n", stripped).strip("\n"), repr(text)


def test_omitted_end_tags_end_where_a_browser_ends_them() -> None:
    """HTML5 lets `</head>`, `</p>`, `</li>`, `</td>`, `</tr>` and `</body>` be left
    out; the parser ends each element where the standard does (the regular
    expressions this replaced dropped everything after a `<head>` with no end)."""
    assert html_to_text("<html><head><meta charset=utf-8><style>p{}</style>"
                        "<body><p>Visible<p>Also") == "Visible\n\nAlso"
    assert html_to_text("<ul><li>a<li>b</ul><table><tr><td>c<td>d<tr><td>e</table>") == \
        "- a\n- b\n\nc d\ne"


def test_a_block_nested_in_thousands_of_open_blocks_is_bounded() -> None:
    """An HTML5 parser looks through every open element for each block start tag; past
    MAX_BLOCK_TAGS of them the rest is not read, so nesting costs a bounded time."""
    from jobtracker.text import MAX_BLOCK_TAGS, html_tree

    started = time.perf_counter()
    assert html_to_text("<div>" * 100_000 + "deep") == ""
    assert html_to_text("<p>kept</p>" + "<div>" * 100_000) == "kept"
    assert time.perf_counter() - started < 5
    tree, cut = html_tree("<section>" * (MAX_BLOCK_TAGS + 1))
    assert cut and tree.root is not None
    assert html_tree("<p>short</p>")[1] is False


def _web_url_by_urlsplit(url: str | None) -> str:
    """web_url's rule written the slow way, for the fast path to be checked against."""
    from urllib.parse import urlsplit

    text = (url or "").strip()
    try:
        parts = urlsplit(text)
    except ValueError:
        return ""
    return text if parts.scheme.lower() in ("http", "https") and parts.hostname else ""


def test_web_url_s_fast_path_decides_as_urlsplit_does() -> None:
    import random

    from jobtracker.text import web_url

    pieces = ["http", "https", "HTTPS", "javascript", "file", ":", "//", "/", "a", "b.c", "-",
              ".", "@", "user:pw@", ":80", ":x", "?q=1", "#f", " ", "[::1]", "%41", "_", ""]
    rng = random.Random(7)
    cases = ["https://boards.greenhouse.io/acme/jobs/1", "http://a", "https://a:8080",
             "https://a.b?x", "HTTP://A.B#c", "https://", "http:///x", "javascript:alert(1)",
             " https://x.example/ ", "https://user@x.example/", "https://x.example:99999/"]
    cases += ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 7))) for _ in range(5000)]
    assert [web_url(c) for c in cases] == [_web_url_by_urlsplit(c) for c in cases]
