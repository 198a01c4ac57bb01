"""Imports every module that registers a `jobtracker` subcommand."""

from jobtracker import (
    cli_add,  # noqa: F401
    cli_fetch,  # noqa: F401
    cli_matches,  # noqa: F401
    cli_model,  # noqa: F401
    cli_proposals,  # noqa: F401
    cli_work,  # noqa: F401
)
