"""The one check of whether configured mail can be read (the mail intake step and the
inbox task share it): each reason, and None for a usable Maildir or an IMAP account."""

from __future__ import annotations

from pathlib import Path

from jobtracker.config import Config, ImapConfig
from jobtracker.mail.folders import unusable


def test_each_reason_and_the_usable_cases(tmp_path: Path) -> None:
    imap = ImapConfig(host="127.0.0.1", port=1, user="a", password_env="X")
    assert unusable(Config()) == "no maildir configured"
    assert unusable(Config(imap=imap)) is None
    assert unusable(Config(maildir=tmp_path / "gone")) == f"maildir {tmp_path / 'gone'} is missing"
    assert unusable(Config(maildir=tmp_path)) == f"maildir {tmp_path} has no cur/ or new/ folder"
    for folder in ("cur", "new"):                  # either folder makes it a Maildir
        box = tmp_path / f"box-{folder}"
        (box / folder).mkdir(parents=True)
        assert unusable(Config(maildir=box)) is None
    # A missing Maildir is a reason even with IMAP set: nothing is read from either.
    assert unusable(Config(maildir=tmp_path / "gone", imap=imap)) is not None
