"""The exit codes every command ends with (docs/cli.md): stated once, here, for the
command lines and for the headless run they share (`headless.py`)."""

from __future__ import annotations

import signal

EXIT_OK, EXIT_ALL_FAILED, EXIT_USAGE = 0, 1, 2
EXIT_INTERRUPTED = 128 + signal.SIGINT
EXIT_TERMINATED = 128 + signal.SIGTERM
EXIT_CLOSED_PIPE = 128 + signal.SIGPIPE   # what a shell reports for a writer whose reader left
