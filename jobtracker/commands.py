"""Imports every module that registers a `jobtracker` subcommand."""

from jobtracker import cli_proposals  # noqa: F401
