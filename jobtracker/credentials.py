"""Credentials read at the moment they are needed: from an environment variable, or
the first line a command prints (`pass show mail/imap`).

Shared by IMAP (jobtracker/mail/imap/password.py) and the digest's channels
(jobtracker/notify/). The value is returned to the caller and kept nowhere else. A
command's output is never shown, even when it fails (`pass` or `gpg` may print the
secret before a later step fails). `field` names the setting in every message
(`imap.password_command`, `notify.email.password_command`).
"""

from __future__ import annotations

import os
import shlex
import subprocess

COMMAND_TIMEOUT = 60.0        # a pinentry prompt may be waiting for the user
# Characters that only a shell gives a meaning to: a command using one runs through
# /bin/sh -c; any other runs as its own words (shlex), so no shell sees it.
SHELL_CHARACTERS = frozenset("|&;<>()$`*?[]{}~#\n")


class CredentialError(Exception):
    """No credential could be had; the message says why and never holds one."""


def needs_shell(command: str) -> bool:
    """Whether `command` uses a shell feature (a pipe, a variable, a glob, `~`...)."""
    return any(ch in SHELL_CHARACTERS for ch in command)


def argv(command: str, field: str) -> list[str]:
    if needs_shell(command):
        return ["/bin/sh", "-c", command]
    try:
        words = shlex.split(command)
    except ValueError as exc:      # an unbalanced quote
        raise CredentialError(f"{field} cannot be split into words: {exc}") from None
    if not words:
        raise CredentialError(f"{field} is empty")
    return words


def run_command(command: str, field: str, timeout: float = COMMAND_TIMEOUT) -> str:
    """The first line the command prints (as `pass` prints a password first)."""
    words = argv(command, field)
    try:
        done = subprocess.run(words, stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=timeout, check=False)
    except FileNotFoundError:
        raise CredentialError(f"{field}: {words[0]}: no such program") from None
    except subprocess.TimeoutExpired:
        raise CredentialError(f"{field} did not finish within {timeout:.0f} s") from None
    except OSError as exc:
        raise CredentialError(f"{field}: {words[0]}: {exc.strerror or exc}") from None
    if done.returncode != 0:
        raise CredentialError(f"{field} failed (exit status {done.returncode}); "
                              "its output is never shown")
    line = done.stdout.decode("utf-8", errors="replace").split("\n", 1)[0].rstrip("\r")
    if not line:
        raise CredentialError(f"{field} printed nothing on its first line")
    return line


def resolve(env: str | None, command: str | None, *, env_field: str, command_field: str,
            timeout: float = COMMAND_TIMEOUT) -> str:
    """The credential from the variable `env` names, else from `command`."""
    if env is not None:
        value = os.environ.get(env, "")
        if not value:
            raise CredentialError(f"the variable {env} ({env_field}) is not set")
        return value
    if command is None:
        raise CredentialError(f"give {env_field} or {command_field}")
    return run_command(command, command_field, timeout)


__all__ = ["COMMAND_TIMEOUT", "SHELL_CHARACTERS", "CredentialError", "needs_shell", "resolve",
           "run_command"]
