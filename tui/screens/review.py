"""The review: proposals grouped by posting, one keystroke per decision.

Left, the proposals still to decide (and those decided while this screen is
open, with their ✓/✗), under a heading per posting; right, the selected one in
full. Every decision goes to the database at once through jobtracker.proposals,
then the list is reloaded from it: the screen keeps nothing the database lacks
except which proposals it decided, to keep showing them. What each proposal
says is its kind's (`jobtracker.proposals`): this screen names no kind.
"""

from __future__ import annotations

import asyncio
import os
import shlex
import tempfile
from collections import Counter
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import SuspendNotSupported
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from jobtracker.proposals import Decision
from tui import data
from tui.host import Host
from tui.literal import line
from tui.messages import DecisionsMade
from tui.proposal_view import detail, group_heading, list_entry
from tui.widgets.cursor import move_cursor


def summary_line(items: list[data.ReviewItem]) -> Text:
    """`7 waiting: 4 of one kind · 3 of another · 1 stale`, each kind by its name."""
    waiting = [i.proposal for i in items if i.proposal.state in ("pending", "stale")]
    kinds = Counter(p.kind for p in waiting)
    text = Text(" Review ─ ", style="bold")
    if not waiting:
        text.append("nothing waiting")
    else:
        text.append(f"{len(waiting)} waiting: ")
        text.append(" · ".join(f"{n} {kind}" for kind, n in sorted(kinds.items())))
        stale = sum(p.state == "stale" for p in waiting)
        if stale:
            text.append(f" · {stale} stale", style="yellow")
    return text


async def edit_in_editor(app: Host, text: str) -> str | None:
    """`text` as the user left it in $VISUAL/$EDITOR, or None when the editor failed.

    The terminal is handed over with `App.suspend()`; the editor runs as an async
    subprocess, so the run in progress keeps working meanwhile. Where the app cannot
    suspend (headless), the editor runs without a terminal.
    """
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    handle, name = tempfile.mkstemp(suffix=".md", prefix="jobtracker-edit-")
    path = Path(name)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        command = [*shlex.split(editor), str(path)]
        try:
            with app.suspend():
                code = await (await asyncio.create_subprocess_exec(*command)).wait()
        except SuspendNotSupported:
            process = await asyncio.create_subprocess_exec(
                *command, stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
            code = await process.wait()
        if code != 0:
            return None
        return path.read_text(encoding="utf-8")
    finally:
        path.unlink(missing_ok=True)


class ReviewScreen(Screen[None]):
    HELP_TITLE = "Review"
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-narrow"), (120, "-wide")]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j,down", "move(1)", "Next", id="review.next", show=False,
                tooltip="the next proposal"),
        Binding("k,up", "move(-1)", "Previous", id="review.previous", show=False,
                tooltip="the previous proposal"),
        Binding("a", "accept", "Accept", id="review.accept",
                tooltip="accept: apply it now (stale ones cannot be)"),
        Binding("x", "reject", "Reject", id="review.reject", tooltip="reject it"),
        Binding("A", "accept_group", "All", id="review.accept_group",
                tooltip="accept every remaining proposal about this posting"),
        Binding("X", "reject_group", "None", id="review.reject_group",
                tooltip="reject every remaining proposal about this posting"),
        Binding("u", "undo", "Undo", id="review.undo", tooltip="take back the last decision"),
        Binding("e", "edit", "Edit", id="review.edit",
                tooltip="edit the replacement in $EDITOR, then accept it (resume edits)"),
        Binding("escape", "back", "Back", id="review.back", tooltip="back to the dashboard"),
    ]

    app: Host

    def __init__(self) -> None:
        super().__init__()
        self.items: list[data.ReviewItem] = []
        self.decided: set[int] = set()     # decided while this screen is open: still shown
        self._rows: list[int | None] = []   # option index -> index into items (None: heading)

    def compose(self):
        yield Static(id="review-summary")
        with Horizontal(id="review-body"):
            yield OptionList(id="review-list", classes="pane")
            with VerticalScroll(id="review-detail", classes="pane"):
                yield Static(id="review-text")
        yield Static(id="review-status", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#review-list").border_title = "Proposals"
        self.query_one("#review-detail").border_title = "Selected"
        self.query_one(OptionList).focus()
        self.reload()

    # --- loading ---------------------------------------------------------------------

    @work(exclusive=True, group="review-load", exit_on_error=False)
    async def reload(self, select: int | None = None) -> None:
        """Read the list again; keep the selection on `select` (a proposal id), else
        the current proposal, else the first undecided one."""
        current = self.current
        self.items = await data.load_review(self.app.db, self.app.home, self.decided)
        self._fill(select if select is not None else (current.proposal.id if current else None))

    def _fill(self, select: int | None) -> None:
        options: list[Option] = []
        self._rows = []
        group = None
        for index, item in enumerate(self.items):
            if item.group != group:
                group = item.group
                options.append(Option(group_heading(item), disabled=True))
                self._rows.append(None)
            options.append(Option(list_entry(item), id=str(item.proposal.id)))
            self._rows.append(index)
        listing = self.query_one(OptionList)
        listing.clear_options()
        listing.add_options(options)
        self.query_one("#review-summary", Static).update(summary_line(self.items))
        target = self._option_for(select) if select is not None else None
        if target is None:
            target = self._first_undecided()
        if target is not None:
            listing.highlighted = target
        self._show_detail()

    def _option_for(self, proposal_id: int) -> int | None:
        for option, index in enumerate(self._rows):
            if index is not None and self.items[index].proposal.id == proposal_id:
                return option
        return None

    def _first_undecided(self, after: int = -1) -> int | None:
        undecided = [o for o, i in enumerate(self._rows)
                     if i is not None and self.items[i].proposal.state in ("pending", "stale")]
        later = [o for o in undecided if o > after]
        if later:
            return later[0]
        if undecided:
            return undecided[0]
        return next((o for o, i in enumerate(self._rows) if i is not None), None)

    @property
    def current(self) -> data.ReviewItem | None:
        listing = self.query_one(OptionList)
        option = listing.highlighted
        if option is None or option >= len(self._rows):
            return None
        index = self._rows[option]
        return self.items[index] if index is not None else None

    @on(OptionList.OptionHighlighted)
    def _highlighted(self) -> None:
        self._show_detail()
        self.refresh_bindings()

    def _show_detail(self) -> None:
        item = self.current
        text = detail(item) if item else Text(
            "Nothing to review. Tasks propose changes here (a status from an employer's "
            "reply, an edit to your resume, …); none applies until you accept it.",
            style="dim")
        self.query_one("#review-text", Static).update(text)
        self.query_one("#review-detail", VerticalScroll).scroll_home(animate=False)
        self.refresh_bindings()

    def say(self, message: str) -> None:
        self.query_one("#review-status", Static).update(line(message))

    # --- keys --------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        item = self.current
        state = item.proposal.state if item else None
        if action in ("accept", "accept_group"):
            return True if state == "pending" else None
        if action in ("reject", "reject_group"):
            return True if state in ("pending", "stale") else None
        if action == "edit":
            if item is None or item.revisable is None:
                return False
            return True if state == "pending" else None
        return True

    def action_move(self, step: int) -> None:
        move_cursor(self.query_one(OptionList), step)

    def action_back(self) -> None:
        self.app.pop_screen()

    def _group_ids(self, states: tuple[str, ...]) -> list[int]:
        item = self.current
        if item is None:
            return []
        return [i.proposal.id for i in self.items
                if i.group == item.group and i.proposal.state in states]

    def action_accept(self) -> None:
        if self.current is not None:
            self.decide("accept", [self.current.proposal.id])

    def action_reject(self) -> None:
        if self.current is not None:
            self.decide("reject", [self.current.proposal.id])

    def action_accept_group(self) -> None:
        self.decide("accept", self._group_ids(("pending",)))

    def action_reject_group(self) -> None:
        self.decide("reject", self._group_ids(("pending", "stale")))

    @work(exclusive=True, group="review-decide", exit_on_error=False)
    async def decide(self, verb: str, ids: list[int]) -> None:
        if not ids:
            return
        write = data.accept if verb == "accept" else data.reject
        decisions = await write(self.app.db, self.app.home, ids)
        self.decided.update(d.id for d in decisions if d.ok)
        self._report(decisions)
        option = self.query_one(OptionList).highlighted
        self.items = await data.load_review(self.app.db, self.app.home, self.decided)
        self._fill(None)
        following = self._first_undecided(after=option if option is not None else -1)
        if following is not None:
            self.query_one(OptionList).highlighted = following
        self.app.news.publish(DecisionsMade())

    def _report(self, decisions: list[Decision]) -> None:
        refused = [d for d in decisions if not d.ok]
        if refused:
            self.say(refused[0].message + (f" (and {len(refused) - 1} more)"
                                           if len(refused) > 1 else ""))
        elif len(decisions) == 1:
            self.say(decisions[0].message)
        else:
            self.say(f"{len(decisions)} decided")

    @work(exclusive=True, group="review-decide", exit_on_error=False)
    async def action_undo(self) -> None:
        decision = await data.undo(self.app.db, self.app.home)
        if decision is None:
            self.say("nothing to undo")
            return
        self.say(decision.message)
        if decision.ok:
            # Pending again (with the others decided in the same `A`): keep them in view.
            self.decided.update((decision.id, *decision.also))
        self.items = await data.load_review(self.app.db, self.app.home, self.decided)
        self._fill(decision.id)
        self.app.news.publish(DecisionsMade())

    @work(exclusive=True, group="review-decide", exit_on_error=False)
    async def action_edit(self) -> None:
        item = self.current
        if item is None or item.revisable is None:
            return
        before = str(item.proposal.payload.get(item.revisable) or "")
        edited = await edit_in_editor(self.app, before)
        if edited is None:
            self.say("the editor exited with an error; nothing was changed")
            return
        if edited == before:
            self.say("the replacement is unchanged; a accepts it as proposed")
            return
        if not await data.revise(self.app.db, item.proposal.id, edited):
            self.say(f"proposal {item.proposal.id} is no longer pending; not changed")
            return
        decisions = await data.accept(self.app.db, self.app.home, [item.proposal.id])
        self.decided.update(d.id for d in decisions if d.ok)
        self._report(decisions)
        self.items = await data.load_review(self.app.db, self.app.home, self.decided)
        self._fill(item.proposal.id)
        self.app.news.publish(DecisionsMade())
