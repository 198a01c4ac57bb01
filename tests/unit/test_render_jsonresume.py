"""JSON Resume → resume Markdown (jobtracker/render/jsonresume.py) keeps what real
resume.json files hold: lists typed inside texts, the pre-1.0 keys, dates in the
resume's own words, degrees that read as English, the country of a place with no
city; and reads JSON only as deep and as long as a resume is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jobtracker.render import jsonresume, markdown
from jobtracker.render.document import ListBlock, Paragraph, plain
from jobtracker.render.settings import LONG, DateStyle

REAL = Path(__file__).parents[1] / "fixtures" / "real" / "resumes"


def real(name: str) -> jsonresume.Imported:
    return jsonresume.import_text((REAL / name).read_text())


def lists(text: str) -> list[list[str]]:
    """Each list of the Markdown (top level), as its items' text."""
    return [[plain(item.spans) for item in block.items]
            for block in markdown.read(text).blocks if isinstance(block, ListBlock)]


# --- lists typed inside texts -----------------------------------------------------------

def test_a_list_inside_a_summary_becomes_a_list() -> None:
    data = {"basics": {"name": "Ada"}, "work": [{
        "name": "Engines", "summary": "Led the team.\n- Built the mill\n- Wrote the notes\n\n"
                                      "Then:\n1. planned\n2. shipped"}]}
    text = jsonresume.to_markdown(data)
    assert lists(text) == [["Built the mill", "Wrote the notes"], ["planned", "shipped"]]
    paragraphs = [plain(b.spans) for b in markdown.read(text).blocks
                  if isinstance(b, Paragraph)]
    assert "Led the team." in paragraphs and "Then:" in paragraphs


def test_a_list_inside_a_project_description_and_bullet_characters() -> None:
    data = {"projects": [{"name": "Mill", "description": "What:\n• gears\n• cards"}]}
    assert lists(jsonresume.to_markdown(data)) == [["gears", "cards"]]


def test_a_highlight_with_a_list_inside_is_a_bullet_with_nested_bullets() -> None:
    data = {"work": [{"name": "Engines", "highlights": [
        "Shipped the mill:\n- gears\n- cards", "Wrote notes", "1. Not a list"]}]}
    (block,) = [b for b in markdown.read(jsonresume.to_markdown(data)).blocks
                if isinstance(b, ListBlock)]
    assert [plain(i.spans) for i in block.items] == ["Shipped the mill:", "Wrote notes",
                                                     "1. Not a list"]
    (nested,) = block.items[0].blocks
    assert isinstance(nested, ListBlock)
    assert [plain(i.spans) for i in nested.items] == ["gears", "cards"]


def test_a_paragraphs_line_breaks_are_spaces() -> None:
    imported = real("coach-fr.json")
    assert ("J'aide l'équipe à travailler sur la compréhension du besoin des utilisateurs, "
            "à faire des choix techniques. J'ai également") in imported.markdown


# --- the pre-1.0 schema -----------------------------------------------------------------

def test_website_company_and_gpa_are_read_and_said() -> None:
    imported = real("pre1-architect-en.json")
    assert imported.legacy == {"basics.website": "url", "work[].company": "name",
                               "work[].website": "url"}
    assert imported.legacy_line() == ("read keys of the pre-1.0 JSON Resume schema: "
                                      "basics.website (as url), work[].company (as name), "
                                      "work[].website (as url)")
    doc = markdown.read(imported.markdown)
    assert "sam-sample.example" in doc.contact_details
    assert "### Cinch Financial — Senior Engineer (Consumer Tech Lead) " \
           "([cinchfinancial.com](https://cinchfinancial.com/)) (Nov 2016 – Sep 2018)" \
        in imported.markdown
    assert real("official-sample.json").legacy == {}


# --- dates in the resume's words ---------------------------------------------------------

def test_dates_read_as_the_resume_says_them() -> None:
    text = real("official-sample.json").markdown
    assert "(Dec 2013 – Dec 2014)" in text          # Pied Piper
    assert "(Jun 2011 – Jan 2014)" in text          # the university
    assert "(Aug 2016)" in text                     # a project that began and ended that day
    assert "(Nov 2014)" in text                     # an award's date
    assert "2013-12-01" not in text and " to 20" not in text and "to now" not in text


def test_an_entry_with_no_end_is_present_and_the_style_is_configurable() -> None:
    data = {"work": [{"name": "Engines", "startDate": "2011-06-01"},
                     {"name": "Mill", "startDate": "2009", "endDate": "Summer 2010"}]}
    assert "(Jun 2011 – present)" in jsonresume.to_markdown(data)
    assert "(2009 – Summer 2010)" in jsonresume.to_markdown(data), "unknown shapes as written"
    french = DateStyle(("janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août",
                        "sept.", "oct.", "nov.", "déc."), "aujourd'hui")
    assert "(juin 2011 – aujourd'hui)" in jsonresume.to_markdown(data, french)
    assert "(June 2011 – present)" in jsonresume.to_markdown(data, DateStyle(LONG))
    assert "(06/2011 – present)" in jsonresume.to_markdown(data, DateStyle(()))


# --- degrees and places ------------------------------------------------------------------

def test_a_degree_reads_as_its_type_in_its_area() -> None:
    text = real("official-sample.json").markdown
    assert "University of Oklahoma — Bachelor in Information Technology" in text
    french = real("coach-fr.json").markdown
    assert "Insa Rennes — Diplôme d'ingénieur en informatique (" in french, \
        "an area the type already names is not said twice"


def test_a_place_with_no_city_still_gives_its_country() -> None:
    assert markdown.read(real("coach-fr.json").markdown).contact_details[2] == "FR"
    data = {"basics": {"name": "Ada", "location": {"address": "12 Rue X, 75001 Paris, France"}}}
    assert "France" in markdown.read(jsonresume.to_markdown(data)).contact_details


# --- bounded reading ---------------------------------------------------------------------

def test_json_nested_deeper_than_a_resume_is_one_line_error() -> None:
    deep = '{"basics": {"name": "x"}, "work": [' + "[" * 50 + "]" * 50 + "]}"
    with pytest.raises(jsonresume.ResumeImportError, match=r"^nested deeper than a resume"):
        jsonresume.import_text(deep)
    with pytest.raises(jsonresume.ResumeImportError, match=r"^nested deeper"):
        jsonresume.import_text("[" * 100_000 + "]" * 100_000)


def test_a_number_longer_than_a_resume_has_is_one_line_error_naming_its_line() -> None:
    text = '{\n "basics": {"name": "Ada"},\n "work": [],\n "x": ' + "7" * 100_000 + "\n}"
    with pytest.raises(jsonresume.ResumeImportError,
                       match=r"^line 4: a number of 100,000 characters"):
        jsonresume.import_text(text)
    assert jsonresume.load('{"score": 4.0, "year": 2014}') == {"score": 4.0, "year": 2014}


@pytest.mark.parametrize("name", ["official-sample.json", "pre1-architect-en.json",
                                  "coach-fr.json", "fullstack-de.json", "frontend-zh.json",
                                  "typed-lists.json"])
def test_every_real_resume_imports_with_each_section_and_its_entries(name: str) -> None:
    data = json.loads((REAL / name).read_text())
    doc = markdown.read(jsonresume.import_text((REAL / name).read_text()).markdown)
    headings = [plain(b.spans) for b in doc.blocks if hasattr(b, "level") and b.level == 2]
    for key, heading in (("work", "Experience"), ("projects", "Projects"),
                         ("education", "Education"), ("skills", "Skills"),
                         ("languages", "Languages"), ("awards", "Awards")):
        assert (heading in headings) == bool(data.get(key)), (name, key)
    entries = [b for b in doc.blocks if hasattr(b, "level") and b.level == 3]
    assert len(entries) == sum(len(data.get(k) or []) for k in
                               ("work", "volunteer", "projects", "education", "awards",
                                "certificates", "publications"))


def test_real_bullet_lists_typed_in_summaries_become_lists() -> None:
    imported = real("typed-lists.json")
    found = lists(imported.markdown)
    assert [len(items) for items in found] == [3, 3, 2]
    assert found[1][2] == ("Integrated Gemini API for personalized recommendations based on "
                           "user skills and resources.")
    assert found[0][0].startswith("Built REST APIs in Go") and "•" not in imported.markdown
