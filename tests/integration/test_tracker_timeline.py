"""One application's timeline: history, mail and notes, stored and shown literally."""

from __future__ import annotations

import json

import pytest

from jobtracker.workspace import Workspace
from tests import tracker_world
from tests.tracker_world import cli

# The shared fixtures, bound here by name so that pytest finds them in this file.
world = tracker_world.world


def test_show_has_history_mail_and_notes_stored_and_shown_literally(
        world: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    hostile = "call [red]Rita[/red] \x1b[31mnow\x1b[0m"
    assert cli(capsys, world, "applications", "note", "1", hostile)[0] == 0
    code, out, _ = cli(capsys, world, "applications", "show", "1", "--json")
    found = json.loads(out)
    assert code == 0 and found["notes"][0]["text"] == hostile
    assert [(h["from"], h["to"], h["source"]) for h in found["history"]] == [
        (None, "applied", "hand")]
    assert [(m["date"], m["state"]) for m in found["messages"]] == [
        ("2026-10-06T10:00:00Z", "scheduling")]
    assert {"id", "posting", "company", "title", "status", "applied_at", "last_contact_at",
            "followup_due", "due", "url"} <= set(found)
    code, out, _ = cli(capsys, world, "applications", "show", "1")
    assert "[red]Rita[/red]" in out and "\x1b" not in out
    assert "mail from Rita <rita@acme.test>: Re: your application [scheduling]" in out
