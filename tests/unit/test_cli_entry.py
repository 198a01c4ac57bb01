"""`jobtracker`'s entry point: --help, an unknown subcommand, --home before or after it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jobtracker.cli import main
from jobtracker.cli.entry import COMMANDS, REGISTRY
from jobtracker.workspace import TEMPLATE_FILES
from tests.conftest import run_cli, run_process


@pytest.mark.parametrize("order", ["before", "after"])
def test_home_accepted_before_or_after_subcommand(tmp_path: Path, order: str) -> None:
    home = tmp_path / order
    argv = ["--home", str(home), "init"] if order == "before" else ["init", "--home", str(home)]
    assert main(argv) == 0
    assert sorted(p.name for p in home.iterdir() if p.is_file()) == sorted(TEMPLATE_FILES)


def test_help_is_exit_zero_as_a_process() -> None:
    result = run_process("--help")
    assert result.returncode == 0
    assert "init" in result.stdout


def test_unknown_subcommand_is_usage_error() -> None:
    result = run_cli("frobnicate")
    assert result.returncode == 2
    assert "invalid choice" in result.stderr


def test_help_lists_every_command_once_in_the_order_commands_gives(
        capsys: pytest.CaptureFixture[str]) -> None:
    names = [command.name for command in COMMANDS]
    assert len(set(names)) == len(names) and set(REGISTRY) == set(names)
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    listed = re.findall(r"^    (\w+)", capsys.readouterr().out, re.M)
    assert listed == names


@pytest.mark.parametrize(("argv", "said"), [
    (["matches", "--filter"], "unrecognized arguments: --filter"),       # --filtered
    (["matches", "--dismiss"], "unrecognized arguments: --dismiss"),     # --dismissed
    (["--hom", "/tmp/nowhere", "check"], "invalid choice: '/tmp/nowhere'"),  # --home
    (["matches", "dismiss", "1", "--reas", "level"],                      # --reason
     "the following arguments are required: --reason"),
])
def test_a_prefix_of_a_flag_is_a_usage_error_not_the_flag(
        argv: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2
    assert said in capsys.readouterr().err


def test_the_tui_command_line_takes_no_prefix_either(
        capsys: pytest.CaptureFixture[str]) -> None:
    from tui.cli import build_parser

    with pytest.raises(SystemExit) as done:
        build_parser().parse_args(["--dem"])
    assert done.value.code == 2
    assert "unrecognized arguments: --dem" in capsys.readouterr().err
