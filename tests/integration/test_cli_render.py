"""`jobtracker render` and `jobtracker resume import` as a user runs them: exit codes,
the --json object, the read-back's verdict, and never overwriting resume.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jobtracker import cli
from jobtracker.render import jsonresume, markdown
from jobtracker.render.document import plain
from jobtracker.render.themes import built_in_path
from jobtracker.workspace import Workspace
from tests.render_samples import RESUME

JSON_RESUME = {
    "basics": {"name": "Ada *Lovelace*", "email": "ada@example.org", "phone": "+44 20 7946",
               "url": "https://ada.dev", "summary": "Engine builder. # not a heading",
               "location": {"city": "London", "countryCode": "UK"},
               "profiles": [{"network": "GitHub", "url": "https://github.com/ada"}]},
    "work": [{"name": "Analytical Engines", "position": "Programmer", "startDate": "1842",
              "highlights": ["Wrote the first program <for> the engine", "1. Not a list",
                             "C# and C++ and *nix"]}],
    "education": [{"institution": "Home", "area": "Mathematics", "studyType": "Tutoring"}],
    "skills": [{"name": "Maths", "keywords": ["Bernoulli numbers", "loops"]}],
}


def render(tmp_path: Path, *args: str) -> int:
    return cli.main(["--home", str(tmp_path / "no-workspace"), "render", *args])


def test_render_writes_a_pdf_beside_the_file_and_says_it_was_read_back(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "cv.md"
    source.write_text(RESUME)
    assert render(tmp_path, str(source)) == 0
    assert (tmp_path / "cv.pdf").read_bytes().startswith(b"%PDF")
    out = capsys.readouterr().out
    assert "wrote" in out and "2 pages" in out and "read back" in out
    assert not (tmp_path / "no-workspace").exists(), "render makes no workspace"


def test_render_json_is_one_object_as_the_contract_says(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "cv.md"
    source.write_text(RESUME)
    assert render(tmp_path, str(source), "-o", str(tmp_path / "out.pdf"), "--theme",
                  "compact", "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert data == {"output": str(tmp_path / "out.pdf"), "format": "pdf", "pages": 1,
                    "check": {"ok": True, "missing": [], "ligatures": 0, "undecodable": 0,
                              "outside": []}}
    assert render(tmp_path, str(source), "--format", "docx", "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["format"], data["check"]) == ("docx", None)
    assert (tmp_path / "cv.docx").is_file()


def test_a_failed_check_is_exit_1_and_the_file_is_written_and_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    theme = tmp_path / "nolists.typ"
    theme.write_text(built_in_path("classic").read_text().replace(
        'b.kind == "list" {', 'b.kind == "list" and false {'))
    source = tmp_path / "cv.md"
    source.write_text("# Jane\n\n## Work\n\n- Built a ledger\n")
    assert render(tmp_path, str(source), "--theme", str(theme), "--json") == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["check"]["missing"] == ["Built a ledger"]
    assert f"{tmp_path / 'cv.pdf'} was written, but the read-back check failed" in captured.err
    assert "'Built a ledger'" in captured.err
    assert (tmp_path / "cv.pdf").is_file()


@pytest.mark.parametrize(("content", "message"), [
    (None, "no such file"),
    (b"# Jane\n\xff\n", "cv.md:2: not UTF-8"),
    (b"", "nothing to render"),
    ("".join("  " * i + f"- {i}\n" for i in range(30)).encode(), "nested too deeply"),
    ("# Jane\n\nI 💙 Python\n".encode(), "U+1F499"),
], ids=["missing", "not utf-8", "empty", "deep", "emoji"])
def test_bad_input_is_exit_2_naming_the_file_and_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None,
        message: str) -> None:
    source = tmp_path / "cv.md"
    if content is not None:
        source.write_bytes(content)
    assert render(tmp_path, str(source)) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "cv.pdf").exists()


def test_an_unknown_theme_and_a_broken_one_are_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "cv.md"
    source.write_text(RESUME)
    assert render(tmp_path, str(source), "--theme", "fancy") == 2
    assert "unknown theme 'fancy'" in capsys.readouterr().err
    broken = tmp_path / "broken.typ"
    broken.write_text('#let doc = json(bytes(sys.inputs.at("data")))\n\n#doc.nosuch\n')
    assert render(tmp_path, str(source), "--theme", str(broken)) == 2
    assert f"{broken}:3: dictionary does not contain key" in capsys.readouterr().err


def test_config_render_theme_and_paper_are_used_and_checked(
        ws: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    theme = ws.home / "themes" / "mine.typ"
    theme.parent.mkdir()
    theme.write_text(built_in_path("compact").read_text())
    (ws.home / "config.yaml").write_text("render: {theme: themes/mine.typ, paper: us-letter}\n")
    source = ws.home / "cv.md"
    source.write_text(RESUME)
    assert cli.main(["--home", str(ws.home), "render", str(source)]) == 0
    assert "themes/mine.typ, us-letter" in capsys.readouterr().out
    (ws.home / "config.yaml").write_text("render:\n  paper: legal\n")
    assert cli.main(["--home", str(ws.home), "render", str(source)]) == 2
    assert "config.yaml:2: render.paper: unknown paper 'legal'" in capsys.readouterr().err


def test_resume_import_replaces_inits_placeholder_and_never_overwrites_a_resume(
        ws: Workspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "resume.json"
    source.write_text(json.dumps(JSON_RESUME))
    # Right after `init`, resume.md is the untouched placeholder: it is replaced.
    assert cli.main(["--home", str(ws.home), "resume", "import", str(source)]) == 0
    out = capsys.readouterr().out
    assert "in place of the placeholder `init` wrote" in out and ".new" not in out
    imported = (ws.home / "resume.md").read_text()
    assert imported.startswith("# Ada \\*Lovelace\\*")
    # Any other resume.md — this one, or the placeholder with one character changed —
    # is kept, and the import goes beside it.
    assert cli.main(["--home", str(ws.home), "resume", "import", str(source)]) == 0
    out = capsys.readouterr().out
    assert "exists and is kept" in out and "resume.md.new" in out
    assert (ws.home / "resume.md").read_text() == imported
    assert imported == (ws.home / "resume.md.new").read_text()
    doc = markdown.read(imported)
    assert doc.title == "Ada *Lovelace*", "the name's asterisks are text"
    assert doc.contact_details == ["ada@example.org", "+44 20 7946", "London, UK", "ada.dev",
                                   "github.com/ada"]
    bullets = [plain(item.spans) for block in doc.blocks if hasattr(block, "items")
               for item in block.items]
    assert "Wrote the first program <for> the engine" in bullets
    assert "1. Not a list" in bullets and "C# and C++ and *nix" in bullets
    assert cli.main(["--home", str(ws.home), "render", str(ws.home / "resume.md")]) == 0


def test_resume_import_keeps_a_placeholder_the_user_touched(
        ws: Workspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "resume.json"
    source.write_text(json.dumps(JSON_RESUME))
    touched = (ws.home / "resume.md").read_text() + "\n- One line of my own.\n"
    (ws.home / "resume.md").write_text(touched)
    assert cli.main(["--home", str(ws.home), "resume", "import", str(source)]) == 0
    assert "exists and is kept" in capsys.readouterr().out
    assert (ws.home / "resume.md").read_text() == touched
    assert (ws.home / "resume.md.new").exists()


def test_resume_import_of_a_pre_1_0_file_says_which_legacy_keys_it_read(
        ws: Workspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "resume.json"
    source.write_text(json.dumps({
        "basics": {"name": "Ada", "website": "https://ada.dev"},
        "work": [{"company": "Engines", "position": "Programmer",
                  "website": "https://engines.example"}],
        "education": [{"institution": "Home", "gpa": "4.0"}]}))
    assert cli.main(["--home", str(ws.home), "resume", "import", str(source)]) == 0
    out = capsys.readouterr().out
    assert (f"{source}: read keys of the pre-1.0 JSON Resume schema: basics.website (as url), "
            "education[].gpa (as score), work[].company (as name), work[].website (as url)"
            ) in out
    text = (ws.home / "resume.md").read_text()
    assert "[ada.dev](https://ada.dev)" in text and "Engines — Programmer" in text
    assert "[engines.example](https://engines.example)" in text and "Score: 4.0" in text


def test_render_of_a_json_resume_points_at_resume_import(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "resume.json"
    source.write_text(json.dumps(JSON_RESUME))
    assert render(tmp_path, str(source)) == 2
    err = capsys.readouterr().err
    assert f"{source} is a JSON Resume" in err
    assert f"`jobtracker resume import {source}`" in err
    assert not (tmp_path / "resume.pdf").exists()


def test_a_clipped_line_is_exit_1_naming_its_line_and_the_file_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    words = ",".join(["Kubernetes", "Terraform", "PostgreSQL", "Elasticsearch", "RabbitMQ",
                      "Prometheus", "Grafana", "MongoDB"] * 3)
    source = tmp_path / "cv.md"
    source.write_text(f"# Jane\n\n## Skills\n\n- Keywords: {words}\n")
    assert render(tmp_path, str(source)) == 1
    err = capsys.readouterr().err
    assert f"{tmp_path / 'cv.pdf'} was written, but the read-back check failed: " in err
    assert f"{source}:5: 'Kubernetes,Terraform," in err
    assert "runs off the right edge of page 1" in err
    assert (tmp_path / "cv.pdf").exists()


@pytest.mark.parametrize(("content", "message"), [
    ("{not json", "line 1: not JSON"),
    ("[1, 2]", "must be a JSON object"),
    ('{"work": {"name": "x"}}', "work: must be a list"),
    ('{"work": [{"highlights": "one"}]}', "work[0].highlights: must be a list of text"),
    ('{"basics": {"location": "London"}}', "basics.location: must be an object"),
    ("[" * 5000 + "]" * 5000, "nested deeper than a resume is (at most 40 levels"),
    ('{"basics": {"name": "x"}, "awards": ' + "[" * 60 + "]" * 60 + "}",
     "nested deeper than a resume is"),
    ('{"basics": {"name": "Ada"},\n "score": ' + "9" * 100_000 + "}",
     "line 2: a number of 100,000 characters is not a resume's (at most 40)"),
])
def test_resume_import_of_a_bad_file_is_exit_2_naming_the_field(
        ws: Workspace, tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str,
        message: str) -> None:
    source = tmp_path / "resume.json"
    source.write_text(content)
    assert cli.main(["--home", str(ws.home), "resume", "import", str(source)]) == 2
    assert message in capsys.readouterr().err
    assert not (ws.home / "resume.md.new").exists()


def test_escaped_values_read_back_as_the_same_text() -> None:
    for value in ["# heading?", "- dash", "1. one", "a *b* _c_", "<b>x</b>", "[x](y)",
                  "back\\slash", "`tick`", "&amp;", "> quote", "+ plus", "= equals",
                  "2) paren"]:
        (block,) = markdown.read(jsonresume.guard(jsonresume.escape(value))).blocks
        assert plain(block.spans) == value


def test_resume_import_writes_dates_in_config_yamls_words(
        ws: Workspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (ws.home / "config.yaml").write_text(
        "render:\n  dates: {months: long, present: heute}\n")
    source = tmp_path / "resume.json"
    source.write_text(json.dumps({"basics": {"name": "Ada"}, "work": [
        {"name": "Engines", "startDate": "2011-06-01"},
        {"name": "Mill", "startDate": "2009-03", "endDate": "2011-05-31"}]}))
    assert cli.main(["--home", str(ws.home), "resume", "import", str(source)]) == 0
    text = (ws.home / "resume.md").read_text()
    assert "### Engines (June 2011 – heute)" in text
    assert "### Mill (March 2009 – May 2011)" in text
