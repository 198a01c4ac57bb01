"""The IMAP password: from an environment variable, or printed by a command.

The password is returned to the caller and kept nowhere else: not in the config, not in
an error message, not in the database. How it is read (and why a command's output is
never shown) is jobtracker/credentials.py, which the digest's channels share.
"""

from __future__ import annotations

from jobtracker import credentials
from jobtracker.config import ImapConfig
from jobtracker.credentials import COMMAND_TIMEOUT, SHELL_CHARACTERS, needs_shell
from jobtracker.mail.imap.errors import ImapError

__all__ = ["COMMAND_TIMEOUT", "SHELL_CHARACTERS", "needs_shell", "resolve_password",
           "run_password_command"]


def run_password_command(command: str) -> str:
    """The first line the command prints (as `pass` prints a password first)."""
    try:
        return credentials.run_command(command, "imap.password_command")
    except credentials.CredentialError as exc:
        raise ImapError(str(exc)) from None


def resolve_password(cfg: ImapConfig) -> str:
    """The account's password, or ImapError saying why there is none."""
    try:
        return credentials.resolve(cfg.password_env, cfg.password_command,
                                   env_field="imap.password_env",
                                   command_field="imap.password_command")
    except credentials.CredentialError as exc:
        raise ImapError(str(exc)) from None
