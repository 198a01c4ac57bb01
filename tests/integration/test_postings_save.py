"""jobtracker/postings/save.py: ATS job pages through the source's own plan (one job's
description only), pages bounded as the sources are, canonical addresses, the model's
answers checked against the text, and saved postings kept through grouping."""

from __future__ import annotations

from pathlib import Path

import pytest
from servers.boards import BoardServer, greenhouse_board, greenhouse_job
from servers.shapes import recruitee_offer, workable_detail, workable_job, workable_page

from jobtracker import store
from jobtracker.config import Board, Sources
from jobtracker.postings import groups, save
from jobtracker.postings.download import make_client
from jobtracker.postings.results import BoardResult
from jobtracker.postings.save import Pasted, SaveError, canonical_url, checked
from jobtracker.postings.upsert import apply_alerts, ensure_board
from jobtracker.sources import NormalizedPosting
from jobtracker.sources.jobposting import MAX_PAGE_BYTES
from tests.db import raw_connect


async def test_a_workable_job_asks_for_its_own_description_only(server: BoardServer) -> None:
    api = server.set("/wk/acme/jobs", workable_page(
        [workable_job(code, f"Job {code}") for code in ("AAA111", "BBB222", "CCC333")]),
        post={})
    for code in ("AAA111", "BBB222", "CCC333"):
        server.set(f"/wk/acme/jobs/{code}", workable_detail(code, "x",
                                                            description_html=f"<p>{code}</p>"))
    sources = Sources(boards=(Board("workable", "acme", "Acme", api),))
    async with make_client() as client:
        found = await save.read_ats(client, "https://apply.workable.com/acme/j/BBB222/",
                                    "workable", "acme", "BBB222", sources=sources)
    assert [r.path for r in server.requests] == ["/wk/acme/jobs", "/wk/acme/jobs/BBB222"]
    assert (found.posting.title, found.posting.external_id) == (
        "Job BBB222", "https://apply.workable.com/acme/j/BBB222/")
    assert (found.posting.description or "").startswith("BBB222\n\n- Go")
    assert found.notes == []                  # listed in sources.yaml: no board offered


async def test_an_unlisted_board_is_offered(server: BoardServer) -> None:
    api = server.set("/gh/zeta", greenhouse_board([greenhouse_job(5, "Chef", token="zeta")]))
    async with make_client() as client:
        found = await save.read_ats(client, "https://boards.greenhouse.io/zeta/jobs/5?gh_src=x",
                                    "greenhouse", "zeta", "5", address=api)
    assert found.board is not None and found.board.company == "Zeta"
    assert found.notes == ["the whole board: jobtracker add "
                           "https://boards.greenhouse.io/zeta/jobs/5"]


async def test_a_page_past_the_size_bound_is_not_read_whole(server: BoardServer) -> None:
    server.set("/huge", b"<html>" + b"x" * (MAX_PAGE_BYTES + 10), content_type="text/html")
    with pytest.raises(SaveError, match="larger than 16 MB") as raised:
        await save.read_url(server.url("/huge"))
    assert raised.value.code == save.EXIT_FAILED


async def test_a_page_listing_a_thousand_postings_is_refused(server: BoardServer) -> None:
    blocks = ",".join(f'{{"@type": "JobPosting", "title": "Job {i}"}}' for i in range(1000))
    server.set("/list", f'<script type="application/ld+json">[{blocks}]</script>',
               content_type="text/html")
    with pytest.raises(SaveError, match="more than 100 job postings") as raised:
        await save.read_url(server.url("/list"))
    assert raised.value.code == save.EXIT_FAILED


async def test_a_redirect_off_the_web_is_refused(server: BoardServer) -> None:
    server.set("/go", "", status=302, headers={"Location": "ftp://example.org/job"})
    server.set("/js", "", status=302, headers={"Location": "javascript:alert(1)"})
    with pytest.raises(SaveError, match="redirect to a ftp: address refused"):
        await save.read_url(server.url("/go"))
    with pytest.raises(SaveError, match="nothing saved"):
        await save.read_url(server.url("/js"))
    assert [r.path for r in server.requests] == ["/go", "/js"]


async def test_a_posting_claiming_another_site_keeps_the_page_given(server: BoardServer) -> None:
    server.set("/j", '<script type="application/ld+json">{"@type": "JobPosting", "title": '
                     '"Staff Engineer", "url": "https://careers.google.com/jobs/1", '
                     '"hiringOrganization": {"name": "Google", "sameAs": '
                     '"https://www.google.com"}}</script>', content_type="text/html")
    found = await save.read_url(server.url("/j"))
    assert found.posting.url == server.url("/j")
    assert any("names another site as its page" in note for note in found.notes)
    assert any("names google.com as the company's site" in note for note in found.notes)


@pytest.mark.parametrize(("given", "canonical"), [
    ("https://Jobs.Example.com/a/b?utm_source=x&id=3&fbclid=y#top",
     "https://jobs.example.com/a/b?id=3"),
    ("https://www.linkedin.com/jobs/view/senior-engineer-at-acme-4317109784?trk=abc&refId=1",
     "https://www.linkedin.com/jobs/view/4317109784/"),
    ("https://www.indeed.com/viewjob?jk=abc123def4567890&from=serp",
     "https://www.indeed.com/viewjob?jk=abc123def4567890"),
    ("https://boards.greenhouse.io/acme/jobs/7?gh_src=friend",
     "https://boards.greenhouse.io/acme/jobs/7"),
    ("https://example.org", "https://example.org/"),
])
def test_canonical_url(given: str, canonical: str) -> None:
    assert canonical_url(given) == canonical


TEXT = ("Senior Platform Engineer - Initech (Austin, TX)\nHybrid: three days in the office.\n"
        "Pay: $140k to $165,000 a year.\nWe build TPS report tooling.")


def test_model_answers_are_kept_only_when_the_text_holds_them() -> None:
    fields, dropped = checked({
        "title": "Senior Platform Engineer", "company": "Initrode", "location": "Austin, TX",
        "remote": True, "salary_min": 140000, "salary_max": 165000,
        "salary_currency": "USD"}, TEXT)
    assert fields == {"title": "Senior Platform Engineer", "location": "Austin, TX",
                      "salary_min": 140000.0, "salary_max": 165000.0,
                      "salary_currency": "USD"}
    assert dropped == ["company", "remote"]
    fields, dropped = checked({"title": "", "company": "", "location": "", "remote": None,
                               "salary_min": 1, "salary_max": None,
                               "salary_currency": "XYZ"}, TEXT)
    assert fields == {} and dropped == ["salary_min", "salary_currency"]


async def test_pasted_text_the_model_reads_wrongly_needs_the_user() -> None:
    async def ask(messages: list[dict], schema: dict) -> dict:
        assert messages[1]["content"].startswith("Senior Platform Engineer")
        return {"title": "Principal Wizard", "company": "Initrode", "location": "",
                "remote": None, "salary_min": None, "salary_max": None, "salary_currency": ""}

    with pytest.raises(SaveError, match="the model found no company or title the text holds"):
        await save.read_text(Pasted(TEXT), ask=ask)
    found = await save.read_text(Pasted(TEXT), ask=ask, company="Initech",
                                 title="Senior Platform Engineer")
    assert (found.posting.company, found.posting.title) == ("Initech",
                                                            "Senior Platform Engineer")
    assert found.unchecked == ["title", "company"]


def test_pasted_bytes() -> None:
    assert save.read_pasted(b"plain words").text == "plain words"
    html = save.read_pasted(b"<html><body><p>Hello</p><script>x()</script></body></html>")
    assert html.text == "Hello" and html.html is not None
    with pytest.raises(SaveError, match="larger than 2 MB"):
        save.read_pasted(b"x" * (save.MAX_TEXT_BYTES + 1))


async def test_a_pasted_page_listing_a_thousand_postings_is_refused() -> None:
    blocks = ",".join(f'{{"@type": "JobPosting", "title": "Job {i}"}}' for i in range(1000))
    pasted = save.read_pasted(f'<html><script type="application/ld+json">[{blocks}]'
                              '</script></html>'.encode())
    with pytest.raises(SaveError, match=r"the pasted page: .*more than 100") as raised:
        await save.read_text(pasted)
    assert raised.value.code == save.EXIT_FAILED


async def test_a_saved_posting_is_kept_through_grouping_and_saving_again(tmp_path: Path) -> None:
    db = tmp_path / "jobtracker.db"
    posting = NormalizedPosting(external_id="https://jobs.example/1", title="Baker",
                                company="Crumbs", location="Lyon", url="https://jobs.example/1",
                                description="We bake bread every morning at four. " * 5)
    first = await save.store_saved(db, posting, "2026-12-01T00:00:00Z")
    again = await save.store_saved(db, posting, "2026-12-02T00:00:00Z")
    assert (first.new, again.new, first.posting_id) == (True, False, again.posting_id)
    with raw_connect(db) as conn:
        conn.execute("UPDATE postings SET closed_at = '2026-12-02T00:00:00Z'")
    reopened = await save.store_saved(db, posting, "2026-12-03T00:00:00Z")
    with raw_connect(db) as conn:
        assert conn.execute("SELECT COUNT(*), MAX(closed_at IS NULL), MAX(job_open) "
                            "FROM postings").fetchone() == (1, 1, 1)
    assert reopened.posting_id == first.posting_id


async def test_a_recruitee_job_page_is_found_in_its_listing_by_its_page(
        server: BoardServer) -> None:
    api = server.set("/rc/offers", {"offers": [recruitee_offer(11, "Rails Engineer"),
                                               recruitee_offer(12, "Designer")]})
    found = await save.read_url("https://acme.recruitee.com/o/job-12?utm_source=x",
                                address=api)
    assert (found.posting.title, found.posting.location, found.origin) == (
        "Designer", "Amsterdam, Netherlands", "recruitee API")
    assert found.posting.external_id == "https://acme.recruitee.com/o/job-12"
    assert found.posting.description == "Our product.\n\n- Ruby"
    assert [r.path for r in server.requests] == ["/rc/offers"]
    with pytest.raises(SaveError, match="does not list"):
        await save.read_url("https://acme.recruitee.com/o/job-99", address=api)


async def test_a_job_alert_card_of_a_saved_job_is_the_same_job(tmp_path: Path) -> None:
    """The same job in a later LinkedIn alert joins the saved posting's group: one job."""
    db = tmp_path / "jobtracker.db"
    page = "https://www.linkedin.com/jobs/view/4317109784/"
    saved = await save.store_saved(db, NormalizedPosting(
        external_id=page, title="Backend Engineer", company="Acme GmbH", location="Berlin",
        url=page, description="We build the billing platform in Python. " * 6),
        "2026-12-01T08:00:00Z")
    card = NormalizedPosting(external_id="linkedin:4317109784", title="Backend Engineer",
                             company="Acme", location="Berlin, Germany", url=page,
                             description_source="alert")
    async with store.connect(db) as conn:
        async with store.write(conn):
            board_id = await ensure_board(conn, "alert", "linkedin", "LinkedIn",
                                          configured=True)
            async with groups.Grouping(conn).board(board_id, cards=True) as board:
                ids = await apply_alerts(conn, board, [(card, "2026-12-02T08:00:00Z")],
                                         "2026-12-02T08:00:00Z",
                                         BoardResult("alerts:linkedin", ""))
        row = await (await conn.execute("SELECT lead_id FROM postings WHERE id = ?",
                                        (ids["linkedin:4317109784"],))).fetchone()
    assert row[0] == saved.posting_id
