"""The sender of an alert is its From header's one mailbox, parsed before any encoded
word is decoded: a test per forged form, none of which makes a posting."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from alerts_samples import google_redirect

from jobtracker import alerts
from jobtracker.alerts import mime

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "real" / "alerts"
GENUINE = (REAL / "linkedin-melbourne-1.eml").read_bytes()


def with_from(raw: bytes, *values: str) -> bytes:
    """The mail with its From header(s) replaced by `values` (one header each)."""
    head, _, body = raw.partition(b"\n\n")
    lines = [line for line in head.split(b"\n") if not re.match(rb"(?i)from:", line)]
    lines[:0] = [b"From: " + value.encode("utf-8") for value in values]
    return b"\n".join(lines) + b"\n\n" + body


def test_the_genuine_mail_reads() -> None:
    reading = alerts.read(GENUINE)
    assert reading is not None and reading.sender == "linkedin" and len(reading.postings) == 5
    assert mime.sender_address(GENUINE) == "jobalerts-noreply@linkedin.com"


@pytest.mark.parametrize("value", [
    "LinkedIn Job Alerts <jobalerts-noreply@linkedin.com>",
    '"LinkedIn Job Alerts" <jobalerts-noreply@linkedin.com>',
    "=?UTF-8?Q?LinkedIn_Job_Alerts?= <jobalerts-noreply@linkedin.com>",
    "jobalerts-noreply@linkedin.com",
    "<jobalerts-noreply@linkedin.com> (LinkedIn)",
    "LinkedIn <JobAlerts-NoReply@LinkedIn.COM>",
])
def test_genuine_forms_of_the_sender_still_read(value: str) -> None:
    reading = alerts.read(with_from(GENUINE, value))
    assert reading is not None and reading.sender == "linkedin" and reading.postings


FORGED = {
    "the display name spells the address": "jobalerts-noreply@linkedin.com <attacker@evil.example>",
    "an encoded word spells name and address":
        "=?utf-8?q?LinkedIn_=3Cjobalerts-noreply=40linkedin=2Ecom=3E?= <attacker@evil.example>",
    "an encoded word where the address belongs": "=?utf-8?q?jobalerts-noreply=40linkedin.com?=",
    "two mailboxes": "LinkedIn <jobalerts-noreply@linkedin.com>, attacker@evil.example",
    "two addresses in brackets":
        "LinkedIn <jobalerts-noreply@linkedin.com> <attacker@evil.example>",
    "a group": "LinkedIn: jobalerts-noreply@linkedin.com;",
    "a look-alike domain": "LinkedIn <jobalerts-noreply@linkedin.com.example>",
    "a hyphenated look-alike": "LinkedIn <jobalerts-noreply@evil-linkedin.com>",
    "punycode of a homoglyph": "LinkedIn <jobalerts-noreply@xn--linkedn-y6a.com>",
    "a homoglyph in Unicode": "LinkedIn <jobalerts-noreply@linkedın.com>",
    "the address in a comment": "attacker@evil.example (jobalerts-noreply@linkedin.com)",
    "a quoted local part holding the address":
        '"jobalerts-noreply@linkedin.com"@evil.example',
    "an unclosed bracket": "LinkedIn <jobalerts-noreply@linkedin.com",
}


@pytest.mark.parametrize("form", sorted(FORGED))
def test_a_forged_sender_makes_no_posting(form: str) -> None:
    raw = with_from(GENUINE, FORGED[form])
    reading = alerts.read(raw)
    assert reading is None or not reading.postings, form
    assert alerts.sender_of(mime.sender_address(raw)) is None, form


def test_two_from_headers_make_no_posting() -> None:
    raw = with_from(GENUINE, "LinkedIn <jobalerts-noreply@linkedin.com>",
                    "Attacker <attacker@evil.example>")
    assert alerts.read(raw) is None
    assert mime.sender_address(raw) == ""


def test_a_google_alert_link_to_a_look_alike_search_host_is_no_card() -> None:
    google = alerts.REGISTRY["google"]
    genuine = google_redirect("https://www.google.com/search?q=jobs&ibp=htl;jobs&htidocid=a")
    forged = google_redirect("https://www.google.com.evil.example/search?q=jobs&ibp=htl;jobs")
    assert google.job_link(genuine) is not None
    assert google.job_link(forged) is None


def _nested(depth: int, subject: str) -> bytes:
    head = (f"From: LinkedIn <jobalerts-noreply@linkedin.com>\r\nSubject: {subject}\r\n"
            "Message-ID: <deep@x>\r\n")
    body = "Content-Type: text/plain\r\n\r\nView job: https://www.linkedin.com/comm/jobs/view/4317109784/\r\n"
    for level in range(depth):
        body = (f'Content-Type: multipart/mixed; boundary="b{level}"\r\n\r\n--b{level}\r\n'
                f"{body}\r\n--b{level}--\r\n")
    return (head + body).encode()


def test_a_mail_nested_past_the_walkers_depth_is_counted_as_not_understood() -> None:
    """Its body is never walked; from a sender of alerts it is a mail not understood
    (named by its subject in the fetch line), whatever its subject says."""
    reading = alerts.read(_nested(mime.MAX_NESTING + 5, "Your weekly digest"))
    assert reading is not None and reading.sender == "linkedin"
    assert reading.template == "unreadable" and not reading.understood
    shallow = alerts.read(_nested(8, "Senior Engineer at Acme"))
    assert shallow is not None and shallow.template != "unreadable"


@pytest.mark.parametrize("form", sorted(FORGED))
def test_the_inbox_never_takes_a_forged_sender_for_an_alert(form: str) -> None:
    """The inbox's sync marks alert mail (never read as a reply); it asks the same
    parsed mailbox, so a forged From is read as the mail it is."""
    from jobtracker.intake.mail import alert_of
    from jobtracker.mail.maildir import parse_message

    assert alert_of(parse_message(GENUINE)) == "linkedin"
    assert alert_of(parse_message(with_from(GENUINE, FORGED[form]))) is None, form
