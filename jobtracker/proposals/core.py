"""The proposals core: the store, accept/reject/undo, and the registry of kinds.

A task writes a proposal inside its own unit's transaction (`create`, idempotent
on task + unit_key + item). Nothing it proposes changes the user's world until
`accept`, which applies it in one transaction through its kind's applier.
`reject` records the decision; `undo_last` takes back the most recent decision
while nothing depends on it.

A kind is one module in this package declaring `KIND = Kind(...)`, listed in
the package's `_KINDS`: how to apply an accepted proposal (and undo that), how
to tell that its inputs changed since it was made (stale), and how its proposals
are shown (`Presentation`). A stale proposal is listed as `stale` and cannot be
accepted as it is. This module knows no kind by name.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, NotRequired, TypedDict

from jobtracker import store
from jobtracker.proposals.lines import Line, text_field

if TYPE_CHECKING:
    import aiosqlite

STATES = ("pending", "accepted", "rejected", "stale")   # 'stale' is computed, never stored


class ProposalError(Exception):
    """A decision that cannot be made as asked; the message names the proposal."""

    def __init__(self, proposal_id: int, message: str) -> None:
        super().__init__(message)
        self.proposal_id = proposal_id


@dataclass(frozen=True)
class Proposal:
    id: int
    kind: str
    task: str
    unit_key: str
    item: int
    posting_id: int | None
    application_id: int | None
    payload: dict[str, Any]
    input_hash: str
    summary: str
    stored_state: str                 # pending, accepted or rejected
    created_at: str
    decided_at: str | None
    decision: dict[str, Any] | None   # what accept changed, for undo
    stale_reason: str | None = None   # set when pending and its inputs changed
    model: str | None = None          # which model answered (None: unknown, an older row)
    prompt_version: str | None = None # the asking task's prompt version (None: unknown)

    @property
    def state(self) -> str:
        """pending, accepted, rejected, or stale (pending, inputs changed)."""
        if self.stored_state == "pending" and self.stale_reason:
            return "stale"
        return self.stored_state

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "kind": self.kind, "task": self.task, "state": self.state,
            "posting": self.posting_id, "application": self.application_id,
            "summary": self.summary, "unit_key": self.unit_key, "item": self.item,
            "payload": self.payload, "stale_reason": self.stale_reason,
            "created_at": self.created_at, "decided_at": self.decided_at,
            "model": self.model, "prompt_version": self.prompt_version,
        }


@dataclass(frozen=True)
class Decision:
    """The outcome of deciding one proposal, for people."""

    id: int
    ok: bool
    message: str
    # An undo of several decisions made together (`A` on a group, `accept 1 2 3`):
    # the other proposals it made pending again.
    also: tuple[int, ...] = ()


# --- the registry of kinds -------------------------------------------------------------

# Returns why the proposal's inputs changed since it was made, or None when they did not.
StaleCheck = Callable[["aiosqlite.Connection", Proposal, "Path | None"], Awaitable["str | None"]]
# Applies an accepted proposal inside accept's transaction; returns the JSON-safe
# record undo needs; raises ProposalError when it cannot.
Applier = Callable[["aiosqlite.Connection", Proposal, str, "Path | None"],
                   Awaitable[dict[str, Any]]]
# Takes back an accepted proposal using proposal.decision; raises ProposalError when
# something depends on it now.
Undoer = Callable[["aiosqlite.Connection", Proposal, str, "Path | None"], Awaitable[None]]
# The lines that show one proposal in full (it may read what it refers to, never write).
Detail = Callable[["aiosqlite.Connection", Proposal, "Path | None"], Awaitable[list[Line]]]


def summary_brief(proposal: Proposal) -> str:
    return proposal.summary


async def summary_detail(conn: aiosqlite.Connection, proposal: Proposal,
                         home: Path | None) -> list[Line]:
    """The summary as a heading, then the payload's `text` when it has one."""
    text = text_field(proposal.payload, "text")
    return [Line("heading", proposal.summary), *([Line("text", ""), Line("text", text)]
                                                  if text else [])]


def no_lines(proposal: Proposal) -> list[str]:
    return []


def said_accepted(proposal: Proposal, record: dict[str, Any]) -> str:
    return f"accepted {proposal.id}: {proposal.summary}"


def said_undone(proposal: Proposal, verb: str) -> str:
    return f"undid {verb} {proposal.id}: {proposal.summary}"


@dataclass(frozen=True)
class Presentation:
    """How a kind's proposals are shown; every part has a default (docs/proposals.md).

    - `word`: the review list's kind column, six cells at most ("" = the kind's name).
    - `brief(proposal)`: what changes, in a few words, after the word in the list.
    - `detail(conn, proposal, home)`: the proposal in full, as `Line`s (plain data).
    - `show(proposal)`: lines `jobtracker proposals show` prints after the payload.
    - `revisable`: a payload text field the user may rewrite before accepting (the
      review's `e`); None when there is none.
    - `accepted(proposal, record)` / `undone(proposal, verb)`: what accepting it,
      and undoing a decision about it, say.
    - `awaited`: when a packet (prepare/) lacks what a pending proposal of this kind
      would give it, the kind's words for that (one, many); None: a packet never
      waits for it.
    """

    word: str = ""
    brief: Callable[[Proposal], str] = summary_brief
    detail: Detail = summary_detail
    show: Callable[[Proposal], list[str]] = no_lines
    revisable: str | None = None
    accepted: Callable[[Proposal, dict[str, Any]], str] = said_accepted
    undone: Callable[[Proposal, str], str] = said_undone
    awaited: tuple[str, str] | None = None


@dataclass(frozen=True)
class Kind:
    """A kind of proposal: its name (the `kind` column), what it does on accept, and
    how it is shown.

    Without `undo` an accept of this kind cannot be undone; without `stale` a
    pending proposal of it is never stale.
    """

    name: str
    apply: Applier
    undo: Undoer | None = None
    stale: StaleCheck | None = None
    view: Presentation = Presentation()
    # Staleness of many pending proposals of this kind at once (`Pending` rows → the
    # stale ones' ids and reasons), in a few reads instead of `stale`'s one or two per
    # proposal: what counting the proposals waiting (the digest, the dashboard) uses.
    stale_many: Callable[..., Awaitable[dict[int, str]]] | None = None


def registered() -> Mapping[str, Kind]:
    """The kinds, as the package lists them (jobtracker/proposals/__init__.py). Read
    from there when asked: the package imports this module first, and the core
    imports no kind."""
    from jobtracker import proposals
    return proposals.REGISTRY


def kinds() -> tuple[str, ...]:
    """The names of the registered kinds, in the order they are listed."""
    return tuple(registered())


def _kind(name: str) -> Kind:
    try:
        return registered()[name]
    except KeyError:
        raise ValueError(f"unknown proposal kind {name!r} "
                         f"(known: {', '.join(registered())})") from None


def presentation(kind: str) -> Presentation:
    """How proposals of `kind` are shown; the defaults for a kind nothing knows (a row
    written by a newer version)."""
    found = registered().get(kind)
    return found.view if found is not None else Presentation()


def word(proposal: Proposal) -> str:
    """The review list's word for the proposal's kind."""
    return presentation(proposal.kind).word or proposal.kind


async def detail(conn: aiosqlite.Connection, proposal: Proposal,
                 home: Path | None = None) -> list[Line]:
    """The proposal in full, as its kind shows it."""
    return await presentation(proposal.kind).detail(conn, proposal, home)


# --- reading ------------------------------------------------------------------------

_COLUMNS = ("id, kind, task, unit_key, item, posting_id, application_id, payload, input_hash, "
            "summary, state, created_at, decided_at, decision, model, prompt_version")


def _from_row(row: Any) -> Proposal:
    (pid, kind, task, unit_key, item, posting_id, application_id, payload, input_hash,
     summary, state, created_at, decided_at, decision, model, prompt_version) = row
    return Proposal(
        id=pid, kind=kind, task=task, unit_key=unit_key, item=item, posting_id=posting_id,
        application_id=application_id, payload=json.loads(payload or "{}"),
        input_hash=input_hash, summary=summary, stored_state=state, created_at=created_at,
        decided_at=decided_at, decision=json.loads(decision) if decision else None,
        model=model or None, prompt_version=prompt_version)


async def _with_staleness(conn: aiosqlite.Connection, proposal: Proposal,
                          home: Path | None) -> Proposal:
    kind = registered().get(proposal.kind)
    if proposal.stored_state != "pending" or kind is None or kind.stale is None:
        return proposal
    reason = await kind.stale(conn, proposal, home)
    if not reason:
        return proposal
    return replace(proposal, stale_reason=reason)


async def get(conn: aiosqlite.Connection, proposal_id: int,
              home: Path | None = None) -> Proposal | None:
    """One proposal with its staleness computed, or None when there is no such id."""
    row = await (await conn.execute(
        f"SELECT {_COLUMNS} FROM proposals WHERE id = ?", (proposal_id,))).fetchone()
    return await _with_staleness(conn, _from_row(row), home) if row else None


async def list_proposals(conn: aiosqlite.Connection, home: Path | None = None,
                         states: Iterable[str] | None = None) -> list[Proposal]:
    """Proposals by id, staleness computed; only those whose (shown) state is in
    `states` when given."""
    rows = await conn.execute_fetchall(f"SELECT {_COLUMNS} FROM proposals ORDER BY id")
    wanted = set(states) if states is not None else None
    out = []
    for row in rows:
        proposal = await _with_staleness(conn, _from_row(row), home)
        if wanted is None or proposal.state in wanted:
            out.append(proposal)
    return out


class Waiting(NamedTuple):
    """A proposal waiting for the user, as a count or a digest shows it."""

    id: int
    kind: str
    task: str
    summary: str
    created_at: str


class Pending(NamedTuple):
    """A pending proposal as a kind's `stale_many` reads it (`payload` as stored)."""

    id: int
    posting_id: int | None
    application_id: int | None
    payload: str


async def waiting(conn: aiosqlite.Connection, home: Path | None = None,
                  since: str = "") -> list[Waiting]:
    """The proposals that wait for the user: pending and not stale (a stale one cannot
    be accepted, so it waits for nothing), made at or after `since`, oldest first.
    The one count of "proposals waiting" — the digest, the dashboard and `proposals
    list` agree. A kind with `stale_many` checks all of its pending proposals in a
    few reads; others are checked one by one (they are few)."""
    rows = await conn.execute_fetchall(
        "SELECT id, kind, task, summary, created_at, posting_id, application_id, payload "
        "FROM proposals WHERE state = 'pending' AND created_at >= ? ORDER BY id", (since,))
    by_kind: dict[str, list[Pending]] = {}
    for row in rows:
        by_kind.setdefault(row[1], []).append(Pending(row[0], row[5], row[6], row[7] or "{}"))
    stale: set[int] = set()
    for name, group in by_kind.items():
        kind = registered().get(name)
        if kind is None or kind.stale is None:
            continue
        if kind.stale_many is not None:
            stale.update(await kind.stale_many(conn, group, home))
            continue
        for item in group:
            found = await get(conn, item.id, home)
            if found is not None and found.state == "stale":
                stale.add(item.id)
    return [Waiting(row[0], row[1], row[2], row[3] or "", row[4]) for row in rows
            if row[0] not in stale]


# --- writing ------------------------------------------------------------------------

class Where(TypedDict):
    """What every proposal says besides its payload: which task proposed it, for which
    unit (and item of it), when, about which posting or application, from what input,
    and with which model and prompt. A kind's `propose(conn, payload, **where)` takes
    these as keywords."""

    task: str
    unit_key: str
    summary: str
    now: str
    item: NotRequired[int]
    posting_id: NotRequired[int | None]
    application_id: NotRequired[int | None]
    input_hash: NotRequired[str]
    model: NotRequired[str | None]
    prompt_version: NotRequired[str | None]


async def create(conn: aiosqlite.Connection, *, kind: str, task: str, unit_key: str,
                 payload: dict[str, Any], summary: str, now: str, item: int = 0,
                 posting_id: int | None = None, application_id: int | None = None,
                 input_hash: str = "", model: str | None = None,
                 prompt_version: str | None = None) -> int:
    """Record a pending proposal inside the caller's transaction; returns its id.

    Idempotent: a second call for the same (task, unit_key, item) returns the
    existing proposal untouched, whatever was decided about it since.
    """
    _kind(kind)
    await conn.execute(
        "INSERT INTO proposals (kind, task, unit_key, item, posting_id, application_id, "
        "payload, input_hash, summary, created_at, model, prompt_version) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (task, unit_key, item) DO NOTHING",
        (kind, task, unit_key, item, posting_id, application_id,
         json.dumps(payload, ensure_ascii=False, sort_keys=True), input_hash, summary, now,
         model, prompt_version))
    row = await (await conn.execute(
        "SELECT id FROM proposals WHERE task = ? AND unit_key = ? AND item = ?",
        (task, unit_key, item))).fetchone()
    assert row is not None          # inserted above, or there before it
    return int(row[0])


async def _next_seq(conn: aiosqlite.Connection) -> int:
    row = await (await conn.execute(
        "SELECT COALESCE(MAX(decision_seq), 0) + 1 FROM proposals")).fetchone()
    assert row is not None          # an aggregate always has its one row
    return int(row[0])


async def _seq_in(conn: aiosqlite.Connection, batch: list[int]) -> tuple[int, int]:
    """The next decision number, and the batch it belongs to: the number of the first
    decision made by the same call (`batch` holds it once one was made)."""
    seq = await _next_seq(conn)
    return seq, batch[0] if batch else seq


async def _accept_one(conn: aiosqlite.Connection, proposal_id: int, now: str,
                      home: Path | None, batch: list[int]) -> Decision:
    proposal = await get(conn, proposal_id, home)
    if proposal is None:
        raise ProposalError(proposal_id, f"no proposal {proposal_id}")
    if proposal.state == "accepted":
        return Decision(proposal_id, True, f"proposal {proposal_id} was already accepted")
    if proposal.state == "rejected":
        raise ProposalError(proposal_id, f"proposal {proposal_id} was rejected; "
                                         "undo that decision first")
    if proposal.state == "stale":
        raise ProposalError(proposal_id, f"proposal {proposal_id} is stale: "
                                         f"{proposal.stale_reason}; not applied")
    kind = registered().get(proposal.kind)
    if kind is None:
        raise ProposalError(proposal_id, f"proposal {proposal_id}: nothing knows how to apply "
                                         f"a {proposal.kind!r} proposal yet")
    siblings = await _open_siblings(conn, proposal, home)
    record = await kind.apply(conn, proposal, now, home)
    seq, first = await _seq_in(conn, batch)
    await conn.execute(
        "UPDATE proposals SET state = 'accepted', decided_at = ?, decision = ?, "
        "decision_seq = ?, decision_batch = ?, application_id = COALESCE(?, application_id) "
        "WHERE id = ?",
        (now, json.dumps(record, sort_keys=True), seq, first,
         record.get("application_id"), proposal_id))
    batch[:] = [first]
    message = kind.view.accepted(proposal, record)
    moot = await _resolve_moot(conn, siblings, record.get("application_id"), now, home, batch)
    if moot:
        message += "; " + "; ".join(
            f"resolved {p.id} ({p.summary}): {reason}" for p, reason in moot)
    return Decision(proposal_id, True, message, also=tuple(p.id for p, _ in moot))


async def _open_siblings(conn: aiosqlite.Connection, proposal: Proposal,
                         home: Path | None) -> list[Proposal]:
    """The other pending `status` proposals about the same mail or the same application
    or posting that can still be accepted: those an accept may make moot."""
    rows = await conn.execute_fetchall(
        f"SELECT {_COLUMNS} FROM proposals WHERE kind = 'status' AND state = 'pending' "
        "AND id != ? AND ((task = ? AND unit_key = ?) OR (application_id IS NOT NULL "
        "AND application_id = ?) OR (posting_id IS NOT NULL AND posting_id = ?))",
        (proposal.id, proposal.task, proposal.unit_key, proposal.application_id,
         proposal.posting_id))
    out = []
    for row in rows:
        found = await _with_staleness(conn, _from_row(row), home)
        if found.state == "pending":
            out.append(found)
    return out


async def _resolve_moot(conn: aiosqlite.Connection, siblings: list[Proposal],
                        application_id: int | None, now: str, home: Path | None,
                        batch: list[int]) -> list[tuple[Proposal, str]]:
    """Resolve the sibling status proposals an accept made moot (the application now
    has the status they propose, or one past it): recorded as rejected in the accept's
    batch, so the accept's message names them and one undo brings them back."""
    moot = []
    for sibling in siblings:
        if application_id is not None and sibling.application_id is None:
            # The accept created the application the mail's status proposal is about.
            sibling = replace(sibling, application_id=application_id)
        checked = await _with_staleness(conn, sibling, home)
        if checked.state != "stale":
            continue
        seq, first = await _seq_in(conn, batch)
        await conn.execute(
            "UPDATE proposals SET state = 'rejected', decided_at = ?, decision = ?, "
            "decision_seq = ?, decision_batch = ? WHERE id = ?",
            (now, json.dumps({"moot": checked.stale_reason}), seq, first, sibling.id))
        moot.append((sibling, str(checked.stale_reason)))
    return moot


async def _reject_one(conn: aiosqlite.Connection, proposal_id: int, now: str,
                      home: Path | None, batch: list[int]) -> Decision:
    proposal = await get(conn, proposal_id, home)
    if proposal is None:
        raise ProposalError(proposal_id, f"no proposal {proposal_id}")
    if proposal.state == "rejected":
        return Decision(proposal_id, True, f"proposal {proposal_id} was already rejected")
    if proposal.state == "accepted":
        raise ProposalError(proposal_id, f"proposal {proposal_id} was accepted; "
                                         "undo that decision first")
    seq, first = await _seq_in(conn, batch)
    await conn.execute(
        "UPDATE proposals SET state = 'rejected', decided_at = ?, decision = NULL, "
        "decision_seq = ?, decision_batch = ? WHERE id = ?", (now, seq, first, proposal_id))
    batch[:] = [first]
    return Decision(proposal_id, True, f"rejected {proposal_id}: {proposal.summary}")


async def _decide(conn: aiosqlite.Connection, ids: Iterable[int], now: str, home: Path | None,
                  decide: Callable[..., Awaitable[Decision]]) -> list[Decision]:
    """Each proposal in its own transaction: one that cannot be decided leaves the
    others' decisions standing, and itself untouched. The decisions of one call are one
    batch, which one undo takes back whole."""
    out = []
    batch: list[int] = []
    for proposal_id in ids:
        try:
            async with store.write(conn):
                out.append(await decide(conn, proposal_id, now, home, batch))
        except ProposalError as exc:
            out.append(Decision(proposal_id, False, str(exc)))
    return out


async def accept(conn: aiosqlite.Connection, ids: Iterable[int], now: str,
                 home: Path | None = None) -> list[Decision]:
    """Apply each proposal in one transaction of its own; stale ones are refused."""
    return await _decide(conn, ids, now, home, _accept_one)


async def reject(conn: aiosqlite.Connection, ids: Iterable[int], now: str,
                 home: Path | None = None) -> list[Decision]:
    """Record that each proposal was turned down; nothing else changes."""
    return await _decide(conn, ids, now, home, _reject_one)


async def undo_last(conn: aiosqlite.Connection, now: str,
                    home: Path | None = None) -> Decision | None:
    """Take back the most recent decision, or None when nothing is decided — with
    every decision made in the same call (accepting a group with `A`, `proposals
    accept 1 2 3`): one undo takes back what one action did, newest first, all or
    none (one that cannot be undone refuses the whole undo, changing nothing).

    An undone accept restores what the accept changed, only while nothing depends
    on it (for a status: the application still has the status the accept set).
    The proposals are pending again; the next undo takes back the decision before.
    """
    try:
        async with store.write(conn):
            return await _undo_latest(conn, now, home)
    except ProposalError as exc:
        return Decision(exc.proposal_id, False, str(exc))


async def _undo_latest(conn: aiosqlite.Connection, now: str,
                       home: Path | None) -> Decision | None:
    row = await (await conn.execute(
        f"SELECT {_COLUMNS}, decision_batch FROM proposals WHERE decision_seq IS NOT NULL "
        "ORDER BY decision_seq DESC LIMIT 1")).fetchone()
    if row is None:
        return None
    latest, batch = _from_row(row[:-1]), row[-1]
    together = [latest]
    if batch is not None:
        rows = await conn.execute_fetchall(
            f"SELECT {_COLUMNS} FROM proposals WHERE decision_batch = ? AND id != ? "
            "AND decision_seq IS NOT NULL ORDER BY decision_seq DESC", (batch, latest.id))
        together += [_from_row(other) for other in rows]
    messages = [await _undo_one(conn, proposal, now, home) for proposal in together]
    if len(together) == 1:
        return Decision(latest.id, True, messages[0])
    ids = sorted(p.id for p in together)
    verbs = sorted({("accepting" if p.stored_state == "accepted" else "rejecting")
                    for p in together})
    return Decision(latest.id, True,
                    f"undid {' and '.join(verbs)} {len(ids)} proposals decided together: "
                    f"{', '.join(str(i) for i in ids)}",
                    also=tuple(i for i in ids if i != latest.id))


async def _undo_one(conn: aiosqlite.Connection, proposal: Proposal, now: str,
                    home: Path | None) -> str:
    verb = "accepting" if proposal.stored_state == "accepted" else "rejecting"
    if proposal.stored_state == "accepted":
        kind = registered().get(proposal.kind)
        if kind is None or kind.undo is None:
            raise ProposalError(proposal.id, f"cannot undo accepting {proposal.id}: a "
                                             f"{proposal.kind!r} proposal has no undo")
        await kind.undo(conn, proposal, now, home)
    await conn.execute(
        "UPDATE proposals SET state = 'pending', decided_at = NULL, decision = NULL, "
        "decision_seq = NULL, decision_batch = NULL WHERE id = ?", (proposal.id,))
    return presentation(proposal.kind).undone(proposal, verb)


async def revise(conn: aiosqlite.Connection, proposal_id: int, text: str) -> bool:
    """Put the user's own version of a pending proposal's revisable field into it
    (marked `edited`), before it is accepted. False when it is no longer pending, or
    its kind has nothing to revise."""
    async with store.write(conn):
        proposal = await get(conn, proposal_id)
        name = presentation(proposal.kind).revisable if proposal is not None else None
        if proposal is None or proposal.stored_state != "pending" or name is None:
            return False
        payload = {**proposal.payload, name: text, "edited": True}
        await conn.execute("UPDATE proposals SET payload = ? WHERE id = ?",
                           (json.dumps(payload, ensure_ascii=False, sort_keys=True),
                            proposal_id))
    return True
