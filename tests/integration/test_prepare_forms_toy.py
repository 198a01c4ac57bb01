"""A source reads forms when it declares a form reader, and prepare names no source: a
Lever with a toy form reader, put in the registry through the `extend` helper alone,
has its postings' forms read, cached and resolved by `jobtracker prepare`; without
one, prepare says the source publishes no form."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any

import pytest

from jobtracker import cli, sources
from jobtracker.sources.base import FormReader, SourceError, load_json, segment
from jobtracker.sources.forms import Field, Form, bounded, label
from jobtracker.workspace import Workspace
from tests import prepare_world
from tests.db import raw_connect
from tests.prepare_world import run_prepare
from tests.servers.boards import BoardServer

home, server = prepare_world.home, prepare_world.server

TOY_FORM = {"fields": [{"label": "Email", "name": "email", "required": True},
                       {"label": "Favourite <b>colour</b>?", "name": "colour"}]}


def toy_url(listing: str, external_id: str) -> str:
    return f"{listing.rstrip('/')}/{segment(external_id)}/form"


def toy_parse(payload: Any) -> Form:
    data = load_json(payload)
    if not isinstance(data, dict) or not isinstance(data.get("fields"), list):
        raise SourceError("not a toy form")
    return bounded("lever", (Field(label(f.get("label")), label(f.get("name")), "input_text",
                                   f.get("required") is True)
                             for f in data["fields"] if isinstance(f, dict)))


def kite(done: list[dict[str, Any]]) -> dict[str, Any]:
    [found] = [item for item in done if item["company"] == "Kite"]
    return found


def test_a_source_that_declares_a_form_reader_has_its_forms_read_by_prepare(
        home: Workspace, server: BoardServer, capsys: pytest.CaptureFixture[str],
        extend: Callable[..., object]) -> None:
    server.set("/lv/kite/k1/form", TOY_FORM)
    reading = dataclasses.replace(sources.REGISTRY["lever"],
                                  form=FormReader(toy_url, toy_parse))
    extend(sources.REGISTRY, reading)          # the one entry, in place of lever's
    item = kite(run_prepare(home, capsys))
    assert (item["form"], item["form_error"]) == ("lever", None)
    data = json.loads((home.home / item["path"] / "answers.json").read_text())
    assert [(f["label"], f["answer"]) for f in data["fields"]] == [
        ("Email", "ada@example.org"), ("Favourite <b>colour</b>?", None)]
    assert [r.path for r in server.requests].count("/lv/kite/k1/form") == 1
    with raw_connect(home.db) as conn:
        (stored,) = conn.execute("SELECT url FROM forms WHERE posting_id = ?",
                                 (item["posting"],)).fetchone()
    assert stored == server.url("/lv/kite/k1/form")
    # The line says the employer's form; the next prepare reads it from the cache.
    assert cli.main(["--home", str(home.home), "prepare"]) == 0
    out = capsys.readouterr().out
    [line] = [line for line in out.splitlines() if "kite" in line]
    assert "the employer's form, 1/2 answered" in line
    assert [r.path for r in server.requests].count("/lv/kite/k1/form") == 1


def test_a_source_without_a_reader_gets_the_standard_set_and_prepare_says_why(
        home: Workspace, server: BoardServer, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--home", str(home.home), "prepare"]) == 0
    out = capsys.readouterr().out
    [line] = [line for line in out.splitlines() if "kite" in line]
    assert "standard set (lever publishes no form)" in line
    assert not [r.path for r in server.requests if r.path.startswith("/lv/kite/")]
