"""profile.yaml's `filters`: what loads, and the errors that name file, line and field."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from jobtracker import config as cfg
from jobtracker.templates import __file__ as templates_init
from jobtracker.yamlfile import ConfigError

FULL = """\
prose: Senior backend engineer
levels: [senior]
filters:
  companies: [{name: "Staffing Co", reason: agency}, TalentBridge]
  salary_min: {amount: 120000, currency: usd}
  remote: required
  sponsorship: required
  max_age_days: 45
"""


def load(tmp_path: Path, text: str) -> cfg.Profile:
    path = tmp_path / "profile.yaml"
    path.write_text(text, encoding="utf-8")
    return cfg.load_profile(path)


def test_every_filter_loads_typed(tmp_path: Path) -> None:
    filters = load(tmp_path, FULL).filters
    assert filters.companies == (cfg.CompanyRule("Staffing Co", "agency"),
                                 cfg.CompanyRule("TalentBridge", ""))
    assert filters.salary_min == (cfg.SalaryFloor(120000.0, "USD"),)
    assert (filters.remote, filters.sponsorship, filters.max_age_days) == (
        "required", "required", 45)
    assert filters.active


def test_no_filters_means_none_active(tmp_path: Path) -> None:
    assert not load(tmp_path, "prose: x\n").filters.active
    assert not load(tmp_path, "prose: x\nfilters: {remote: any, sponsorship: any}\n"
                    ).filters.active


def test_a_floor_per_currency(tmp_path: Path) -> None:
    filters = load(tmp_path, "filters:\n  salary_min:\n    - {amount: 120000, currency: USD}\n"
                             "    - {amount: 90000, currency: EUR}\n").filters
    assert [f.currency for f in filters.salary_min] == ["USD", "EUR"]


@pytest.mark.parametrize(("text", "line", "field", "words"), [
    ("filters:\n  colour: red\n", 2, "filters.colour", "unknown key"),
    ("filters:\n  salary_min: {amount: -5, currency: USD}\n", 2, "filters.salary_min.amount",
     "must not be negative"),
    ("filters:\n  salary_min:\n    amount: 100\n    currency: ZZZ\n", 4,
     "filters.salary_min.currency", "unknown currency 'ZZZ'"),
    ("filters:\n  salary_min: {amount: 100}\n", 2, "filters.salary_min", "needs both"),
    ("filters:\n  salary_min:\n    - {amount: 1, currency: EUR}\n"
     "    - {amount: 2, currency: EUR}\n", 4, "filters.salary_min[1].currency", "a second floor"),
    ("filters:\n  remote: sometimes\n", 2, "filters.remote", "required, any"),
    ("filters:\n  sponsorship: yes\n", 2, "filters.sponsorship", "required, any"),
    ("filters:\n  max_age_days: -1\n", 2, "filters.max_age_days", "whole number"),
    ("filters:\n  companies: Staffing Co\n", 2, "filters.companies", "must be a list"),
    ("filters:\n  companies:\n    - {reason: agency}\n", 3, "filters.companies[0].name",
     "non-empty string"),
    ("filters:\n  companies:\n    - {name: X, why: agency}\n", 3,
     "filters.companies[0].why", "unknown key"),
])
def test_bad_filters_name_file_line_and_field(tmp_path: Path, text: str, line: int,
                                              field: str, words: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load(tmp_path, text)
    message = str(caught.value)
    assert message.startswith(f"{tmp_path / 'profile.yaml'}:{line}: {field}: "), message
    assert words in message


def test_the_command_line_says_it_and_exits_2(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "profile.yaml").write_text("prose: x\nfilters:\n  salary_min: {amount: 1, "
                                       "currency: ZZZ}\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "jobtracker", "--home", str(home), "matches",
                           "--filtered"], capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert "profile.yaml:3: filters.salary_min.currency: unknown currency 'ZZZ'" in done.stderr


def test_ten_thousand_companies_load(tmp_path: Path) -> None:
    names = "".join(f"    - {{name: Company {i}, reason: mine}}\n" for i in range(10_000))
    filters = load(tmp_path, f"filters:\n  companies:\n{names}").filters
    assert len(filters.companies) == 10_000
    assert filters.companies[-1] == cfg.CompanyRule("Company 9999", "mine")


def test_the_template_example_is_valid_yaml_and_a_valid_profile_uncommented(
        tmp_path: Path) -> None:
    template = (Path(templates_init).parent / "profile.yaml").read_text(encoding="utf-8")
    lines = template.splitlines()
    start = next(i for i, text in enumerate(lines) if text.startswith("# filters:"))
    block = [text[2:] if text.startswith("# ") else text for text in lines[start:]
             if text.startswith("# ") or text.startswith("#   ")]
    uncommented = "\n".join(lines[:start] + block) + "\n"
    yaml.safe_load(uncommented)
    filters = load(tmp_path, uncommented).filters
    assert filters.active and filters.companies and filters.salary_min
