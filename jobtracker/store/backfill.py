"""Upgrade without re-asking: stamp old answer rows with their description's hash.

Rows an older jobtracker wrote before a table recorded `description_hash` have it
NULL. Reading NULL as "unknown, re-ask" would spend a night's budget re-answering
questions whose input never moved, so on connect each such row is stamped with the
hash of the description stored now — the best record of what the model was shown.
The work is self-draining: a stamped row is never NULL again, and the check for
"anything to stamp?" is one indexed lookup per table.

'' is not a legacy marker: it is the real hash of an empty description.
"""

from __future__ import annotations

import logging

import aiosqlite

log = logging.getLogger(__name__)

# (table, its posting id column, SQL for the unit_key it is stamped with, given
# `hash` as the new description hash). A task that records description hashes on
# its answers adds its table here.
TABLES: tuple[tuple[str, str, str], ...] = (
    ("rankings", "posting_id", "'p' || posting_id || ':' || prose_hash || ':' || {hash}"),
)


async def _has_column(conn: aiosqlite.Connection, table: str, column: str) -> bool:
    rows = await conn.execute_fetchall(f"PRAGMA table_info({table})")
    return any(row[1] == column for row in rows)


async def _stamp(conn: aiosqlite.Connection, table: str, posting_column: str,
                 unit_key_sql: str) -> int:
    found = await (await conn.execute(
        f"SELECT 1 FROM {table} WHERE description_hash IS NULL LIMIT 1")).fetchone()
    if found is None:
        return 0
    new_hash = (f"COALESCE((SELECT description_hash(p.description) FROM postings AS p "
                f"WHERE p.id = {table}.{posting_column}), '')")
    await conn.execute("BEGIN IMMEDIATE")
    try:
        cursor = await conn.execute(
            f"UPDATE {table} SET unit_key = {unit_key_sql.format(hash=new_hash)}, "
            f"description_hash = {new_hash} WHERE description_hash IS NULL")
        await conn.execute("COMMIT")
    except BaseException:
        await conn.execute("ROLLBACK")
        raise
    return cursor.rowcount


async def backfill_description_hashes(conn: aiosqlite.Connection) -> int:
    """Stamp every answer row that has no description hash yet. Returns the count."""
    stamped = 0
    for table, posting_column, unit_key_sql in TABLES:
        if not await _has_column(conn, table, "description_hash"):
            continue
        count = await _stamp(conn, table, posting_column, unit_key_sql)
        if count:
            log.info("%s: stamped %d row(s) with the hash of the description stored now",
                     table, count)
        stamped += count
    return stamped
