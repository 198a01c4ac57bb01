"""Fixtures the integration tests share: a job-board server on 127.0.0.1 and a
migrated database. A test file that needs its server set up otherwise (or a model
server under the same name) defines its own `server`, which takes precedence."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import aiosqlite
import pytest
from servers.boards import BoardServer

from jobtracker import store


@pytest.fixture
def server() -> Iterator[BoardServer]:
    with BoardServer() as running:
        yield running


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "jobtracker.db"


@pytest.fixture
async def conn(db: Path) -> AsyncIterator[aiosqlite.Connection]:
    async with store.connect(db) as connection:
        yield connection
