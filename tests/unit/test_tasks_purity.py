"""The purity contract of the task modules (pyproject's import-linter contract "Tasks do
no I/O"): it holds for the tasks as they are, and it breaks when a task imports a
mailbox reader, a download or a socket — so a task that starts doing I/O again fails
CI, not only a reviewer's eye."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import grimp
import pytest
from importlinter.configuration import configure
from importlinter.contracts.forbidden import ForbiddenContract

ROOT = Path(__file__).resolve().parents[2]
NAME = "Tasks do no I/O: no mailbox, download, fetch, sender, run, lease or socket"


def contract_options() -> dict[str, Any]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    (found,) = [c for c in contracts if c["name"] == NAME]
    return {key: value for key, value in found.items() if key not in ("name", "type")}


def check(graph: grimp.ImportGraph) -> bool:
    """Whether the graph keeps the contract, checked by import-linter itself."""
    configure()   # the settings lint-imports runs with (its timer, its printer)
    options = {key: (value if isinstance(value, list) else str(value).lower())
               for key, value in contract_options().items()}
    contract = ForbiddenContract(NAME, {"root_packages": ["jobtracker"],
                                               "include_external_packages": True}, options)
    return contract.check(graph, verbose=False).kept


@pytest.fixture
def graph() -> grimp.ImportGraph:
    """jobtracker's import graph as lint-imports builds it (each test its own: a test
    adds an import to it)."""
    return grimp.build_graph("jobtracker", include_external_packages=True, cache_dir=None)


def test_the_contract_covers_the_mail_readers_and_downloads() -> None:
    forbidden = set(contract_options()["forbidden_modules"])
    assert {"jobtracker.mail.maildir", "jobtracker.mail.imap", "jobtracker.intake",
            "jobtracker.postings.download", "jobtracker.postings.fetch"} <= forbidden


def test_the_tasks_keep_the_contract(graph: grimp.ImportGraph) -> None:
    assert check(graph)


@pytest.mark.parametrize("imported", [
    "jobtracker.mail.maildir", "jobtracker.mail.imap.sync", "jobtracker.postings.download",
    "jobtracker.intake.mail", "socket"])
def test_a_task_importing_an_io_module_breaks_it(graph: grimp.ImportGraph,
                                                 imported: str) -> None:
    graph.add_import(importer="jobtracker.tasks.inbox", imported=imported)
    assert not check(graph)


def test_a_task_importing_the_pure_folder_check_keeps_it(graph: grimp.ImportGraph) -> None:
    graph.add_import(importer="jobtracker.tasks.level", imported="jobtracker.mail.folders")
    assert check(graph)
