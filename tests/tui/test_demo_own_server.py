"""`jobtracker-tui --demo --home DIR --llm-url URL` on a demo folder made earlier with the
demo model: config.yaml still names `jobtracker-demo`, which a server of your own does
not list. The demo session asks the server for the first model it lists and the run
uses it (a model override in RunOptions), so the README's recipe works on a reused
folder; the header names that server, not the demo model."""

from __future__ import annotations

import io
from pathlib import Path

from jobtracker.demo import DEMO_MODEL
from jobtracker.demo.session import demo_session
from jobtracker.run.setup import config_of
from jobtracker.runner import RunOptions, load_setup
from jobtracker.workspace import Workspace
from tests.servers.model import ModelServer
from tui.app import JobtrackerApp
from tui.cli import main


def test_llm_url_on_an_existing_demo_folder_asks_the_servers_model(
        tmp_path: Path) -> None:
    home = tmp_path / "demo"
    # First the demo with its own model: config.yaml names jobtracker-demo.
    with demo_session(str(home), out=io.StringIO()) as session:
        assert session.demo_model
    assert config_of(Workspace(home)).llm.model == DEMO_MODEL
    with ModelServer(models=("served-model", "other")) as server:
        code = main(["--demo", "--run", "--home", str(home), "--budget", "3",
                     "--llm-url", server.url])
        asked = server.chat_requests
    assert code == 0
    assert len(asked) == 3 and {r.json["model"] for r in asked} == {"served-model"}
    # The folder's own file is left as it was: the override is for the session.
    assert config_of(Workspace(home)).llm.model == DEMO_MODEL


def test_the_session_names_the_model_and_the_app_labels_the_server(tmp_path: Path) -> None:
    home = tmp_path / "demo"
    with demo_session(str(home), out=io.StringIO()):
        pass
    out = io.StringIO()
    with ModelServer(models=("served-model",)) as server, \
            demo_session(str(home), server.url, out=out) as session:
        assert session.model == "served-model" and not session.demo_model
        assert "asking" in out.getvalue() and "set llm.model in config.yaml" in out.getvalue()
        setup = load_setup(session.ws, RunOptions(llm_url=session.llm_url,
                                                  model=session.model))
        assert setup.config.llm.model == "served-model" and setup.config.llm.models == {}
        label = JobtrackerApp(setup, demo_model=session.demo_model).model_label()
    assert label.startswith("served-model @ 127.0.0.1:") and "DEMO" not in label


def test_a_server_that_lists_nothing_is_said_with_what_to_do(tmp_path: Path) -> None:
    home = tmp_path / "demo"
    with demo_session(str(home), out=io.StringIO()):
        pass
    out = io.StringIO()
    with demo_session(str(home), "http://127.0.0.1:9", out=out) as session:
        assert session.model is None
    assert "lists no model" in out.getvalue()
    assert "set llm.model in config.yaml" in out.getvalue()
