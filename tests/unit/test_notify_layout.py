"""The digest's forms (jobtracker/notify/layout.py): untrusted text escaped for each
form, the digest's own words written as they are."""

from __future__ import annotations

from jobtracker.notify import layout
from jobtracker.notify.digest import Digest, DueItem, MatchItem, ProposalItem

MADE = "2026-12-01T21:56:00Z"      # Tue 1 Dec 13:56 in Los Angeles


def digest(**parts: object) -> Digest:
    return Digest(made_at=MADE, zone="America/Los_Angeles", since=None, min_verdict="good",
                  **parts)  # type: ignore[arg-type]


def test_the_archive_writes_its_own_time_and_zone_unescaped() -> None:
    text = layout.markdown(digest(matches=[MatchItem(1, "strong", 0.9, "Acme", "Eng", "", "")]))
    assert "Tue 1 Dec 13:56 (America/Los_Angeles)" in text.splitlines()
    assert "\\(" not in text.split("## ")[0] and "\\_" not in text.split("## ")[0]


def test_untrusted_text_is_still_escaped_in_markdown() -> None:
    hostile = MatchItem(1, "strong", 0.9, "Acme_[x](http://evil.example)", "*Eng*", "", "")
    text = layout.markdown(digest(matches=[hostile]))
    assert "Acme\\_\\[x\\]\\(http://evil\\.example\\)" in text
    assert "\\*Eng\\*" in text


def test_kind_task_and_status_names_are_written_as_they_are_unless_odd() -> None:
    d = digest(proposals=[ProposalItem(7, "resume_edit", "tailor", "a line", MADE),
                          ProposalItem(8, "<b>new</b>", "x", "odd", MADE)],
               proposals_by_kind={"resume_edit": 1, "<b>new</b>": 1},
               due=[DueItem(1, 1, "Acme", "Eng", "applied", "2026-12-03")],
               set_aside={"coverletter": 2})
    text = layout.markdown(d)
    assert "Proposals waiting (2: \\<b\\>new\\</b\\> 1, resume_edit 1)" in text
    assert "\\#7 resume_edit: a line" in text and "\\#8 \\<b\\>new\\</b\\>: odd" in text
    assert "Acme \\- Eng: applied, due 2026-12-03" in text
    assert "units set aside: coverletter 2" in text


def test_a_count_past_the_limit_is_said_in_the_digest_s_own_words() -> None:
    matches = [MatchItem(i, "good", 0.5, "Acme", f"Eng {i}", "", "") for i in range(3)]
    assert "- ... and 1 more (jobtracker matches)" in layout.markdown(digest(matches=matches),
                                                                        limit=2)


def test_every_form_writes_the_one_plan_s_sections_in_its_order() -> None:
    d = digest(matches=[MatchItem(1, "strong", 0.9, "Acme", "Eng", "", "http://a.example/j")],
               proposals=[ProposalItem(7, "letter", "coverletter", "<i>x</i>", MADE)],
               proposals_by_kind={"letter": 1},
               due=[DueItem(1, 1, "Acme", "Eng", "applied", "2026-12-03")],
               set_aside={"judge": 1})
    plan = layout.plan(d)
    titles = [layout._text_of(s.title) for s in plan.sections]
    assert titles == ["New matches (1, good or better)", "Proposals waiting (1: letter 1)",
                      "Follow-ups due (1)", "What failed"]
    for form in (layout.text(d), layout.markdown(d), layout.html_mail(d)):
        places = [form.index(title.split(" (")[0]) for title in titles]
        assert places == sorted(places)
    assert "<i>" not in layout.html_mail(d) and "&lt;i&gt;x&lt;/i&gt;" in layout.html_mail(d)
    assert "\\<i\\>x\\</i\\>" in layout.markdown(d)
    assert "units set aside after 3 failures: judge 1" in layout.text(d)
    assert '<a href="http://a.example/j">Acme - Eng</a>' in layout.html_mail(d)
