"""config.yaml's notify: and timezone: sections, each mistake named by file, line and
field (docs/notify.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobtracker.config import Config, ConfigError, EmailChannel, load_config


def load(tmp_path: Path, text: str) -> Config:
    path = tmp_path / "config.yaml"
    path.write_text(text)
    return load_config(path, [])


def refused(tmp_path: Path, text: str) -> str:
    with pytest.raises(ConfigError) as caught:
        load(tmp_path, text)
    return str(caught.value)


def test_defaults_and_a_full_section(tmp_path: Path) -> None:
    assert load(tmp_path, "").notify is None
    cfg = load(tmp_path, (
        "timezone: Europe/Berlin\n"
        "notify:\n"
        "  to: [file, email, ntfy]\n"
        "  min_verdict: strong\n"
        "  email: {to: ada@example.org, host: smtp.example.org, tls: starttls, user: ada,\n"
        "          password_env: JT_SMTP}\n"
        "  ntfy: {url: 'https://ntfy.sh/ada-jobs', token_env: JT_NTFY}\n"))
    assert cfg.timezone == "Europe/Berlin"
    assert cfg.notify is not None and cfg.notify.to == ("file", "email", "ntfy")
    assert cfg.notify.email == EmailChannel(
        to=("ada@example.org",), host="smtp.example.org", port=587, tls="starttls",
        user="ada", password_env="JT_SMTP")
    assert cfg.notify.ntfy is not None and cfg.notify.ntfy.token_env == "JT_NTFY"
    assert cfg.notify.deadline == 30


@pytest.mark.parametrize(("text", "message"), [
    ("notify:\n  to: [file, pager]\n",
     "config.yaml:2: notify.to[1]: unknown value 'pager' (expected one of: file, email"),
    ("notify:\n  to: [email]\n",
     "config.yaml:2: notify.to: names email, which needs a notify.email section"),
    ("notify:\n  min_verdict: great\n",
     "config.yaml:2: notify.min_verdict: must be one of: strong, good, partial, poor"),
    ("notify:\n  to: [email]\n  email: {to: ada@example.org, host: smtp.example.org, "
     "tls: false}\n", "config.yaml:3: notify.email.tls: tls: false is only for a server on "
                      "this machine"),
    ("notify:\n  email:\n    to: ada@example.org\n    user: ada\n",
     "config.yaml:2: notify.email: give exactly one of password_env and password_command"),
    ("notify:\n  email:\n    to: 'Ada <ada@example.org>'\n",
     "config.yaml:3: notify.email.to: must be a plain address"),
    ("notify:\n  email: {from: x@y}\n", "config.yaml:2: notify.email.to: is required"),
    ("notify:\n  ntfy: {url: 'https://ntfy.sh/'}\n",
     "config.yaml:2: notify.ntfy.url: must name the topic"),
    ("notify:\n  ntfy: {url: 'https://u:p@ntfy.sh/t'}\n",
     "config.yaml:2: notify.ntfy.url: a user name or password in the URL is never sent"),
    ("notify:\n  ntfy: {url: 'http://ntfy.example.org/t', token_env: T}\n",
     "config.yaml:2: notify.ntfy.url: a token is sent only over https"),
    ("notify:\n  deadline: 0\n", "config.yaml:2: notify.deadline: must be a number from 0.1"),
    ("timezone: Mars/Olympus\n", "config.yaml:1: timezone: 'Mars/Olympus' is not a time zone"),
])
def test_mistakes_name_the_line_and_the_field(tmp_path: Path, text: str, message: str) -> None:
    assert message in refused(tmp_path, text)
