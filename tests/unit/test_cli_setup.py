"""`jobtracker init`: every file created from a valid template, none ever overwritten."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jobtracker.cli import main
from jobtracker.prepare.answer_bank import load_answers
from jobtracker.run.setup import config_of, plugins_of, sources_of
from jobtracker.sources import REGISTRY
from jobtracker.workspace import TEMPLATE_FILES, Workspace


def test_init_creates_every_file_and_never_overwrites(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "ws"
    assert main(["--home", str(home), "init"]) == 0
    (home / "profile.yaml").write_text("prose: mine\n")
    (home / "resume.md").unlink()
    capsys.readouterr()
    assert main(["--home", str(home), "init"]) == 0
    out = capsys.readouterr().out
    assert (home / "profile.yaml").read_text() == "prose: mine\n"
    assert f"created {home / 'resume.md'}" in out
    assert "profile.yaml" not in out
    for folder in ("runs", "tailored", "letters"):
        assert (home / folder).is_dir()


def test_init_templates_are_valid_configuration(tmp_path: Path) -> None:
    """The commented examples `init` writes must load without an error."""
    ws = Workspace(tmp_path / "ws")
    ws.init()
    config = config_of(ws)
    assert config.concurrency == 4
    assert config.llm.url == "http://localhost:11434/v1"
    profile = ws.profile()
    assert profile.levels == ("senior", "staff")
    assert sources_of(ws).boards[0].ats == "greenhouse"
    assert plugins_of(ws)["coverletter"] is False


# A commented example line: `# key: value`, `#   nested: value`, `# - item`. Prose
# comments read as sentences, never as `word:` at their start.
_EXAMPLE = re.compile(r"^(\s*)# ?(\s*(?:[A-Za-z_][\w.-]*:(?:\s|$)|- ).*)$")


def uncommented(text: str) -> str:
    """`text` with every commented example line made live (its `# ` removed)."""
    return "".join(_EXAMPLE.sub(lambda m: m.group(1) + m.group(2), line)
                   for line in text.splitlines(keepends=True))


def test_every_commented_example_loads_once_uncommented(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "ws")
    ws.init()
    changed = []
    for name in TEMPLATE_FILES:
        path = ws / name
        if name.endswith(".yaml"):
            before = path.read_text(encoding="utf-8")
            path.write_text(uncommented(before), encoding="utf-8")
            if uncommented(before) != before:
                changed.append(name)
    assert {"config.yaml", "sources.yaml", "answers.yaml"} <= set(changed)
    config = config_of(ws)
    assert config.llm.models == {"tailor": "qwen3:32b"} and config.maildir is not None
    assert len(sources_of(ws).boards) > 1 and sources_of(ws).feeds
    ws.profile()
    plugins_of(ws)
    answers = load_answers(ws / "answers.yaml")
    assert answers.values["identity.first_name"] == "Ada"


def test_the_sources_template_names_every_source_there_is(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "ws")
    ws.init()
    text = (ws / "sources.yaml").read_text(encoding="utf-8")
    comments = " ".join(line for line in text.splitlines() if line.lstrip().startswith("#"))
    missing = [name for name in REGISTRY if not re.search(rf"\b{name}\b", comments)]
    assert missing == []


@pytest.mark.parametrize("state", ["missing", "empty"])
def test_check_warns_when_resume_md_is_missing_or_empty(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], state: str) -> None:
    home = tmp_path / "ws"
    assert main(["--home", str(home), "init"]) == 0
    capsys.readouterr()
    assert main(["--home", str(home), "check"]) == 0
    assert "resume.md" not in capsys.readouterr().err     # init's own resume.md is there
    resume = home / "resume.md"
    resume.unlink() if state == "missing" else resume.write_text(" \n", encoding="utf-8")
    assert main(["--home", str(home), "check"]) == 0, "a warning, not an error"
    out = capsys.readouterr()
    assert "configuration ok" in out.out
    assert f"warning: {resume} is {state}; tailor, coverletter, answer and prepare need" \
        in out.err
