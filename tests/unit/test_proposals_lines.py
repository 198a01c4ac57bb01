"""What a proposal's detail is made of: a diff whose changed words are marked, and a
quote shown in its paragraph — plain data, whatever renders it."""

from __future__ import annotations

from jobtracker.proposals.lines import Line, Span, diff, field, quote_in


def test_a_diff_marks_only_the_words_that_changed_on_both_sides() -> None:
    lines = diff("Built APIs in Go.\nShipped it.", "Built APIs in Python.\nShipped it.")
    assert [line.role for line in lines] == ["header", "header", "hunk", "removed", "added",
                                             "context"]
    removed, added = lines[3], lines[4]
    assert [s.text for s in removed.spans if s.emphasis == "changed"] == ["Go"]
    assert [s.text for s in added.spans if s.emphasis == "changed"] == ["Python"]
    assert (removed.plain, added.plain, lines[5].plain) == (
        "Built APIs in Go.", "Built APIs in Python.", "Shipped it.")


def test_a_diff_of_equal_texts_says_so_and_control_characters_never_pass() -> None:
    assert diff("same", "same") == [Line("dim", "(no change)")]
    lines = diff("old \x1b[31mred", "new")
    assert all("\x1b" not in line.plain for line in lines)


def test_a_quote_is_shown_in_its_paragraph_whatever_its_case_and_spacing() -> None:
    body = "Hello.\n\nWe would like to   INVITE you\nto talk.\n\nBest, Anna"
    [line] = quote_in(body, "invite you to talk")
    assert line.spans == (Span("We would like to "), Span("INVITE you to talk", "quote"),
                          Span("."))


def test_a_quote_the_body_no_longer_holds_is_shown_alone_with_why() -> None:
    quoted, why = quote_in("Something else entirely.", "we are pleased to offer")
    assert quoted.spans == (Span("we are pleased to offer", "quote"),)
    assert why.role == "dim" and "no longer holds the quote" in why.plain
    assert quote_in("any", "  ") == [Line("dim", "(no quote)")]


def test_a_field_is_one_clean_line_and_a_missing_value_is_nothing() -> None:
    assert field("company", "Acme\nInc.\x07") == Line("field", "Acme Inc.", "company")
    assert field("title", None).plain == ""
