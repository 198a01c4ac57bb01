"""Employer labels in answers.md (a form's questions and options, the company, the title,
a server's error): Markdown that reads as text, never a live link, image or HTML."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from jobtracker.prepare.forms import Field
from jobtracker.prepare.packet import Posting, answers_md, md_text
from jobtracker.prepare.resolve import Resolution, Resolved

HOSTILE = [
    "[Click here](javascript:alert(1))",
    "![tracker](http://evil.example/p.png)",
    "<img src=x onerror=alert(1)>",
    '<a href="http://evil.example">Apply</a>',
    "<https://evil.example/autolink>",
    "Visit https://evil.example/apply now",
    "or www.evil.example for more",
    "mail careers@evil.example",
    "[ref link][1]",
    "`code` and **bold** and _it_",
    "&lt;img src=x&gt; and &#60;b&#62;",
    "[nested [brackets](http://x)](http://y)",
    "\\[escaped\\](http://evil.example)",
    "<!-- comment --> <script>alert(1)</script>",
]
LIVE = {"link_open", "image", "html_inline", "html_block", "code_inline"}


def tokens(markdown: str) -> list:
    found = []
    for token in MarkdownIt("commonmark").parse(markdown):
        found.append(token)
        found.extend(token.children or [])
    return found


def text_of(markdown: str) -> str:
    return "".join(t.content for t in tokens(markdown) if t.type == "text")


@pytest.mark.parametrize("label", HOSTILE)
def test_a_label_is_text_in_markdown(label: str) -> None:
    shown = md_text(label)
    assert not {t.type for t in tokens(shown)} & LIVE, shown
    assert text_of(shown) == label        # a reader sees exactly what the employer wrote
    for bare in ("://", "www.", "@"):     # what GitHub-style Markdown links without brackets
        assert bare not in shown.replace("\\:", "").replace("\\.", "").replace("\\@", "")


@pytest.mark.parametrize("label", HOSTILE)
def test_answers_md_has_no_live_markup_from_the_employer(label: str) -> None:
    posting = Posting(3, label, label, "Berlin", "https://boards.greenhouse.io/acme/jobs/3",
                      "Prose.", "greenhouse")
    fields = (Resolved(Field(label, "q1", "input_text", True), None, None, note=label),
              Resolved(Field(label, "q2", "multi_value_single_select", False, (label,)),
                       label, "answers.yaml: questions[0]"))
    markdown = answers_md(posting, Resolution("standard", fields), form_error=label)
    kinds = {t.type for t in tokens(markdown)}
    assert "image" not in kinds and "html_inline" not in kinds and "html_block" not in kinds
    links = [t.attrGet("href") for t in tokens(markdown) if t.type == "link_open"]
    assert all(href == posting.url for href in links), links
    assert label in text_of(markdown)
