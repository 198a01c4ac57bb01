"""config.yaml's imap section: what it accepts and the errors it names."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobtracker.config import ConfigError, load_config
from jobtracker.tasks import ordered


def test_config_section(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("imap:\n  host: imap.example.org\n  user: ada@example.org\n"
                    "  password_env: JT\n  folders: [INBOX, Jobs/Replies]\n")
    imap = load_config(path, ordered()).imap
    assert imap is not None and (imap.port, imap.tls) == (993, True)
    assert imap.folders == ("INBOX", "Jobs/Replies")
    assert imap.account == "ada@example.org@imap.example.org:993"
    for text, fragment in [
        ("imap:\n  host: imap.example.org\n  user: a\n  password_env: X\n  tls: false\n",
         "imap.tls: tls: false is only for a server on this machine"),
        ("imap:\n  host: h\n  user: a\n", "give exactly one of password_command"),
        ("imap:\n  host: h\n  user: a\n  password_env: X\n  password_command: y\n",
         "give exactly one of"),
        ("imap:\n  host: h\n  user: a\n  password_env: X\n  tls: maybe\n",
         "must be true, starttls or false"),
        ("imap:\n  host: h\n  user: a\n  password_env: X\n  pasword: y\n", "unknown key"),
    ]:
        path.write_text(text)
        with pytest.raises(ConfigError, match=fragment):
            load_config(path, ordered())
    path.write_text("imap:\n  host: 127.0.0.1\n  user: a\n  password_env: X\n  tls: false\n")
    assert load_config(path, ordered()).imap.port == 143   # type: ignore[union-attr]
