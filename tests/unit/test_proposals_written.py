"""What the two file-writing kinds (resume_edit, letter) share: which file a proposal
writes, and which one it wrote."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jobtracker.proposals.core import Proposal
from jobtracker.proposals.written import decided_path, file_for, recorded_path

HOME = Path("/home/ada/jobs")


def proposal(column: int | None = 12, decision: dict[str, Any] | None = None,
             **payload: Any) -> Proposal:
    """A letter proposal for posting `column` (its posting_id column)."""
    return Proposal(id=1, kind="letter", task="coverletter", unit_key="u", item=0,
                    posting_id=column, application_id=None,
                    payload={"company": "Acme, Inc.", "title": "Senior Engineer", **payload},
                    input_hash="", summary="", stored_state="accepted", created_at="t",
                    decided_at="t", decision=decision)


def test_the_file_is_named_after_the_posting_and_its_company_and_title() -> None:
    assert file_for(HOME, "letters", proposal()) == HOME / "letters/12-acme-inc-senior-engineer.md"
    # A proposal stored without its posting column names it in the payload.
    assert file_for(HOME, "tailored", proposal(None, posting_id=7)).name == (
        "7-acme-inc-senior-engineer.md")


def test_the_file_a_decision_recorded_wins_over_the_name_made_now() -> None:
    """A posting whose title changed since keeps the file it was written to."""
    written = proposal(decision={"path": "letters/12-acme-staff-engineer.md"})
    assert decided_path(HOME, "letters", written) == HOME / "letters/12-acme-staff-engineer.md"
    assert decided_path(HOME, "letters", proposal(decision={})) == file_for(
        HOME, "letters", proposal())
    default = HOME / "letters/default.md"
    assert recorded_path(HOME, [proposal(decision={}), written], default) == (
        HOME / "letters/12-acme-staff-engineer.md")
    assert recorded_path(HOME, [], default) == default
