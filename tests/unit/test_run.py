"""jobtracker/run/__init__.py: the run's public names, each imported when first asked
for (PEP 562), and `jobtracker.runner` the same module under its older name."""

from __future__ import annotations

import subprocess
import sys

import pytest

import jobtracker.run
import jobtracker.runner


def test_runner_is_the_run_package_itself() -> None:
    assert jobtracker.runner is jobtracker.run
    assert jobtracker.runner.load_setup is jobtracker.run.setup.load_setup


def test_every_public_name_resolves_and_no_other() -> None:
    for name in jobtracker.run.__all__:
        assert getattr(jobtracker.run, name) is not None
    assert set(jobtracker.run.__all__) <= set(dir(jobtracker.run))
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = jobtracker.run.nothing   # type: ignore[attr-defined]


def test_a_light_name_loads_its_part_alone() -> None:
    # In a fresh interpreter: the setup's name imports neither the run nor HTTP.
    probe = ("import sys\nfrom jobtracker.runner import load_setup\n"
             "print('jobtracker.run.run' in sys.modules, 'httpx' in sys.modules)\n"
             "from jobtracker.runner import work\n"
             "print('jobtracker.run.run' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True, timeout=60)
    assert done.stdout.split() == ["False", "False", "True"]
