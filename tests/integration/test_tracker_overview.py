"""Applications with derived dates: due dates from history and mail as of --today,
follow-up days from config."""

from __future__ import annotations

import pytest

from jobtracker.workspace import Workspace
from tests import tracker_world
from tests.tracker_world import cli, listed

# The shared fixtures, bound here by name so that pytest finds them in this file.
world = tracker_world.world


def test_due_dates_come_from_history_and_mail_as_of_today(
        world: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    rows = listed(capsys, world, "--today", "2026-10-12")
    assert rows[1]["applied_at"] == "2026-10-01T09:00:00Z"
    assert rows[1]["last_contact_at"] == "2026-10-06T10:00:00Z"
    assert rows[1]["followup_due"] == "2026-10-16" and rows[1]["due"] is False
    assert rows[2]["last_contact_at"] == "2026-10-01T09:05:00Z"   # mail linked by company
    assert rows[2]["followup_due"] == "2026-10-11" and rows[2]["due"] is True
    assert rows[3]["followup_due"] == "2026-10-25" and rows[3]["due"] is False
    assert rows[4]["followup_due"] is None and rows[4]["applied_at"] is None
    assert list(listed(capsys, world, "--today", "2026-10-12", "--due")) == [2]
    assert set(listed(capsys, world, "--today", "2026-10-26", "--due")) == {1, 2, 3}
    assert list(listed(capsys, world, "--status", "saved")) == [4]
    # Most recent activity first: Crane's status change, then Acme's reply, then Bolt.
    assert list(listed(capsys, world))[:3] == [3, 1, 2]


def test_followup_days_come_from_config(world: Workspace,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    (world.home / "config.yaml").write_text("followup: {applied: 2, ghosted_after: 5}\n")
    rows = listed(capsys, world, "--today", "2026-10-12")
    assert rows[1]["followup_due"] == "2026-10-08" and rows[1]["due"] is True
    assert rows[3]["followup_due"] == "2026-10-25"                 # interviewing: default 5
    (world.home / "config.yaml").write_text("followup: {aplied: 2}\n")
    code, _, err = cli(capsys, world, "applications")
    assert code == 2 and "config.yaml:1: followup.aplied: unknown key" in err
