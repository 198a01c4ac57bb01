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
import fcntl
import hashlib
import os
import re
import stat
import tempfile
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from jobtracker.store import upsert

if TYPE_CHECKING:
    import aiosqlite

SLUG_CHARS = 60
# The largest workspace file jobtracker reads back (a resume, a letter, a packet file).
MAX_READ_BYTES = 16 * 1024 * 1024


class FileRefused(Exception):
    """A file that may not be read, written or removed; the message says which and why.

    `path` is the file and `reason` the message without it, for a caller that names
    the file its own way (a ConfigError says `FILE: reason`)."""

    def __init__(self, message: str, path: Path | None = None, reason: str | None = None,
                 kind: str = "refused") -> None:
        super().__init__(message)
        self.path = path
        self.reason = reason or message
        self.kind = kind     # "special", "large", "link", "text", "unreadable", "refused"


def _refused(path: Path, reason: str, kind: str = "refused") -> FileRefused:
    return FileRefused(f"{path} {reason}", path, reason, kind)


def slug(*parts: str | None) -> str:
    """A file-name-safe, ASCII, lower-case slug of `parts` ("Acme", "Sr. Engineer" →
    "acme-sr-engineer"), at most SLUG_CHARS long; "posting" when nothing is left."""
    text = " ".join(p for p in parts if p)
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    words = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    return words[:SLUG_CHARS].rstrip("-") or "posting"


def read_regular_bytes(path: Path, limit: int = MAX_READ_BYTES, *,
                       follow_links: bool = False) -> bytes | None:
    """The bytes of `path`, None when it does not exist; FileRefused when it is not a
    regular file of at most `limit` bytes.

    The one reader of every workspace file and every file named on the command line:
    opened without blocking (`O_NONBLOCK`: a FIFO with no writer opens at once), then
    checked with fstat on what was opened: a FIFO, a device (`/dev/zero`, also through
    a link), a folder or a socket is refused, never read, and the size is checked
    before the first byte is, so no read can hang or fill memory (and hold a
    transaction open). A link is refused (`O_NOFOLLOW`) unless `follow_links`: the
    YAML files and the files named on a command line may be links (a dotfiles folder),
    files jobtracker writes itself may not."""
    fd = _open_to_read(path, follow_links)
    if fd is None:
        return None
    try:
        return _read_bounded(fd, path, limit)
    finally:
        os.close(fd)


def _open_to_read(path: Path, follow_links: bool) -> int | None:
    """`path` opened for reading without blocking and, unless `follow_links`, without
    following a link; None when it does not exist; FileRefused when it cannot be opened."""
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY
    if not follow_links:
        flags |= os.O_NOFOLLOW
    try:
        return os.open(path, flags)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP and not follow_links:
            raise _refused(path, "is a symbolic link; jobtracker reads only regular "
                           "files it can tell are its own: replace it with a file",
                           "link") from None
        if exc.errno == errno.ENOTDIR:
            return None
        raise _refused(path, f"cannot be read: {exc.strerror}", "unreadable") from None


def read_head(path: Path, size: int, *, follow_links: bool = True) -> bytes | None:
    """The first `size` bytes of the regular file `path` (a model file of gigabytes whose
    header says what it is), by the same rules as `read_regular_bytes` but for its size:
    None when missing, FileRefused for a FIFO, a device, a folder."""
    fd = _open_to_read(path, follow_links)
    if fd is None:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _refused(path, "is not a regular file (a FIFO, a device or a folder)",
                           "special")
        return os.read(fd, size)
    except OSError as exc:
        raise _refused(path, f"cannot be read: {exc.strerror}", "unreadable") from None
    finally:
        os.close(fd)


def _read_bounded(fd: int, path: Path, limit: int) -> bytes:
    try:
        info = os.fstat(fd)
    except OSError as exc:
        raise _refused(path, f"cannot be read: {exc.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        raise _refused(path, "is not a regular file (a FIFO, a device or a folder); "
                       "jobtracker reads only files: move it away", "special")
    too_large = _refused(path, f"is larger than {_size(limit)}; not read", "large")
    if info.st_size > limit:        # a sparse 1 TB file is refused before any read
        raise too_large
    chunks, size = [], 0
    try:
        while chunk := os.read(fd, min(1 << 20, limit + 1 - size)):
            size += len(chunk)
            if size > limit:       # grew while being read
                raise too_large
            chunks.append(chunk)
    except OSError as exc:
        raise _refused(path, f"cannot be read: {exc.strerror}") from None
    return b"".join(chunks)


def _size(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MB" if limit >= 1024 * 1024 else f"{limit:,} bytes"


def read_regular(path: Path, limit: int = MAX_READ_BYTES, *,
                 follow_links: bool = False) -> str | None:
    """`read_regular_bytes` as UTF-8 text (line endings as stored); FileRefused for
    text that is not UTF-8."""
    data = read_regular_bytes(path, limit, follow_links=follow_links)
    if data is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _refused(path, f"is not UTF-8 text ({exc.reason} at byte {exc.start})",
                       "text") from None


def as_bytes(content: str | bytes) -> bytes:
    return content.encode("utf-8") if isinstance(content, str) else content


def content_hash(content: str | bytes) -> str:
    """The ledger's hash of a file's content: for text, the store's description hash
    (sha256 of its UTF-8 bytes, 16 hex characters); for bytes, the same of the bytes."""
    data = as_bytes(content)
    return hashlib.sha256(data).hexdigest()[:16] if data else ""


def write_atomic(path: Path, content: str | bytes, *, make_folders: bool = True) -> None:
    """Replace `path` with `content` (text as UTF-8) all at once: a temporary file in
    the same folder, fsynced, then renamed over it, so a reader never sees half a file
    and a crash leaves either the old file or the new one.

    FileRefused when `path` exists and is not a regular file (by lstat: a link, a
    FIFO, a device, a folder): a rename would replace the link or the device node
    itself. Callers that mean to write through a link resolve it first
    (`write_workspace`'s "follow" policy, `write_output`)."""
    _refuse_special(path)
    if make_folders:
        path.parent.mkdir(parents=True, exist_ok=True)
    elif not path.parent.is_dir():
        raise _refused(path.parent, "is not a folder that exists; create it first, "
                       "it is not made for you", "folder")
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
        _refuse_special(path)     # made a link or a FIFO meanwhile: still not replaced
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    fsync_dir(path.parent)


def _refuse_special(path: Path) -> None:
    try:
        info = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return
    if stat.S_ISLNK(info.st_mode):
        raise _refused(path, "is a symbolic link; it is not replaced by a file", "link")
    if not stat.S_ISREG(info.st_mode):
        raise _refused(path, "exists and is not a regular file (a FIFO, a device or a "
                       "folder); it is not replaced: move it away", "special")


# --- the one writer of the workspace ----------------------------------------------------

# How a file of the workspace that is a symbolic link is written. "follow": the link
# stays and its target is replaced (sources.yaml and profile.yaml, which a dotfiles
# folder may hold: docs/configuration.md); "refuse": a link is refused with a line
# naming it (everything jobtracker makes itself: interviews, digests, packets, ...).
FOLLOW, REFUSE = "follow", "refuse"


def write_workspace(home: Path, path: Path, content: str | bytes, *,
                    links: str = REFUSE, keep_mode: bool = True) -> Path:
    """Write `path` (inside the workspace `home`) atomically; returns the file written
    (a followed link's target). FileRefused when a folder on the way is a link, when
    `path` is a link and `links` is REFUSE (or it links to something that is not a
    regular file), or when it is a FIFO, a device or a folder. A file that existed keeps
    its mode when `keep_mode`; a new one is private (0600)."""
    if links not in (FOLLOW, REFUSE):
        raise ValueError(f"not a link policy: {links!r}")
    guard_inside(home, path.parent)
    target = path
    if links == FOLLOW and path.is_symlink():
        target = Path(os.path.realpath(path))
        if target.is_symlink() or not target.is_file():
            raise _refused(path, "is a symbolic link to something that is not a regular "
                           "file; it is not written", "link")
    elif path.is_symlink():
        guard_inside(home, path)      # names the link
    mode = None
    if keep_mode:
        with contextlib.suppress(OSError):
            info = os.lstat(target)
            if stat.S_ISREG(info.st_mode):
                mode = stat.S_IMODE(info.st_mode)
    try:
        write_atomic(target, content)
        if mode is not None:
            os.chmod(target, mode)
    except FileRefused:
        raise
    except OSError as exc:
        raise _refused(path, f"cannot be written: {exc.strerror}", "unwritable") from None
    return target


def remove_workspace(home: Path, path: Path) -> bool:
    """Remove the regular file `path` inside the workspace; False when it was not there.
    FileRefused when a folder on the way or the file itself is a link (the link would
    be removed from outside what jobtracker made), or it is not a regular file."""
    guard_inside(home, path)
    try:
        info = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    if not stat.S_ISREG(info.st_mode):
        raise _refused(path, "is not a regular file; it is not removed", "special")
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise _refused(path, f"cannot be removed: {exc.strerror}", "unwritable") from None
    fsync_dir(path.parent)
    return True


def write_output(path: Path, content: str | bytes) -> Path:
    """Write a file named on the command line (`render -o OUT`); returns what was written.

    Its folder must exist (FileRefused naming it otherwise: nothing is created for a
    mistyped path). A link is followed: its target is written as the path would be.
    A FIFO or a character device (`/dev/stdout`, `/dev/null`) is written into, never
    renamed over (a FIFO nobody reads is refused at once rather than waited on); any
    other file that is not regular (a folder, a socket, a block device) is refused; a
    regular file is replaced atomically."""
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    if not target.parent.is_dir():
        raise _refused(target.parent, "is not a folder that exists; create it first, "
                       "it is not made for you", "folder")
    try:
        info = os.stat(target)
    except (FileNotFoundError, NotADirectoryError):
        info = None
    if info is not None and (stat.S_ISFIFO(info.st_mode) or stat.S_ISCHR(info.st_mode)):
        _write_into(target, as_bytes(content))
        return target
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise _refused(path, "is not a regular file (a folder, a socket or a block "
                       "device); name a file", "special")
    try:
        write_atomic(target, content, make_folders=False)
    except FileRefused:
        raise
    except OSError as exc:
        raise _refused(path, f"cannot be written: {exc.strerror}", "unwritable") from None
    return target


def _write_into(path: Path, data: bytes) -> None:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise _refused(path, "is a FIFO that nobody reads; not written", "special") \
                from None
        raise _refused(path, f"cannot be written: {exc.strerror}", "unwritable") from None
    try:
        os.set_blocking(fd, True)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    except OSError as exc:
        raise _refused(path, f"cannot be written: {exc.strerror}", "unwritable") from None
    finally:
        os.close(fd)


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


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """An exclusive flock on the lock file `path` (made private when missing) for the
    block: never through a link (`O_NOFOLLOW`), never a FIFO or a device (fstat), so a
    planted lock file cannot hang or redirect the edit it guards. A killed holder
    frees it."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
                     | os.O_CLOEXEC | os.O_NOCTTY, 0o600)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _refused(path, "is a symbolic link; move it away (it is only a lock)",
                           "link") from None
        raise _refused(path, f"cannot be opened: {exc.strerror}", "unwritable") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _refused(path, "is not a regular file; move it away (it is only a lock)",
                           "special")
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


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
