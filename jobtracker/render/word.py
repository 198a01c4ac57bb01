"""A `Document` → DOCX bytes, through python-docx.

Word's own styles carry the structure, so an ATS (or Word's navigation pane) sees
it: the name is `Title`, sections `Heading 1`, entries `Heading 2` and `Heading 3`,
bullets `List Bullet` (2 and 3 when nested), numbered items `List Number` (each
list restarts at its own first number). Links are real hyperlinks: an external
relationship per URL, which python-docx 1.2 can read but not write, so the
`w:hyperlink` element is built here. The zip's dates and the core properties are
fixed, so the same document gives the same bytes.

A Typst theme cannot style Word, so a built-in theme name picks sizes and margins
here and a theme of the user's own gets `classic`'s.
"""

from __future__ import annotations

import io
import struct
import zipfile
from dataclasses import dataclass
from typing import Any

import docx
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.opc.constants import RELATIONSHIP_TYPE
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Mm, Pt
from docx.text.paragraph import Paragraph as DocxParagraph

from jobtracker.render.document import (
    BREAK,
    Block,
    Code,
    Document,
    Heading,
    ListBlock,
    Paragraph,
    Rule,
    Span,
    Spans,
)
from jobtracker.render.pdf import TIMESTAMP

LINK_COLOUR = "0563C1"
CODE_FONT = "Courier New"
MAX_LIST_STYLE = 3          # the default template has List Bullet/Number 1 to 3
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)
# The DOS time and date of _ZIP_DATE as a zip header holds them (time 0; date: day 1,
# month 1, year 1980 + 0), and the signatures of a member's local and central headers.
_ZIP_TIME_DATE = struct.pack("<HH", 0, (0 << 9) | (1 << 5) | 1)
_LOCAL_HEADER, _CENTRAL_HEADER = b"PK\x03\x04", b"PK\x01\x02"
_HEADING_STYLE = {2: "Heading 1", 3: "Heading 2", 4: "Heading 3"}


@dataclass(frozen=True)
class WordStyle:
    size: float        # body text, points
    margin: float      # page margins, millimetres


WORD_STYLES = {"classic": WordStyle(11, 20), "compact": WordStyle(10, 14)}
PAPER_MM = {"a4": (210, 297), "us-letter": (215.9, 279.4)}


MAX_PROPERTY = 255         # python-docx's limit for a core property (title, author)


def field_text(text: str, limit: int = MAX_PROPERTY) -> str:
    """`text` as a core property takes it: at most `limit` characters, cut at a space
    when it must be cut, with "…" to say so."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip() + "…"


def _run_props(run: object, span: Span) -> None:
    run.bold = span.strong or None            # type: ignore[attr-defined]
    run.italic = span.emph or None            # type: ignore[attr-defined]
    if span.code:
        run.font.name = CODE_FONT             # type: ignore[attr-defined]


def _hyperlink(paragraph: DocxParagraph, span: Span) -> None:
    r_id = paragraph.part.relate_to(span.link, RELATIONSHIP_TYPE.HYPERLINK, is_external=True)
    link = OxmlElement("w:hyperlink")
    link.set(qn("r:id"), r_id)
    run = OxmlElement("w:r")
    props = OxmlElement("w:rPr")
    for tag, value in (("w:color", LINK_COLOUR), ("w:u", "single")):
        element = OxmlElement(tag)
        element.set(qn("w:val"), value)
        props.append(element)
    for flag, tag in ((span.strong, "w:b"), (span.emph, "w:i")):
        if flag:
            props.append(OxmlElement(tag))
    run.append(props)
    text = OxmlElement("w:t")
    text.set(qn("xml:space"), "preserve")
    text.text = span.text
    run.append(text)
    link.append(run)
    paragraph._p.append(link)


def _fill(paragraph: DocxParagraph, spans: Spans) -> DocxParagraph:
    for span in spans:
        if span.text == BREAK:
            paragraph.add_run().add_break()
        elif span.link:
            _hyperlink(paragraph, span)
        else:
            _run_props(paragraph.add_run(span.text), span)
    return paragraph


class _Writer:
    def __init__(self, style: WordStyle, paper: str) -> None:
        self.doc = docx.Document()
        self._styles: dict[str, Any] = {}
        normal = self.doc.styles["Normal"]
        normal.font.size = Pt(style.size)          # type: ignore[attr-defined]
        section = self.doc.sections[0]
        width, height = PAPER_MM[paper]
        section.page_width, section.page_height = Mm(width), Mm(height)
        for side in ("left_margin", "right_margin", "top_margin", "bottom_margin"):
            setattr(section, side, Mm(style.margin))

    def style(self, name: str) -> Any:
        """The style object named `name`, looked up once."""
        found = self._styles.get(name)
        if found is None:
            found = self._styles[name] = self.doc.styles[name]
        return found

    def paragraph(self, style: str | None = None) -> DocxParagraph:
        paragraph = self.doc.add_paragraph()
        if style:
            # The style's id set directly: python-docx's own setter searches every
            # style of the document for the default one first, each paragraph.
            paragraph._p.style = self.style(style).style_id
        return paragraph

    def document(self, document: Document) -> None:
        if document.name:
            _fill(self.paragraph("Title"), document.name)
        if document.contact:
            contact = _fill(self.paragraph(), document.contact)
            contact.alignment = WD_ALIGN_PARAGRAPH.CENTER
        self.blocks(document.blocks, 0)
        props = self.doc.core_properties
        # python-docx refuses a core property longer than 255 characters (ValueError).
        props.title = props.author = props.last_modified_by = field_text(document.title)
        props.created = props.modified = TIMESTAMP.replace(tzinfo=None)
        props.revision = 1

    def blocks(self, blocks: tuple[Block, ...], depth: int) -> None:
        for block in blocks:
            if isinstance(block, Heading):
                _fill(self.paragraph(_HEADING_STYLE[block.level]), block.spans)
            elif isinstance(block, Paragraph):
                _fill(self.paragraph(), block.spans)
            elif isinstance(block, ListBlock):
                self.list(block, depth + 1)
            elif isinstance(block, Code):
                for line in block.text.split("\n"):
                    _fill(self.paragraph(), (Span(line, code=True),))
            elif isinstance(block, Rule):
                self.paragraph()

    def list(self, block: ListBlock, depth: int) -> None:
        level = min(depth, MAX_LIST_STYLE)
        suffix = "" if level == 1 else f" {level}"
        style = ("List Number" if block.ordered else "List Bullet") + suffix
        num_id = self._restart(style, block.start) if block.ordered else None
        for item in block.items:
            paragraph = _fill(self.paragraph(style), item.spans)
            if num_id is not None:
                num_pr = paragraph._p.get_or_add_pPr().get_or_add_numPr()
                num_pr.get_or_add_ilvl().val = 0
                num_pr.get_or_add_numId().val = num_id
            self.blocks(item.blocks, depth)

    def _restart(self, style_name: str, start: int) -> int | None:
        """A numbering instance of the style's list that starts at `start`, so each
        numbered list counts from its own first number, not on from the last one."""
        style = self.style(style_name)
        num_pr = style.element.pPr.numPr if style.element.pPr is not None else None
        if num_pr is None or num_pr.numId is None:
            return None
        numbering = self.doc.part.numbering_part.numbering_definitions._numbering
        abstract = numbering.num_having_numId(num_pr.numId.val).abstractNumId.val
        num = numbering.add_num(abstract)
        num.add_lvlOverride(ilvl=0).add_startOverride(start)
        return int(num.numId)

    def save(self) -> bytes:
        out = io.BytesIO()
        self.doc.save(out)
        return _fixed_dates(out.getvalue())


def _fixed_dates(data: bytes) -> bytes:
    """The same zip with every member dated 1980-01-01: zipfile stamps the clock's time.
    Only the date and time of each member's two headers change, in place; what is
    compressed is not inflated and deflated again (a tenth of a DOCX's time)."""
    out = bytearray(data)
    with zipfile.ZipFile(io.BytesIO(data)) as source:
        members, central = source.infolist(), source.start_dir
    for info in members:
        local = info.header_offset
        if out[local:local + 4] != _LOCAL_HEADER:
            raise ValueError(f"the DOCX writer's zip has no header for {info.filename}")
        out[local + 10:local + 14] = _ZIP_TIME_DATE
    for _ in members:
        if out[central:central + 4] != _CENTRAL_HEADER:
            raise ValueError("the DOCX writer's zip has a damaged central directory")
        out[central + 12:central + 16] = _ZIP_TIME_DATE
        names, extra, comment = struct.unpack_from("<HHH", out, central + 28)
        central += 46 + names + extra + comment
    return bytes(out)


def word(document: Document, theme: str, paper: str) -> bytes:
    """The DOCX of `document`; `theme` a built-in name (another gets classic's look)."""
    writer = _Writer(WORD_STYLES.get(theme, WORD_STYLES["classic"]), paper)
    writer.document(document)
    return writer.save()
