"""answers.yaml: the template, and errors that name file, line and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobtracker.prepare.answer_bank import load_answers
from jobtracker.yamlfile import ConfigError

CONTRACT_EXAMPLE = """\
identity:
  first_name: Ada
  last_name: Lovelace
  email: ada@example.org
  phone: "+44 20 7946 0000"
  location: London, UK
  links: {linkedin: https://www.linkedin.com/in/ada, github: https://github.com/ada, website: https://ada.dev}
work_authorization: "Yes"
requires_sponsorship: "No"
salary_expectation: "95,000 GBP"
notice_period: "4 weeks"
relocation: "No"
eeo: decline
questions:
  - {match: "how did you hear", answer: "Your careers page"}
"""


def test_the_template_is_empty_and_its_example_is_the_documented_one(tmp_path: Path) -> None:
    path = tmp_path / "answers.yaml"
    path.write_text(CONTRACT_EXAMPLE)
    documented = load_answers(path)
    assert documented.get("identity.links.website") == "https://ada.dev"
    assert documented.eeo == "decline"
    assert documented.questions[0].match == ("how", "did", "you", "hear")
    template = (Path(__file__).parents[2] / "jobtracker/templates/answers.yaml").read_text()
    path.write_text(template)
    assert load_answers(path) == type(documented)(), "init's file answers nothing by itself"
    lines = template.splitlines()
    example = [line[2:] for line in lines[lines.index("# identity:"):] if line.startswith("# ")]
    path.write_text("\n".join(example) + "\n")
    assert load_answers(path) == documented


@pytest.mark.parametrize(("text", "where"), [
    ("identity:\n  first_nam: Ada\n", "answers.yaml:2: identity.first_nam: unknown key"),
    ("work_authorization: yes\n", "answers.yaml:1: work_authorization: must be text"),
    ("eeo: male\n", "answers.yaml:1: eeo: unknown value"),
    ("questions:\n  - {match: '', answer: x}\n", "answers.yaml:2: questions[0].match"),
    ("questions: {a: b}\n", "answers.yaml:1: questions: must be a list"),
])
def test_answers_yaml_errors_name_file_line_and_field(tmp_path: Path, text: str,
                                                      where: str) -> None:
    path = tmp_path / "answers.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as error:
        load_answers(path)
    assert where in str(error.value)
