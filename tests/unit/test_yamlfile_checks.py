"""The shared checkers (jobtracker/yamlfile/checks.py): each returns the value checked
or raises an error that names the file, the line and the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobtracker.yamlfile import ConfigError, Document, checks, parse


def doc(tmp_path: Path, text: str) -> Document:
    return parse(tmp_path / "config.yaml", text)


def message(call) -> str:
    with pytest.raises(ConfigError) as caught:
        call()
    return str(caught.value)


def test_an_unknown_key_names_its_line_and_the_keys_allowed(tmp_path: Path) -> None:
    d = doc(tmp_path, "a:\n  b: 1\n  c: 2\n")
    said = message(lambda: checks.mapping(d, d.data["a"], "a", allowed=("b",)))
    assert said == f"{tmp_path / 'config.yaml'}:3: a.c: unknown key (expected one of: b)"


def test_numbers_are_finite_and_in_range(tmp_path: Path) -> None:
    d = doc(tmp_path, "x: .nan\ny: 5\nz: true\n")
    assert "x: must be a number from 0 to 1" in message(
        lambda: checks.number(d, d.data["x"], "x", maximum=1))
    assert checks.number(d, d.data["y"], "y", maximum=10) == 5.0
    assert "z: must be a whole number" in message(lambda: checks.integer(d, d.data["z"], "z"))


def test_a_url_needs_a_scheme_and_a_host_and_a_port_that_parses(tmp_path: Path) -> None:
    d = doc(tmp_path, "a: ftp://x\nb: 'http://h:99999'\nc: https://ok.example/x\n")
    assert "must be an http:// or https:// URL" in message(lambda: checks.url(d, d.data["a"], "a"))
    assert "not a usable URL" in message(lambda: checks.url(d, d.data["b"], "b"))
    assert checks.url(d, d.data["c"], "c") == "https://ok.example/x"


def test_a_list_of_strings_is_lowered_and_checked_item_by_item(tmp_path: Path) -> None:
    d = doc(tmp_path, "to:\n  - File\n  - pigeon\n")
    assert "config.yaml:3: to[1]: unknown value 'pigeon' (expected one of: file)" in message(
        lambda: checks.str_list(d, d.data["to"], "to", check=lambda v: v == "file",
                                expected="file"))
    assert checks.str_list(d, ["File"], "to") == ("file",)


def test_a_choice_defaults_to_the_last_and_refuses_others(tmp_path: Path) -> None:
    d = doc(tmp_path, "r: Required\ns: maybe\n")
    assert checks.choice(d, d.data["r"], ("required", "any"), "r") == "required"
    assert checks.choice(d, None, ("required", "any"), "r") == "any"
    assert "s: must be one of: required, any" in message(
        lambda: checks.choice(d, d.data["s"], ("required", "any"), "s"))


def test_a_secret_comes_from_one_source_at_most(tmp_path: Path) -> None:
    d = doc(tmp_path, "m:\n  e: A\n  c: b\n")
    said = message(lambda: checks.secret_source(d, d.data["m"], ("m",), "e", "c",
                                                required=False))
    assert "m: give at most one of e and c" in said
    assert checks.secret_source(d, {"e": "A"}, ("m",), "e", "c", required=True) == ("A", None)


def test_paths_expand_the_home_and_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/home/ada")
    monkeypatch.setenv("BOX", "mail")
    assert checks.expand_path("~/$BOX") == Path("/home/ada/mail")
