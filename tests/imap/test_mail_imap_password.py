"""The IMAP password: a command run without a shell unless it needs one."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from jobtracker.mail.imap import ImapError
from jobtracker.mail.imap.password import needs_shell, run_password_command


def test_password_command_runs_without_a_shell_unless_it_needs_one(tmp_path: Path) -> None:
    assert not needs_shell("pass show mail/imap")
    assert needs_shell("gpg -dq ~/.imap.gpg") and needs_shell("cat pw | head -1")
    script = f"{sys.executable} -c \"print('s3cret-line'); print('second')\""
    assert run_password_command(script) == "s3cret-line"
    # `$0` is a shell's: without a shell it would be printed as is.
    assert run_password_command("echo $0 | tr -d '\\n'; echo") == "/bin/sh"
    with pytest.raises(ImapError) as failed:
        run_password_command(f"{sys.executable} -c \"print('leaked-pw'); raise SystemExit(3)\"")
    assert "exit status 3" in str(failed.value) and "leaked-pw" not in str(failed.value)
    with pytest.raises(ImapError, match="no such program"):
        run_password_command("/nonexistent/pass show x")
