"""The one connection a run's units share."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import aiosqlite


@dataclass
class Database:
    """A connection and the lock that keeps its statement sequences apart: units run
    concurrently, but one connection runs one transaction at a time."""

    conn: aiosqlite.Connection
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
