"""The IMAP password: from an environment variable, or printed by a command.

The password is returned to the caller and kept nowhere else: not in the config, not in
an error message, not in the database. A command's output is never shown, even when
it fails (`pass` or `gpg` may print the secret before a later step fails).
"""

from __future__ import annotations

import os
import shlex
import subprocess

from jobtracker.config import ImapConfig
from jobtracker.mail.imap.errors import ImapError

COMMAND_TIMEOUT = 60.0        # a pinentry prompt may be waiting for the user
# Characters that only a shell gives a meaning to: a command using one runs through
# /bin/sh -c; any other runs as its own words (shlex), so no shell sees it.
SHELL_CHARACTERS = frozenset("|&;<>()$`*?[]{}~#\n")


def needs_shell(command: str) -> bool:
    """Whether `command` uses a shell feature (a pipe, a variable, a glob, `~`...)."""
    return any(ch in SHELL_CHARACTERS for ch in command)


def _argv(command: str) -> list[str]:
    if needs_shell(command):
        return ["/bin/sh", "-c", command]
    try:
        argv = shlex.split(command)
    except ValueError as exc:      # an unbalanced quote
        raise ImapError(f"imap.password_command cannot be split into words: {exc}") from None
    if not argv:
        raise ImapError("imap.password_command is empty")
    return argv


def run_password_command(command: str) -> str:
    """The first line the command prints (as `pass` prints a password first)."""
    argv = _argv(command)
    try:
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=COMMAND_TIMEOUT, check=False)
    except FileNotFoundError:
        raise ImapError(f"imap.password_command: {argv[0]}: no such program") from None
    except subprocess.TimeoutExpired:
        raise ImapError(f"imap.password_command did not finish within "
                        f"{COMMAND_TIMEOUT:.0f} s") from None
    except OSError as exc:
        raise ImapError(f"imap.password_command: {argv[0]}: {exc.strerror or exc}") from None
    if done.returncode != 0:
        raise ImapError(f"imap.password_command failed (exit status {done.returncode}); "
                        "its output is never shown")
    line = done.stdout.decode("utf-8", errors="replace").split("\n", 1)[0].rstrip("\r")
    if not line:
        raise ImapError("imap.password_command printed nothing on its first line")
    return line


def resolve_password(cfg: ImapConfig) -> str:
    """The account's password, or ImapError saying why there is none."""
    if cfg.password_env is not None:
        value = os.environ.get(cfg.password_env, "")
        if not value:
            raise ImapError(f"the variable {cfg.password_env} (imap.password_env) is not set")
        return value
    assert cfg.password_command is not None    # the config loader requires one of them
    return run_password_command(cfg.password_command)
