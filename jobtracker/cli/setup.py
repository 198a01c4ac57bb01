"""`jobtracker init` and `jobtracker check`: make a workspace, and say whether it is sound."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from jobtracker.cli.base import EXIT_OK, EXIT_USAGE, command

if TYPE_CHECKING:   # the workspace's files, the store and the answers load when a command runs
    from jobtracker.workspace import Workspace


def _configure_init(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--demo", action="store_true",
                        help="fill the workspace with a sample data set instead")


@command("init", "create the workspace and every missing file (never overwrites)",
         _configure_init, creates_workspace=True)
def cmd_init(args: argparse.Namespace, ws: Workspace) -> int:
    if args.demo:
        from jobtracker.demo import install_demo

        created = install_demo(ws)
    else:
        created = ws.init()
    for path in created:
        print(f"created {path}")
    if not created:
        print(f"{ws.home}: every file already exists; nothing changed")
    warn_exposed(ws)
    return EXIT_OK


def warn_exposed(ws: Workspace) -> None:
    """A warning (not an error: the user may share the folder on purpose) for each part
    of the workspace others can read: answers.yaml holds a phone number and a salary,
    the database holds mail."""
    from jobtracker.workspace import exposed

    found = exposed(ws.home)
    for path, mode in found[:10]:
        print(f"jobtracker: warning: {path} can be read by others (mode {mode:04o}); it "
              "holds your answers and mail", file=sys.stderr)
    if found:
        more = f" (and {len(found) - 10} more)" if len(found) > 10 else ""
        print(f"jobtracker: warning: make the workspace private with: chmod -R go-rwx "
              f"{ws.home}{more}", file=sys.stderr)


def warn_no_resume(ws: Workspace) -> None:
    """A warning, not an error (fetching and judging need no resume), when resume.md is
    missing or empty: the tasks and commands that write from it cannot."""
    from jobtracker import files
    from jobtracker.resume import RESUME

    path = ws / RESUME
    try:
        text = files.read_regular(path)
    except files.FileRefused:
        return           # check_inputs names a resume.md that is not a readable file
    if not (text or "").strip():
        state = "is missing" if text is None else "is empty"
        print(f"jobtracker: warning: {path} {state}; tailor, coverletter, answer and "
              "prepare need your resume there (`jobtracker resume import FILE.json` writes "
              "one from a JSON Resume)", file=sys.stderr)


def _configure_check(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--send-test", action="store_true",
                        help="also send a test message to every channel in notify.to")


@command("check", "validate every file in the workspace and open the database",
         _configure_check)
def cmd_check(args: argparse.Namespace, ws: Workspace) -> int:
    import asyncio

    from jobtracker import store
    from jobtracker.prepare.answer_bank import load_answers
    from jobtracker.run.setup import check_inputs, config_of, plugins_of, sources_of

    config = config_of(ws)
    ws.profile()
    sources_of(ws)
    plugins_of(ws)
    if config.llm.api_key_env and not os.environ.get(config.llm.api_key_env):
        # Not an error: the variable may be set only where runs happen (a systemd unit).
        print(f"jobtracker: warning: llm.api_key_env names {config.llm.api_key_env}, which is "
              "not set here; calls would carry no key", file=sys.stderr)
    load_answers(ws / "answers.yaml")
    check_inputs(ws.home)      # resume.md, keywords.yaml, ...: files, readable, parsed

    async def open_db() -> str:
        # connect() migrates and checks that every table is there (else StoreError).
        async with store.connect(ws.db) as conn:
            return await store.integrity_check(conn)

    verdict = asyncio.run(open_db())
    if verdict != "ok":
        print(f"jobtracker: {ws.db}: the database is damaged (integrity check: "
              f"{' '.join(verdict.split())[:300]}); restore it from a backup, or move it "
              "aside to start a new, empty one", file=sys.stderr)
        return EXIT_USAGE
    print(f"{ws.home}: configuration ok; database ok "
          f"(integrity ok, all {len(store.expected_tables())} tables)")
    warn_no_resume(ws)
    warn_exposed(ws)
    if config.imap is not None:     # the account's login, tested (it changes nothing)
        from jobtracker.mail.imap import ImapError, check_login

        try:
            print(check_login(config.imap))
        except ImapError as exc:
            print(f"jobtracker: imap: {config.imap.account}: {exc}", file=sys.stderr)
            return EXIT_USAGE
    if getattr(args, "send_test", False):
        from jobtracker.notify.send import check_channels

        return check_channels(ws, config)
    return EXIT_OK
