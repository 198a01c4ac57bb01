"""`jobtracker contacts`: importing LinkedIn's export and other sheets, listing who you
know at a company, and the matches list saying so (the CLI in process)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from jobtracker import cli, store
from jobtracker.workspace import Workspace
from tests import matches_seed
from tests.matches_seed import matches_json

seeded = matches_seed.seeded
REAL = Path(__file__).parents[1] / "fixtures" / "real" / "contacts"


def _run(ws: Workspace, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(["--home", str(ws.home), *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _sheet(tmp_path: Path, text: str, name: str = "people.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _count(ws: Workspace) -> int:
    async def count() -> int:
        async with store.connect(ws.db) as conn:
            return (await (await conn.execute("SELECT COUNT(*) FROM contacts")).fetchone())[0]
    return asyncio.run(count())


def test_linkedin_export_imports_and_says_what_it_left_out(
        ws: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(ws, capsys, "contacts", "import", str(REAL / "linkedin-2026.csv"))
    assert code == 0
    assert "linkedin-2026.csv: LinkedIn's Connections.csv, 5 contact(s)" in out
    assert "1 row(s) with no name left out" in out
    assert "1 contact(s) with no company: kept" in out
    assert "imported 5 contact(s) as source 'linkedin'" in out
    assert _count(ws) == 5


def test_matches_name_the_people_you_know_at_the_company_and_not_at_a_namesake(
        seeded: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    # The export has Sam Roe at "Acme, Inc." and Kim Park at "Acme Robotics": the
    # posting of "Acme" is Sam's company (legal suffix aside), not Kim's.
    assert _run(seeded, capsys, "contacts", "import", str(REAL / "linkedin-2026.csv"))[0] == 0
    by_id = {m["id"]: m for m in matches_json(seeded, capsys)}
    assert by_id[1]["contacts"]["count"] == 1
    assert [c["name"] for c in by_id[1]["contacts"]["people"]] == ["Sam Roe"]
    assert by_id[1]["contacts"]["people"][0]["position"] == "Director, Platform Engineering"
    assert by_id[2]["contacts"] is None
    code, out, _ = _run(seeded, capsys, "matches")
    assert code == 0
    assert ("you know 1 person at Acme (Sam Roe, Director, Platform Engineering)"
            in out)
    assert out.count("you know") == 1


def test_reimporting_a_source_replaces_only_its_own_rows(
        ws: Workspace, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert _run(ws, capsys, "contacts", "import", str(REAL / "linkedin-2026.csv"))[0] == 0
    assert _run(ws, capsys, "contacts", "import", str(REAL / "spreadsheet-crlf-bom.csv"))[0] == 0
    assert _count(ws) == 7
    smaller = _sheet(tmp_path, "First Name,Last Name,Company,Position,Connected On\n"
                               "New,Person,Acme,Engineer,01 Jan 2026\n", "Connections.csv")
    code, out, _ = _run(ws, capsys, "contacts", "import", str(smaller))
    assert code == 0 and "replacing 5" in out
    assert _count(ws) == 3          # the spreadsheet's two, and the new export's one
    code, out, _ = _run(ws, capsys, "contacts", "--json")
    assert sorted((p["name"], p["source"]) for p in json.loads(out)) == [
        ("Eli Stone", "spreadsheet-crlf-bom.csv"), ("Fay Quinn", "spreadsheet-crlf-bom.csv"),
        ("New Person", "linkedin")]


def test_a_bad_file_is_refused_naming_it_and_keeps_what_was_stored(
        ws: Workspace, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert _run(ws, capsys, "contacts", "import", str(REAL / "linkedin-2026.csv"))[0] == 0
    bad = _sheet(tmp_path, "First Name,Company\n" + "x" * 2000 + ",Acme\n", "Connections.csv")
    code, _, err = _run(ws, capsys, "contacts", "import", str(bad), "--source", "linkedin")
    assert code == 2
    assert f"{bad}:2: a field of 2,000 characters" in err
    assert _count(ws) == 5


def test_dry_run_stores_nothing(ws: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(ws, capsys, "contacts", "import", str(REAL / "linkedin-2021-no-url.csv"),
                        "--dry-run")
    assert code == 0 and "dry run: 2 contact(s) would replace source 'linkedin'" in out
    assert _count(ws) == 0


def test_listing_by_company_uses_the_mail_linking_names(
        ws: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(ws, capsys, "contacts", "import", str(REAL / "linkedin-2026.csv"))[0] == 0
    code, out, _ = _run(ws, capsys, "contacts", "ACME inc", "--json")
    assert code == 0
    assert [p["name"] for p in json.loads(out)] == ["Sam Roe"]
    code, out, _ = _run(ws, capsys, "contacts", "Acme Robotics")
    assert "Kim Park" in out and "Sam Roe" not in out
    code, out, _ = _run(ws, capsys, "contacts", "Nobody Corp")
    assert out.strip() == "no contacts at Nobody Corp"


def test_a_formula_cell_is_listed_as_its_characters(
        ws: Workspace, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    sheet = _sheet(tmp_path, 'Name,Company,Position\n"=HYPERLINK(""http://x"")",Acme,'
                             '"=1+1"\n')
    assert _run(ws, capsys, "contacts", "import", str(sheet))[0] == 0
    code, out, _ = _run(ws, capsys, "contacts", "Acme")
    assert code == 0
    assert '=HYPERLINK("http://x")' in out and "=1+1" in out


async def _mail(ws: Workspace, sender: str, company: str, state: str, key: str) -> None:
    async with store.connect(ws.db) as conn, store.write(conn):
        await conn.execute(
            "INSERT INTO messages (key, content_hash, sender, sender_domain, subject, sent_at, "
            "company, first_seen, state) VALUES (?, 'h', ?, 'bolt.example', 's', "
            "'2026-11-20T10:00:00Z', ?, '2026-11-20T10:00:00Z', ?)",
            (key, sender, company, state))


def test_people_who_wrote_about_an_application_are_contacts_of_that_company(
        seeded: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    asyncio.run(_mail(seeded, "Riley Chen <riley.chen@bolt.example>", "Bolt",
                      "interview_request", "m1"))
    asyncio.run(_mail(seeded, "Bolt Careers <no-reply@bolt.example>", "Bolt",
                      "acknowledgement", "m2"))
    asyncio.run(_mail(seeded, "Pat Doe <pat@news.example>", "Bolt", "not_application", "m3"))
    by_id = {m["id"]: m for m in matches_json(seeded, capsys)}
    assert [(c["name"], c["source"], c["position"]) for c in by_id[2]["contacts"]["people"]
            ] == [("Riley Chen", "mail", "wrote 2026-11-20")]
    code, out, _ = _run(seeded, capsys, "contacts", "Bolt")
    assert code == 0
    assert "Riley Chen" in out and "Careers" not in out and "Pat Doe" not in out


def test_many_people_at_one_company_are_counted_and_the_first_few_named(
        seeded: Workspace, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    sheet = _sheet(tmp_path, "Name,Company,Position\n" + "".join(
        f"Person {n:02},Acme,Engineer {n}\n" for n in range(12)))
    assert _run(seeded, capsys, "contacts", "import", str(sheet))[0] == 0
    (acme,) = [m for m in matches_json(seeded, capsys) if m["id"] == 1]
    assert acme["contacts"]["count"] == 12 and len(acme["contacts"]["people"]) == 3
    code, out, _ = _run(seeded, capsys, "matches")
    assert code == 0
    assert ("you know 12 people at Acme (Person 00, Engineer 0; Person 01, Engineer 1; "
            "Person 02, Engineer 2; 9 more)") in out


def test_import_takes_one_file(ws: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(ws, capsys, "contacts", "import")
    assert code == 2 and "takes one FILE" in err
    code, _, err = _run(ws, capsys, "contacts", "Acme", "--dry-run")
    assert code == 2 and "go with `contacts import FILE`" in err
