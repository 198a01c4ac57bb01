"""Files jobtracker writes into the workspace: atomic writes, and the ledger of them.

Every file jobtracker writes for the user (`tailored/`, `letters/`, packets) goes
through `write_recorded`, which writes it atomically and records its hash in the
`written_files` table. Text is written as UTF-8 and hashed as those bytes, so a
binary file (a packet's PDF) is written and recognised the same way. That ledger
is what lets a later write tell its own file from one the user made or edited by
hand: only a file still exactly as jobtracker wrote it is overwritten or removed.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import stat
import tempfile
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING

from jobtracker.store import upsert

if TYPE_CHECKING:
    import aiosqlite

SLUG_CHARS = 60
# The largest workspace file jobtracker reads back (a resume, a letter, a packet file).
MAX_READ_BYTES = 16 * 1024 * 1024


class FileRefused(Exception):
    """A file that may not be written or removed; the message says which and why."""


def slug(*parts: str | None) -> str:
    """A file-name-safe, ASCII, lower-case slug of `parts` ("Acme", "Sr. Engineer" →
    "acme-sr-engineer"), at most SLUG_CHARS long; "posting" when nothing is left."""
    text = " ".join(p for p in parts if p)
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    words = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    return words[:SLUG_CHARS].rstrip("-") or "posting"


def read_regular_bytes(path: Path, limit: int = MAX_READ_BYTES) -> bytes | None:
    """The bytes of `path`, None when it does not exist; FileRefused when it is not a
    regular file of at most `limit` bytes.

    Opened without following a link (`O_NOFOLLOW`) and without blocking (`O_NONBLOCK`:
    a FIFO with no writer opens at once), then checked with fstat on what was opened:
    a FIFO, a device (`/dev/zero`), a folder or a link where a file belongs is refused,
    never read, so no read can hang or fill memory (and hold a transaction open)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise FileRefused(f"{path} is a symbolic link; jobtracker reads only regular "
                              "files it can tell are its own: replace it with a file") from None
        raise FileRefused(f"cannot read {path}: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused(f"{path} is not a regular file (a FIFO, a device or a folder); "
                              "jobtracker reads only files: move it away")
        if info.st_size > limit:
            raise FileRefused(f"{path} is larger than {limit // (1024 * 1024)} MB; not read")
        chunks, size = [], 0
        while chunk := os.read(fd, 1 << 20):
            size += len(chunk)
            if size > limit:       # grew while being read
                raise FileRefused(f"{path} is larger than {limit // (1024 * 1024)} MB; "
                                  "not read")
            chunks.append(chunk)
    except OSError as exc:
        raise FileRefused(f"cannot read {path}: {exc.strerror}") from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def read_regular(path: Path, limit: int = MAX_READ_BYTES) -> str | None:
    """`read_regular_bytes` as UTF-8 text; FileRefused for text that is not UTF-8."""
    data = read_regular_bytes(path, limit)
    if data is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileRefused(f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start})") \
            from None


def as_bytes(content: str | bytes) -> bytes:
    return content.encode("utf-8") if isinstance(content, str) else content


def content_hash(content: str | bytes) -> str:
    """The ledger's hash of a file's content: for text, the store's description hash
    (sha256 of its UTF-8 bytes, 16 hex characters); for bytes, the same of the bytes."""
    data = as_bytes(content)
    return hashlib.sha256(data).hexdigest()[:16] if data else ""


def write_atomic(path: Path, content: str | bytes) -> None:
    """Replace `path` with `content` (text as UTF-8) all at once: a temporary file in
    the same folder, fsynced, then renamed over it, so a reader never sees half a file
    and a crash leaves either the old file or the new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = as_bytes(content)        # a text that cannot be encoded fails before any write
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        # mkstemp makes the file 0600: private, as everything in the workspace (a
        # stricter umask of the user's own takes away more).
        os.fchmod(fd, 0o600 & ~_umask())
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    fsync_dir(path.parent)


def _umask() -> int:
    mask = os.umask(0o022)   # reading the umask means setting it: put it straight back
    os.umask(mask)
    return mask


def guard_inside(home: Path, path: Path) -> None:
    """FileRefused when writing `path` would go through a symbolic link below `home`
    (a `tailored/` that links elsewhere, a file replaced by a link), or leave `home`:
    jobtracker writes only where it means to, never through a link it did not make."""
    try:
        parts = path.relative_to(home).parts
    except ValueError:
        raise FileRefused(f"{path} is outside the workspace {home}; not written") from None
    current = home
    for part in parts:
        current = current / part
        if current.is_symlink():
            raise FileRefused(f"{current} is a symbolic link; jobtracker does not write "
                              "through links it did not make (it would change a file "
                              "outside the workspace): replace it with a real folder or file")


def fsync_dir(folder: Path) -> None:
    """Make a rename in `folder` durable (POSIX; a no-op where folders cannot be opened)."""
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


# --- the written-files ledger ------------------------------------------------------------

def relative(path: Path, home: Path) -> str:
    """How the ledger names a file: its path inside the workspace."""
    return path.relative_to(home).as_posix()


async def check_ours(conn: aiosqlite.Connection, home: Path, path: Path,
                     new_content: str | bytes | None) -> None:
    """FileRefused unless `path` is missing, already holds exactly `new_content`, or is
    as jobtracker last wrote it: a hand edit is never lost to an overwrite."""
    current = read_regular_bytes(path)      # FileRefused for a FIFO, a device, a link
    if current is None:
        return
    if new_content is not None and current == as_bytes(new_content):
        return
    row = await (await conn.execute("SELECT content_hash FROM written_files WHERE path = ?",
                                    (relative(path, home),))).fetchone()
    if row is None or row[0] != content_hash(current):
        raise FileRefused(f"{relative(path, home)} was changed or made by hand since "
                          "jobtracker wrote it; move it away first, it is not overwritten")


async def write_recorded(conn: aiosqlite.Connection, home: Path, path: Path,
                         content: str | bytes, now: str, posting_id: int | None) -> None:
    """Write `path` atomically and record it in the ledger, inside the caller's
    transaction; FileRefused when it is not ours to overwrite or cannot be written."""
    guard_inside(home, path)
    await check_ours(conn, home, path, content)
    try:
        write_atomic(path, content)
    except OSError as exc:
        raise FileRefused(f"cannot write {path}: {exc.strerror}") from None
    await upsert(conn, "written_files", {
        "path": relative(path, home), "posting_id": posting_id,
        "content_hash": content_hash(content), "written_at": now}, key=["path"])


async def remove_recorded(conn: aiosqlite.Connection, home: Path, path: Path) -> None:
    """Remove a file jobtracker wrote and its ledger row; FileRefused when it is not ours."""
    guard_inside(home, path)
    await check_ours(conn, home, path, None)
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    await conn.execute("DELETE FROM written_files WHERE path = ?", (relative(path, home),))
