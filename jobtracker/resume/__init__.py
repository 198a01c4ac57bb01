"""The resume and the other workspace files tailor and coverletter read.

`resume.md` is only ever read. The pure parts live in their own modules:
`grounding` (the resume's editable pieces, what counts as an invented name,
applying edits) and `keywords` (keywords.yaml). The proposal kinds that write
files from them are `jobtracker.proposals.resume_edit` and `.letter`;
docs/tailor.md describes the rules in prose.
"""

from __future__ import annotations

from pathlib import Path

from jobtracker.files import FileRefused, read_regular
from jobtracker.store import description_hash

RESUME, KEYWORDS, TEMPLATE = "resume.md", "keywords.yaml", "coverletter.md"


def text_hash(text: str | None) -> str:
    """The hash an input file is keyed by: the description hash of its text ('' if none)."""
    return description_hash(text)


def read_input(home: Path, name: str) -> str | None:
    """A workspace input file's text as the runner reads it, or None when missing, not
    UTF-8, or not a regular file (a FIFO or /dev/zero there would hang or fill memory).
    A link is followed (a dotfiles folder), as the run's own read does
    (`run.setup.read_input`), so both see the same text."""
    try:
        return read_regular(home / name, follow_links=True)
    except FileRefused:
        return None
