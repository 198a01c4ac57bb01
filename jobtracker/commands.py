"""Imports every module that registers a `jobtracker` subcommand."""
