"""The packet screen: one posting's application form, field by field, with its answers.

What it shows is the packet's `answers.json`, as `jobtracker prepare` wrote it; a
posting without a packet is prepared first (no model: jobtracker/prepare/). `c`
copies the selected answer — for the resume and cover letter, the full path of the
packet's PDF (or DOCX) to upload — and `u` the apply URL, through the terminal's
clipboard escape (OSC 52), so both work over SSH; `A` marks the application applied, with
`prepare` as the change's source. Labels come from the employer and are shown
literally (`tui.literal`), never read as markup.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from rich.console import Group
from rich.text import Text
from textual import on, work
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Static

from jobtracker import files, jsonbound
from jobtracker.applications import NO_APPLICATION
from jobtracker.contacts.people import summary
from jobtracker.proposals import presentation
from jobtracker.text import one_line
from tui import data
from tui.host import Host
from tui.literal import block, line
from tui.screens.table_detail import TableDetail
from tui.widgets.cursor import move_cursor

MARKS = {"done": Text("✓", style="green"), "missing": Text("✗", style="bold red"),
         "optional": Text("·", style="dim")}

def waiting_words(waiting: dict[str, int]) -> list[str]:
    """`2 edits`, `1 letter`: the packet's proposals still to decide, each kind in its own
    review word (a kind's presentation), as the one summary line has room for."""
    out = []
    for kind, count in waiting.items():
        if count:
            name = presentation(kind).word or kind
            out.append(f"{count} {name}{'s' if count != 1 else ''}")
    return out


def answer_text(field: dict[str, Any]) -> str:
    answer = field.get("answer")
    if isinstance(answer, list):
        return ", ".join(str(a) for a in answer)
    return "" if answer is None else str(answer)


def mark_of(field: dict[str, Any]) -> str:
    if field.get("resolved"):
        return "done"
    return "missing" if field.get("required") else "optional"


def document_lines(field: dict[str, Any], packet: dict[str, Any] | None,
                   folder: str) -> list[Text]:
    """A file field's packet files (their path inside the workspace) and how each
    PDF's read-back went."""
    checks = {d.get("file"): d for d in (packet or {}).get("documents") or []}
    out = []
    for name in field.get("files") or []:
        shown = line(f"file: {folder}{name}")
        found = checks.get(name)
        result = (found or {}).get("check")
        if result is not None:
            shown.append("  read back ✓" if result.get("ok") else "  read back ✗",
                         style="green" if result.get("ok") else "bold red")
        out.append(shown)
    return out


def packet_notes(packet: dict[str, Any] | None) -> list[Text]:
    """Beside every field: who the user knows at the company, and the keyword coverage
    (answers.json's `contacts` and `coverage`; docs/contacts.md, docs/prepare.md)."""
    if not packet:
        return []
    notes = []
    known = [p for p in packet.get("contacts") or [] if isinstance(p, dict)]
    if known:
        notes.append(block(summary(known, packet.get("company")), style="green"))
    cover = packet.get("coverage")
    if isinstance(cover, dict):
        present, missing = list(cover.get("present") or []), list(cover.get("missing") or [])
        text = Text(f"coverage: {len(present)} of {len(present) + len(missing)} posting terms "
                    "in the resume", style="dim")
        if missing:
            text.append(f"; not in it: {', '.join(one_line(str(m)) for m in missing)}")
        notes.append(text)
    return notes


def field_detail(field: dict[str, Any], extra: list[Text] | None = None) -> Group:
    label = line(field.get("label"), style="bold")
    if field.get("required"):
        label.append("  required", style="yellow")
    parts = [label]
    if field.get("resolved"):
        answer = Text("answer: ", style="bold")
        answer.append_text(block(answer_text(field)))
        parts += [answer, line(f"from {field.get('source')}", style="dim"), *(extra or [])]
    else:
        parts.append(line(f"unresolved: {field.get('note') or 'no answer'}", style="red"))
    options = field.get("options") or []
    if options:
        parts.append(line("options: " + " | ".join(str(o) for o in options[:12]), style="dim"))
    parts.append(line(f"{field.get('type')} · {field.get('name')} · {field.get('section')}",
                      style="dim"))
    return Group(*parts)


LAYOUT = TableDetail(summary="packet-summary", pane="packet-pane", table="packet-table",
                     detail="packet-detail", text="packet-field", status="packet-status")


class PacketScreen(Screen[None]):
    HELP_TITLE = "Packet"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "move(1)", "Next", id="packet.next", show=False, tooltip="the next field"),
        Binding("k", "move(-1)", "Previous", id="packet.previous", show=False,
                tooltip="the previous field"),
        Binding("c", "copy_answer", "Copy answer", id="packet.copy",
                tooltip="copy the selected field's answer to the clipboard (OSC 52)"),
        Binding("u", "copy_url", "Copy URL", id="packet.url",
                tooltip="copy the apply URL to the clipboard (OSC 52)"),
        Binding("A", "applied", "Applied", id="packet.applied",
                tooltip="mark the application applied"),
        Binding("escape", "back", "Back", id="packet.back", tooltip="back to the matches"),
    ]

    app: Host

    def __init__(self, posting_id: int, label: str) -> None:
        super().__init__()
        self.posting_id = posting_id
        self.label = label
        self.packet: dict[str, Any] | None = None
        self.folder: Path | None = None    # the packet's folder, once it is read

    def compose(self):
        yield from LAYOUT.compose(line(f" Packet ─ {self.label}", style="bold"))

    def on_mount(self) -> None:
        LAYOUT.mount(self, "Fields, in form order", "Field", (
            ("", "mark"), ("field", "field"), ("answer", "answer"), ("from", "source")))
        self.say("reading the packet…")
        self.load()

    @property
    def fields(self) -> list[dict[str, Any]]:
        return list(self.packet.get("fields") or []) if self.packet else []

    @property
    def current(self) -> dict[str, Any] | None:
        table, fields = self.query_one(DataTable), self.fields
        return fields[table.cursor_row] if 0 <= table.cursor_row < len(fields) else None

    def say(self, message: str) -> None:
        self.query_one("#packet-status", Static).update(line(message))

    @work(exclusive=True, group="packet-load", exit_on_error=False)
    async def load(self) -> None:
        # prepare.run brings the document renderer (~150 ms of imports): loaded the first
        # time a packet opens, not when the app starts.
        from jobtracker.prepare.run import find_packet

        found = find_packet(self.app.setup.ws.home, self.posting_id)
        if found is None:
            self.say("preparing the packet (no model)…")
            refused = await data.prepare_packet(self.app.setup, self.posting_id)
            if refused is not None:
                self.say(f"cannot prepare: {refused}")
                return
            found = find_packet(self.app.setup.ws.home, self.posting_id)
        self.folder = found.parent if found else None
        try:
            text = files.read_regular(found) if found else None
            self.packet = jsonbound.loads(text) if text is not None else None
        except (files.FileRefused, ValueError) as exc:
            self.say(f"cannot read the packet: {exc}")
            return
        self.show()

    def show(self) -> None:
        table = self.query_one(DataTable)
        table.clear()
        for index, field in enumerate(self.fields):
            table.add_row(MARKS[mark_of(field)],
                          line(str(field.get("label") or "") +
                               ("*" if field.get("required") else ""), 27),
                          line(answer_text(field) or "—", 21), line(field.get("source"), 20),
                          key=str(index))
        # The label gives way (down to 12 cells), then the form's name, so what the
        # packet lacks still shows whole at 80 columns.
        free = self.app.size.width - len(" Packet ─ ")
        tail = self._summary_tail(with_form=True)
        if free - tail.cell_len < 12:
            tail = self._summary_tail(with_form=False)
        room = max(12, free - tail.cell_len)
        summary = line(f" Packet ─ {one_line(self.label, room)}", style="bold")
        summary.append_text(tail)
        self.query_one("#packet-summary", Static).update(summary)
        self.say(f"apply: {(self.packet or {}).get('url') or 'no URL'}")
        self._detail()

    def _summary_tail(self, *, with_form: bool) -> Text:
        """` ─ employer's form, 2 required left ─ 1 edit to review`: which form, what
        is left, and the proposals the packet waits for (without `with_form`, the
        form's name is left out)."""
        packet = self.packet or {}
        missing = packet.get("unresolved_required") or []
        form = "employer's form" if packet.get("form") not in (None, "standard") else "standard set"
        left = f"{len(missing)} required left" if missing else "all required answered"
        tail = Text(f" ─ {form}, {left}" if with_form else f" ─ {left}")
        waiting = packet.get("waiting")
        if isinstance(waiting, dict) and any(waiting.values()):
            # The packet was made without them: its resume.md is the master, no letter.
            tail.append(f" ─ {', '.join(waiting_words(waiting))} to review", style="yellow")
        return tail

    @on(DataTable.RowHighlighted)
    def _detail(self) -> None:
        field = self.current
        folder = ""
        if self.folder is not None:
            folder = self.folder.relative_to(self.app.setup.ws.home).as_posix() + "/"
        self.query_one("#packet-field", Static).update(
            field_detail(field, document_lines(field, self.packet, folder)
                         + packet_notes(self.packet)) if field else Text(""))

    def action_move(self, step: int) -> None:
        move_cursor(self.query_one(DataTable), step)

    def action_copy_answer(self) -> None:
        field = self.current
        if field is None or not field.get("resolved"):
            self.say("nothing to copy: this field has no answer")
            return
        files = field.get("files") or []
        if files and self.folder is not None:
            # An upload field: the file's full path, what a browser's file picker takes.
            path = str(self.folder / str(files[0]))
            self.app.copy_to_clipboard(path)
            self.say(f"copied the path of {line(files[0], 40).plain}")
            return
        self.app.copy_to_clipboard(answer_text(field))
        self.say(f"copied the answer to {line(field.get('label'), 40).plain}")

    def action_copy_url(self) -> None:
        url = (self.packet or {}).get("url")
        if not url:
            self.say("this posting has no apply URL")
            return
        self.app.copy_to_clipboard(str(url))
        self.say("copied the apply URL")

    @work(exclusive=True, group="packet-applied", exit_on_error=False)
    async def action_applied(self) -> None:
        change, current = await data.set_applied(self.app.db, self.posting_id)
        if change is None:
            # Never takes an interview back to 'applied', nor writes a non-change.
            self.say(f"{self.label}: already {current}; not changed")
            return
        was = f"was {change.before or NO_APPLICATION}"
        self.say(f"{self.label}: applied ({was})")

    def action_back(self) -> None:
        self.app.pop_screen()
