"""Raw sqlite3 access for tests that seed or inspect a workspace database directly.

The schema's triggers call the application function description_hash(), which
`jobtracker.store.connect()` registers on its connections; a raw connection must
register it too, or writing a posting fails with "no such function".
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from jobtracker.store import description_hash


def raw_connect(path: Path | str) -> sqlite3.Connection:
    conn = sqlite3.connect(path)
    conn.create_function("description_hash", 1, description_hash, deterministic=True)
    return conn
