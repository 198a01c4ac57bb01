"""The resume and what may be done to it: grounded edits, tailored files, letters.

Pure helpers first — splitting `resume.md` into the lines, bullets and sentences an
edit may replace, the grounding check that keeps a model from inventing a skill,
tool, employer or number, applying accepted edits in document order, slugs. Then
the two proposal kinds that write files (contract §5): an accepted `resume_edit`
writes `tailored/<posting-id>-<slug>.md`, an accepted `letter` writes
`letters/<posting-id>-<slug>.md`. Both are written atomically and both are stale
once an input they were made from has changed. `resume.md` is only ever read.

docs/tailor.md describes the rules in prose.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from jobtracker import proposals
from jobtracker.proposals import Proposal, ProposalError
from jobtracker.store import description_hash

if TYPE_CHECKING:
    import aiosqlite

RESUME, KEYWORDS, TEMPLATE = "resume.md", "keywords.yaml", "coverletter.md"
TAILORED, LETTERS = "tailored", "letters"
SLUG_CHARS = 60


def text_hash(text: str | None) -> str:
    """The hash an input file is keyed by: the description hash of its text ('' if none)."""
    return description_hash(text)


# --- the resume's editable pieces ---------------------------------------------------------

# A list marker or heading mark at the start of a line: "- ", "* ", "+ ", "1. ", "## ".
_MARKER = re.compile(r"^(?:[-*+•]|\d{1,3}[.)]|#{1,6})\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")


def pieces(resume: str) -> set[str]:
    """Every line, bullet (a line without its list marker) and sentence of the resume,
    stripped: the texts an edit's original may be."""
    found: set[str] = set()
    for line in resume.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        found.add(stripped)
        bullet = _MARKER.sub("", stripped, count=1).strip()
        if bullet:
            found.add(bullet)
            found.update(s.strip() for s in _SENTENCE_END.split(bullet) if s.strip())
    return found


# --- grounding: what counts as a new skill, tool, employer or number ------------------------

# A word, with the characters technical names use inside them (C++, C#, Node.js, CI/CD,
# scikit-learn); unicode letters count, so "Zürich" is one word.
_TOKEN = re.compile(r"[\w+#]+(?:[./\-'’][\w+#]+)*[+#]*")
# Marks that may sit between a sentence's start and its first word (list markers,
# headings, quotes, Markdown emphasis), and the characters that end a sentence.
_LEADING_MARKS = " \t\"'“‘(*_`-#>•|"
_SENTENCE_ENDS = frozenset(".!?:;\n")
_NOT_TERMS = frozenset({"i", "e.g", "i.e", "etc", "vs"})


@dataclass(frozen=True)
class Token:
    text: str
    initial: bool        # first word of a sentence, line or bullet


def tokens(text: str) -> list[Token]:
    """The words of `text`, each marked when it starts a sentence (where a capital
    letter says nothing about the word)."""
    out = []
    for match in _TOKEN.finditer(text):
        before = text[:match.start()].rstrip(_LEADING_MARKS)
        out.append(Token(match.group(), not before or before[-1] in _SENTENCE_ENDS))
    return out


def _parts(word: str) -> list[str]:
    """A compound's parts, without a possessive or contraction: "Python-based" →
    Python, based; "CI/CD" → CI, CD; "Acme's" → Acme."""
    return [p for p in (q.split("'")[0].split("’")[0] for q in re.split(r"[-/]", word)) if p]


def shaped_like_a_term(word: str, initial: bool) -> bool:
    """Whether a word looks like a name rather than an ordinary word: it holds a digit
    (EC2, 40%, 2019), + or # (C++, C#), an inner dot (Node.js), a capital after its
    first letter (AWS, GitHub, gRPC), or a capital first letter where a sentence
    does not start (Kubernetes, Google)."""
    if word.lower() in _NOT_TERMS:
        return False
    if any(ch.isdigit() for ch in word) or "+" in word or "#" in word:
        return True
    if "." in word.strip("."):
        return True
    if any(ch.isupper() for ch in word[1:]):
        return True
    return word[:1].isupper() and not initial


def vocabulary(texts: Iterable[str]) -> frozenset[str]:
    """Every word of `texts` (and every part of a compound), lower-cased."""
    words: set[str] = set()
    for text in texts:
        for token in tokens(text):
            lowered = token.text.lower()
            words.add(lowered)
            words.update(_parts(lowered))
    return frozenset(words)


def proper_terms(text: str) -> frozenset[str]:
    """The words a posting uses as names, lower-cased: those shaped like a term even
    at a sentence's start (digits, symbols, inner capitals), and those it writes with
    a capital inside a sentence and never in lower case (Kubernetes, but not a
    heading's "Team" when the posting also says "team")."""
    shaped: set[str] = set()
    capitalized: set[str] = set()
    lower_seen: set[str] = set()
    for token in tokens(text):
        for index, part in enumerate(_parts(token.text)):
            initial = token.initial and index == 0
            if shaped_like_a_term(part, True):
                shaped.add(part.lower())
            elif part[:1].isupper() and not initial:
                capitalized.add(part.lower())
            elif part == part.lower():
                lower_seen.add(part)
    return frozenset((shaped | (capitalized - lower_seen)) - _NOT_TERMS)


@dataclass(frozen=True)
class Grounding:
    """What an edit or a letter may name: the words of the resume and keywords
    (`known`), judged against the names the posting uses (`posting_terms`)."""

    known: frozenset[str]
    posting_terms: frozenset[str] = frozenset()

    @classmethod
    def build(cls, sources: Iterable[str], posting: str = "") -> Grounding:
        return cls(vocabulary(sources), proper_terms(posting))

    def invented(self, text: str) -> list[str]:
        """The words of `text` that name something neither the resume nor the keywords
        do: a term-shaped word, or a word the posting uses as a name, not in `known`."""
        found: list[str] = []
        for token in tokens(text):
            if token.text.lower() in self.known:
                continue
            for index, part in enumerate(_parts(token.text)):
                lowered = part.lower()
                if lowered in self.known or lowered in _NOT_TERMS:
                    continue
                initial = token.initial and index == 0
                term = shaped_like_a_term(part, initial) or lowered in self.posting_terms
                if term and part not in found:
                    found.append(part)
        return found


# --- edits ----------------------------------------------------------------------------

class Ungrounded(ValueError):
    """An edit or paragraph the resume does not support; the message says why."""


@dataclass(frozen=True)
class Edit:
    original: str
    replacement: str
    start: int            # where `original` sits in the resume
    end: int

    def overlaps(self, other: Edit) -> bool:
        return self.start < other.end and other.start < self.end


def locate(resume: str, original: str) -> tuple[int, int]:
    """Where `original` (stripped) sits in the resume; Ungrounded unless it is a line,
    bullet or sentence of it that occurs exactly once."""
    text = original.strip()
    if not text:
        raise Ungrounded("the original is empty")
    start = resume.find(text)
    if start < 0 or text not in pieces(resume):
        shown = text if len(text) <= 60 else text[:57] + "..."
        raise Ungrounded(f"the original is not a line, bullet or sentence of "
                         f"resume.md: {shown!r}")
    if resume.find(text, start + 1) >= 0:
        raise Ungrounded("the original occurs more than once in resume.md, so which one "
                         "to change is ambiguous")
    return start, start + len(text)


def ground_edit(resume: str, grounding: Grounding, original: str, replacement: str) -> Edit:
    """The edit, located in the resume; Ungrounded when its original is not in the resume
    or its replacement names something the resume and keywords do not."""
    marker = _MARKER.match(original.strip())
    if marker:
        # A model may copy the list marker too; the edit is to the bullet's text.
        original = original.strip()[marker.end():]
        replacement = _MARKER.sub("", replacement.strip(), count=1)
    start, end = locate(resume, original)
    new = replacement.strip()
    if not new:
        raise Ungrounded("the replacement is empty")
    if new == resume[start:end]:
        raise Ungrounded("the replacement changes nothing")
    invented = grounding.invented(new)
    if invented:
        raise Ungrounded("the replacement names what neither resume.md nor keywords.yaml "
                         f"does: {', '.join(invented[:5])}")
    return Edit(resume[start:end], new, start, end)


def apply_edits(resume: str, edits: Sequence[Edit]) -> str:
    """The resume with every edit applied, in document order. ValueError on overlap."""
    ordered = sorted(edits, key=lambda e: (e.start, e.end))
    out, at = [], 0
    for previous, edit in zip([None, *ordered], ordered, strict=False):
        if previous is not None and previous.overlaps(edit):
            raise ValueError(f"edits overlap: {previous.original!r} and {edit.original!r}")
        if resume[edit.start:edit.end] != edit.original:
            raise ValueError(f"edit does not match the resume at {edit.start}")
        out += [resume[at:edit.start], edit.replacement]
        at = edit.end
    out.append(resume[at:])
    return "".join(out)


# --- keywords.yaml ----------------------------------------------------------------------

class KeywordsError(ValueError):
    """keywords.yaml cannot be read; the message names the line when YAML gives one."""


def keyword_terms(text: str | None) -> list[str]:
    """Every keyword in keywords.yaml: the scalar values of any nesting of lists and
    mappings (`keywords: [python]`, or lists grouped under names). Keys are group
    names, not keywords."""
    if not text or not text.strip():
        return []
    try:
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}: " if mark else ""
        raise KeywordsError(f"{KEYWORDS}: {where}invalid YAML: "
                            f"{exc.problem or exc.context or 'unreadable'}") from None
    except yaml.YAMLError as exc:
        raise KeywordsError(f"{KEYWORDS}: invalid YAML: {exc}") from None
    found: list[str] = []
    _collect(data, found)
    return found


def _collect(node: Any, out: list[str]) -> None:
    if isinstance(node, dict):
        for value in node.values():
            _collect(value, out)
    elif isinstance(node, list):
        for item in node:
            _collect(item, out)
    elif isinstance(node, str | int | float) and not isinstance(node, bool) and str(node).strip():
        out.append(str(node).strip())


# --- names and files --------------------------------------------------------------------

def slug(*parts: str | None) -> str:
    """A file-name-safe, ASCII, lower-case slug of `parts` ("Acme", "Sr. Engineer" →
    "acme-sr-engineer"), at most SLUG_CHARS long; "posting" when nothing is left."""
    text = " ".join(p for p in parts if p)
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    words = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    return words[:SLUG_CHARS].rstrip("-") or "posting"


def write_atomic(path: Path, text: str) -> None:
    """Replace `path` with `text` all at once: a temporary file in the same folder,
    fsynced, then renamed over it, so a reader never sees half a file and a crash
    leaves either the old file or the new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    """Make the rename itself durable (POSIX; a no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def read_input(home: Path, name: str) -> str | None:
    """A workspace input file's text as the runner reads it, or None when missing."""
    try:
        return (home / name).read_text(encoding="utf-8")
    except (FileNotFoundError, UnicodeDecodeError):
        return None


# --- staleness: the inputs a proposal was made from ---------------------------------------

# Which payload hash fields name which workspace file.
_INPUT_FILES = (("resume_hash", RESUME), ("keywords_hash", KEYWORDS),
                ("template_hash", TEMPLATE))


async def _inputs_changed(conn: aiosqlite.Connection, proposal: Proposal,
                          home: Path | None) -> str | None:
    payload = proposal.payload
    for field, name in _INPUT_FILES:
        if field not in payload or home is None:
            continue
        text = read_input(home, name)
        if name == RESUME and text is None:
            return "resume.md is missing"
        if text_hash(text) != payload[field]:
            return f"{name} changed since it was made"
    if proposal.posting_id is not None and "description_hash" in payload:
        row = await (await conn.execute("SELECT description_hash FROM postings WHERE id = ?",
                                        (proposal.posting_id,))).fetchone()
        if row is None:
            return "the posting is gone"
        if row[0] != payload["description_hash"]:
            return "the posting's description changed since it was made"
    return None


# --- files jobtracker wrote, and only those it may overwrite ------------------------------

def _relative(path: Path, home: Path) -> str:
    return path.relative_to(home).as_posix()


async def _check_ours(conn: aiosqlite.Connection, proposal: Proposal, home: Path,
                      path: Path, new_text: str | None) -> None:
    """Refuse to overwrite or remove a file jobtracker did not write, or that was
    changed since it wrote it (a hand edit would be lost). A file that already holds
    exactly `new_text` is fine to rewrite."""
    try:
        current = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return
    except (OSError, UnicodeDecodeError) as exc:
        raise ProposalError(proposal.id, f"cannot read {path}: {exc}") from None
    if new_text is not None and current == new_text:
        return
    row = await (await conn.execute("SELECT content_hash FROM written_files WHERE path = ?",
                                    (_relative(path, home),))).fetchone()
    if row is None or row[0] != text_hash(current):
        raise ProposalError(proposal.id, f"{_relative(path, home)} was changed or made by "
                                         "hand since jobtracker wrote it; move it away "
                                         "first, it is not overwritten")


async def _write(conn: aiosqlite.Connection, proposal: Proposal, home: Path, path: Path,
                 text: str, now: str) -> None:
    await _check_ours(conn, proposal, home, path, text)
    try:
        write_atomic(path, text)
    except OSError as exc:
        raise ProposalError(proposal.id, f"cannot write {path}: {exc.strerror}") from None
    await conn.execute(
        "INSERT INTO written_files (path, posting_id, content_hash, written_at) "
        "VALUES (?, ?, ?, ?) ON CONFLICT (path) DO UPDATE SET posting_id = excluded.posting_id,"
        " content_hash = excluded.content_hash, written_at = excluded.written_at",
        (_relative(path, home), proposal.posting_id, text_hash(text), now))


async def _remove(conn: aiosqlite.Connection, proposal: Proposal, home: Path,
                  path: Path) -> None:
    await _check_ours(conn, proposal, home, path, None)
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    await conn.execute("DELETE FROM written_files WHERE path = ?", (_relative(path, home),))


def _home(proposal: Proposal, home: Path | None) -> Path:
    if home is None:
        raise ProposalError(proposal.id, f"proposal {proposal.id} writes a file, and no "
                                         "workspace folder was given")
    return home


def _file_for(home: Path, folder: str, proposal: Proposal) -> Path:
    payload = proposal.payload
    posting = proposal.posting_id if proposal.posting_id is not None else payload.get(
        "posting_id")
    return home / folder / f"{posting}-{slug(payload.get('company'), payload.get('title'))}.md"


async def _accepted(conn: aiosqlite.Connection, kind: str, posting_id: int | None,
                    exclude: int) -> list[Proposal]:
    """The other accepted proposals of `kind` for the posting, earliest decision first."""
    if posting_id is None:
        return []
    rows = await conn.execute_fetchall(
        "SELECT id FROM proposals WHERE kind = ? AND posting_id = ? AND state = 'accepted' "
        "AND id != ? ORDER BY decision_seq", (kind, posting_id, exclude))
    found = [await proposals.get(conn, row[0]) for row in rows]
    return [p for p in found if p is not None]


def _recorded_path(home: Path, others: Sequence[Proposal], default: Path) -> Path:
    """The file name the posting's first accepted proposal wrote under, so a posting
    whose title changed keeps one file."""
    for other in others:
        name = (other.decision or {}).get("path")
        if name:
            return home / name
    return default


# --- the 'resume_edit' kind -----------------------------------------------------------------
#
# payload: original, replacement (the user may revise it before accepting), reason,
# line, company, title, posting_id, resume_hash, keywords_hash, description_hash.
# The tailored file is resume.md as it is now with every accepted edit for that
# posting whose original still occurs in it once, in document order.

def _edit_of(resume: str, proposal: Proposal) -> Edit:
    payload = proposal.payload
    try:
        start, end = locate(resume, str(payload.get("original") or ""))
    except Ungrounded as exc:
        raise ProposalError(proposal.id, f"proposal {proposal.id}: {exc}") from None
    return Edit(resume[start:end], str(payload.get("replacement") or ""), start, end)


def _applicable(resume: str, others: Sequence[Proposal]) -> list[tuple[Proposal, Edit]]:
    """The accepted edits that still apply to the resume as it is now."""
    out = []
    for other in others:
        try:
            edit = _edit_of(resume, other)
        except ProposalError:
            continue   # its original left the resume: the file moves on without it
        if not any(edit.overlaps(kept) for _, kept in out):
            out.append((other, edit))
    return out


def _resume_now(proposal: Proposal, home: Path) -> str:
    resume = read_input(home, RESUME)
    if resume is None:
        raise ProposalError(proposal.id, f"proposal {proposal.id}: resume.md is missing")
    return resume


async def _apply_edit(conn: aiosqlite.Connection, proposal: Proposal, now: str,
                      home: Path | None) -> dict[str, Any]:
    home = _home(proposal, home)
    resume = _resume_now(proposal, home)
    edit = _edit_of(resume, proposal)
    others = await _accepted(conn, "resume_edit", proposal.posting_id, proposal.id)
    kept = _applicable(resume, others)
    for other, other_edit in kept:
        if other_edit.overlaps(edit):
            raise ProposalError(proposal.id, f"proposal {proposal.id} changes text that "
                                             f"accepted proposal {other.id} already changes; "
                                             f"undo {other.id} first to accept this one")
    path = _recorded_path(home, others, _file_for(home, TAILORED, proposal))
    text = apply_edits(resume, [e for _, e in kept] + [edit])
    await _write(conn, proposal, home, path, text, now)
    return {"path": _relative(path, home), "edits": sorted([p.id for p, _ in kept]
                                                           + [proposal.id])}


async def _undo_edit(conn: aiosqlite.Connection, proposal: Proposal, now: str,
                     home: Path | None) -> None:
    home = _home(proposal, home)
    others = await _accepted(conn, "resume_edit", proposal.posting_id, proposal.id)
    recorded = (proposal.decision or {}).get("path")
    path = home / recorded if recorded else _file_for(home, TAILORED, proposal)
    resume = read_input(home, RESUME)
    kept = _applicable(resume, others) if resume is not None else []
    if kept and resume is not None:
        await _write(conn, proposal, home, path, apply_edits(resume, [e for _, e in kept]),
                     now)
    else:
        await _remove(conn, proposal, home, path)


# --- the 'letter' kind ------------------------------------------------------------------------
#
# payload: text (the whole letter), paragraphs, company, title, posting_id,
# template_hash, resume_hash, keywords_hash, description_hash, dropped.

async def _apply_letter(conn: aiosqlite.Connection, proposal: Proposal, now: str,
                        home: Path | None) -> dict[str, Any]:
    home = _home(proposal, home)
    others = await _accepted(conn, "letter", proposal.posting_id, proposal.id)
    path = _recorded_path(home, others, _file_for(home, LETTERS, proposal))
    await _write(conn, proposal, home, path, str(proposal.payload.get("text") or ""), now)
    return {"path": _relative(path, home)}


async def _undo_letter(conn: aiosqlite.Connection, proposal: Proposal, now: str,
                       home: Path | None) -> None:
    """Put back the letter accepted before this one for the posting, else remove it."""
    home = _home(proposal, home)
    recorded = (proposal.decision or {}).get("path")
    path = home / recorded if recorded else _file_for(home, LETTERS, proposal)
    others = await _accepted(conn, "letter", proposal.posting_id, proposal.id)
    if others:
        await _write(conn, proposal, home, path, str(others[-1].payload.get("text") or ""),
                     now)
    else:
        await _remove(conn, proposal, home, path)


proposals.register_applier("resume_edit", _apply_edit, _undo_edit)
proposals.register_staleness("resume_edit", _inputs_changed)
proposals.register_applier("letter", _apply_letter, _undo_letter)
proposals.register_staleness("letter", _inputs_changed)
