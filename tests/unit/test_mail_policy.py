"""The bounded parsing policies: every header value is cut before anything parses it,
at a space, so no encoded word is split; a normal header is untouched."""

from __future__ import annotations

import email

import pytest

from jobtracker.mail.policy import COMPAT32, DEFAULT, MAX_HEADER_CHARS


@pytest.mark.parametrize("policy", [DEFAULT, COMPAT32], ids=["default", "compat32"])
def test_a_header_past_the_bound_is_cut_at_a_space(policy: email.policy.Policy) -> None:
    words = " ".join(f"word{n}" for n in range(3000))
    message = email.message_from_string(
        f"Subject: {words}\nFrom: ada@example.org\n\nbody\n", policy=policy)
    subject = str(message["Subject"])
    assert len(subject) <= MAX_HEADER_CHARS
    assert words.startswith(subject) and words[len(subject)] == " "   # a whole word last
    assert str(message["From"]) == "ada@example.org"


def test_a_header_within_the_bound_is_read_as_the_standard_policy_reads_it() -> None:
    raw = "Subject: =?utf-8?q?Caf=C3=A9_interview?=\n\nbody\n"
    assert str(email.message_from_string(raw, policy=DEFAULT)["Subject"]) == "Café interview"
    assert (str(email.message_from_string(raw, policy=email.policy.default)["Subject"])
            == "Café interview")
