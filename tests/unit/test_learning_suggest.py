"""jobtracker.learning.suggest: which decisions make which profile suggestion."""

from __future__ import annotations

from jobtracker.config import Profile
from jobtracker.learning.suggest import MIN_DECISIONS, Applied, Dismissal, suggestions
from jobtracker.yamlfile.edit import Edit

PROFILE = Profile(levels=("senior", "staff"), exclude=("crypto",),
                  weights={"fit": 1.0, "location": 0.2, "salary": 0.1})


def dismissals(reason: str, titles: list[str], company: str = "Co") -> list[Dismissal]:
    return [Dismissal(i + 1, 100 + i, reason, f"{company}{i}", t) for i, t in enumerate(titles)]


def edits(found: list) -> list[Edit]:
    return [s.edit for s in found]


def test_a_title_word_shared_by_most_dismissals_for_one_reason_becomes_an_exclude() -> None:
    titles = [f"Principal Sales Engineer {i}" for i in range(7)] + ["Backend Dev", "SRE"]
    found = suggestions(PROFILE, dismissals("role", titles), [])
    assert edits(found) == [Edit("append", ("exclude",), "principal"),
                            Edit("append", ("exclude",), "sales")]
    assert found[0].evidence == "7 of 9 dismissals for `role` had 'principal' in the title"
    assert [d["posting_id"] for d in found[0].decisions] == list(range(100, 107))


def test_nothing_is_suggested_on_fewer_than_five_decisions() -> None:
    titles = ["Sales Engineer"] * (MIN_DECISIONS - 1)
    assert suggestions(PROFILE, dismissals("role", titles), []) == []
    assert suggestions(PROFILE, dismissals("role", [*titles, "Sales Lead"]), []) != []


def test_a_word_in_the_title_of_something_the_user_applied_to_is_not_excluded() -> None:
    applied = [Applied(1, 9, "Acme", "Sales Engineer, Platform", "senior")]
    assert suggestions(PROFILE, dismissals("role", ["Sales Engineer"] * 6), applied) == []


def test_a_dismissed_level_the_profile_asks_for_is_a_level_removed_not_an_exclude() -> None:
    found = suggestions(PROFILE, dismissals("level", ["Staff Engineer"] * 6), [])
    assert edits(found) == [Edit("remove", ("levels",), "staff")]
    only_staff = Profile(levels=("staff",))
    assert suggestions(only_staff, dismissals("level", ["Staff Engineer"] * 6), []) == []


def test_one_company_dismissed_again_and_again_becomes_a_company_filter() -> None:
    items = [Dismissal(i, i, "company" if i < 6 else "salary", "Staffing Co", f"Job {i}")
             for i in range(8)]
    found = suggestions(PROFILE, items, [])
    (company,) = [s for s in found if s.rule == "company"]
    assert company.edit == Edit("append", ("filters", "companies"),
                                {"name": "Staffing Co", "reason": "company"})
    assert company.evidence == "you dismissed 8 of Staffing Co's postings, 6 for `company`"
    assert len(company.decisions) == 6
    mixed = [Dismissal(i, i, ("company", "salary", "role")[i % 3], "Mixed", "Job")
             for i in range(9)]
    assert [s for s in suggestions(PROFILE, mixed, []) if s.rule == "company"] == []
    assert suggestions(PROFILE, items, [], filtered_companies=["staffing co"]) == [
        s for s in found if s.rule != "company"]


def test_dismissals_mostly_for_location_move_the_location_weight_up() -> None:
    items = dismissals("location", [f"Job {i}" for i in range(6)]) + \
        dismissals("other", ["X", "Y"])
    found = [s for s in suggestions(PROFILE, items, []) if s.rule == "weight"]
    assert edits(found) == [Edit("set", ("weights", "location"), 0.3)]
    assert "6 of 8 dismissals were for `location`" in found[0].evidence


def test_applications_at_a_level_the_profile_leaves_out_suggest_adding_it() -> None:
    applied = [Applied(i, i, "Co", f"Engineer {i}", "mid") for i in range(5)]
    found = suggestions(PROFILE, [], applied)
    assert edits(found) == [Edit("append", ("levels",), "mid")]
    assert found[0].decisions[0] == {"type": "application", "id": 0, "posting_id": 0}
