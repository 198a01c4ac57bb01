"""`jobtracker learn`: the user's decisions read into proposals of kind `profile`.

Nothing here edits profile.yaml. Each suggestion (jobtracker.learning.suggest) is
checked against the file as it is now — the edit must be one this can make in its
text and the result must still load as a profile — and stored as a proposal whose
key is the edit and the decisions behind it, so the same evidence never makes a
second proposal (a rejected one stays rejected). A change the user rejected is
suggested again only once MIN_DECISIONS more decisions back it than the rejected
proposal had, and never while a proposal for the same edit waits.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from jobtracker import files, proposals, store
from jobtracker.clock import now_iso
from jobtracker.config import ConfigError, Profile, load_profile
from jobtracker.learning.suggest import (
    MIN_DECISIONS,
    Applied,
    Dismissal,
    Suggestion,
    suggestions,
)
from jobtracker.proposals.profile import PROFILE, text_hash
from jobtracker.text import one_line
from jobtracker.workspace import Workspace
from jobtracker.yamlfile.edit import EditError, apply

TASK = "learn"
# Proposals made by one run at most, strongest evidence first: a review queue of a
# hundred profile edits is noise, and the rest are still there next time.
MAX_NEW = 10


@dataclass(frozen=True)
class Learned:
    made: list[tuple[int, str]]      # (proposal id, summary) of the proposals new this time
    waiting: int                     # suggestions already pending as proposals
    declined: int                    # suggestions the user rejected, on too little new evidence
    unusable: list[str]              # suggestions this file cannot take as written (why)
    decisions: int                   # dismissals and applications read
    later: int = 0                   # suggestions left for a later run (MAX_NEW made)


async def load_decisions(conn: aiosqlite.Connection) -> tuple[list[Dismissal], list[Applied]]:
    dismissed = [Dismissal(r[0], r[1], r[2], r[3] or "", r[4] or "")
                 for r in await conn.execute_fetchall(
                     "SELECT d.id, d.posting_id, d.reason, p.company, p.title "
                     "FROM dismissals AS d JOIN postings AS p ON p.id = d.posting_id "
                     "WHERE d.undismissed_at IS NULL ORDER BY d.id")]
    applied = [Applied(r[0], r[1], r[2] or "", r[3] or "", _level(r[4]))
               for r in await conn.execute_fetchall(
                   "SELECT a.id, a.posting_id, COALESCE(p.company, a.company), "
                   "COALESCE(p.title, ''), p.title_level "
                   "FROM applications AS a LEFT JOIN postings AS p ON p.id = a.posting_id "
                   "WHERE a.status != 'saved' ORDER BY a.id")]
    return dismissed, applied


def _level(value: str | None) -> str | None:
    return value.lower() if value and value != "UNCERTAIN" else None


def _filtered_companies(profile: Profile) -> list[str]:
    filters = getattr(profile, "filters", None)
    return [getattr(c, "name", "") for c in getattr(filters, "companies", ()) or ()]


def unit_key(suggestion: Suggestion) -> str:
    ids = sorted((d["type"], d["id"]) for d in suggestion.decisions)
    blob = json.dumps([suggestion.edit.to_json(), ids], sort_keys=True)
    return "profile:" + hashlib.sha256(blob.encode()).hexdigest()[:20]


def edit_key(suggestion: Suggestion) -> str:
    return json.dumps(suggestion.edit.to_json(), sort_keys=True)


def _still_loads(text: str, home: Path) -> str | None:
    """Why the edited text would not load as profile.yaml (None: it loads); read from
    memory as that file, so an error names profile.yaml, never a temporary file."""
    try:
        load_profile(home / PROFILE, text=text)
    except ConfigError as error:
        return str(error)
    return None


async def _earlier(conn: aiosqlite.Connection) -> dict[str, list[tuple[str, int]]]:
    """Edit -> (state, number of decisions) of every earlier profile proposal."""
    rows = await conn.execute_fetchall(
        "SELECT state, payload FROM proposals WHERE kind = 'profile'")
    out: dict[str, list[tuple[str, int]]] = {}
    for state, payload in rows:
        data = json.loads(payload)
        key = json.dumps(data.get("edit"), sort_keys=True)
        out.setdefault(key, []).append((state, len(data.get("decisions") or [])))
    return out


async def learn(conn: aiosqlite.Connection, home: Path, profile: Profile,
                now: str) -> Learned:
    """Read the decisions and store new profile proposals in one transaction."""
    path = home / PROFILE
    try:
        text = files.read_regular(path, follow_links=True) or ""
    except files.FileRefused as error:
        raise ConfigError(path, error.reason.removeprefix("is ")) from None
    dismissed, applied = await load_decisions(conn)
    found = suggestions(profile, dismissed, applied, _filtered_companies(profile))
    made: list[tuple[int, str]] = []
    unusable: list[str] = []
    waiting = declined = later = 0
    async with store.write(conn):
        earlier = await _earlier(conn)
        for index, suggestion in enumerate(found):
            if len(made) >= MAX_NEW:
                later = len(found) - index
                break
            before = earlier.get(edit_key(suggestion), [])
            if any(state == "pending" for state, _ in before):
                waiting += 1
                continue
            rejected = [n for state, n in before if state == "rejected"]
            if rejected and len(suggestion.decisions) < max(rejected) + MIN_DECISIONS:
                declined += 1
                continue
            try:
                edited = apply(text, suggestion.edit)
            except EditError as error:
                unusable.append(f"{suggestion.summary}: {error}")
                continue
            problem = _still_loads(edited, home)
            if problem is not None:
                unusable.append(f"{suggestion.summary}: {problem}")
                continue
            key = unit_key(suggestion)
            known = await (await conn.execute(
                "SELECT 1 FROM proposals WHERE task = ? AND unit_key = ?", (TASK, key))).fetchone()
            new_id = await proposals.profile.propose(
                conn, task=TASK, unit_key=key, payload=_payload(
                    suggestion, text), summary=suggestion.summary, now=now,
                input_hash=text_hash(text))
            if known is None:
                made.append((new_id, suggestion.summary))
    return Learned(made, waiting, declined, unusable, len(dismissed) + len(applied), later)


def _payload(suggestion: Suggestion, text: str) -> proposals.profile.Payload:
    return {"edit": suggestion.edit.to_json(), "profile_hash": text_hash(text),
            "rule": suggestion.rule, "evidence": suggestion.evidence,
            "decisions": suggestion.decisions}


async def learn_workspace(ws: Workspace, now: str | None = None) -> Learned:
    """Read the workspace's decisions into profile proposals (also the end of `--run`)."""
    profile = ws.profile()
    async with store.connect(ws.db) as conn:
        return await learn(conn, ws.home, profile, now or now_iso())


def report(found: Learned) -> list[str]:
    lines = [f"learn: read {found.decisions} decision(s); {len(found.made)} new proposal(s)"
             + (f", {found.waiting} already waiting" if found.waiting else "")
             + (f", {found.declined} you turned down" if found.declined else "")
             + (f", {found.later} more next time" if found.later else "")]
    lines += [f"  proposal {pid}: {one_line(summary)}" for pid, summary in found.made]
    lines += [f"  not proposed: {one_line(why)}" for why in found.unusable]
    if found.made:
        lines.append("review them: jobtracker proposals list --pending (or p in jobtracker-tui)")
    return lines
