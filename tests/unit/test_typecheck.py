"""The type checker's baseline only shrinks.

pyproject.toml runs mypy strict over jobtracker and tui; the modules that did not yet
check clean when mypy came in are listed in one override with ``ignore_errors``. This
file pins that list: a module may leave it (delete it here too), none may join it, and
no other override may loosen a jobtracker or tui module.
"""

from __future__ import annotations

import tomllib
from importlib.util import find_spec
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"

# The modules not yet strict. Shrink this with the pyproject list; never grow it.
NOT_YET_STRICT = frozenset({
    "jobtracker.alerts.base",
    "jobtracker.applications",
    "jobtracker.demo",
    "jobtracker.interviews.ics",
    "jobtracker.interviews.when",
    "jobtracker.llm.client",
    "jobtracker.mail.imap.session",
    "jobtracker.mail.imap.sync",
    "jobtracker.mail.link",
    "jobtracker.modelcheck",
    "jobtracker.modelcheck.server",
    "jobtracker.postings.download",
    "jobtracker.postings.fetch",
    "jobtracker.postings.groups",
    "jobtracker.postings.upsert",
    "jobtracker.prepare.run",
    "jobtracker.proposals.interview",
    "jobtracker.proposals.resume_edit",
    "jobtracker.proposals.status",
    "jobtracker.proposals.written",
    "jobtracker.ranking.matches",
    "jobtracker.ranking.prerank",
    "jobtracker.ranking.scoring",
    "jobtracker.render.markdown",
    "jobtracker.render.word",
    "jobtracker.run.run",
    "jobtracker.sources.ashby",
    "jobtracker.sources.base",
    "jobtracker.sources.listfile",
    "jobtracker.sources.personio",
    "jobtracker.sources.safexml",
    "jobtracker.tasks.judge",
    "jobtracker.tasks.level",
    "jobtracker.tracker.overview",
    "jobtracker.yamlfile",
    "jobtracker.yamlfile.edit",
    "tui.commands",
    "tui.data",
    "tui.screens.applications",
    "tui.screens.confirm",
    "tui.screens.dashboard",
    "tui.screens.dismiss",
    "tui.screens.help",
    "tui.screens.listed",
    "tui.screens.matches",
    "tui.screens.packet",
    "tui.screens.review",
    "tui.screens.status_picker",
    "tui.screens.table_detail",
    "tui.widgets.inflight",
})

# Settings a per-module override may not set on the project's own modules: each one
# switches a strict check off (or every check, for ignore_errors).
LOOSENING = {
    "ignore_errors", "disallow_untyped_defs", "disallow_incomplete_defs",
    "disallow_any_generics", "check_untyped_defs", "warn_return_any",
    "disallow_untyped_calls", "disallow_untyped_decorators", "strict_equality",
    "disable_error_code", "follow_imports", "ignore_missing_imports",
}


def _mypy() -> dict:
    return tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["mypy"]


def _own(module: str) -> bool:
    return module.split(".")[0] in {"jobtracker", "tui"}


def _listed(override: dict) -> list[str]:
    module = override["module"]
    return [module] if isinstance(module, str) else list(module)


def test_mypy_is_strict_over_both_packages() -> None:
    config = _mypy()
    assert config["strict"] is True
    assert set(config["files"]) == {"jobtracker", "tui"}


def test_the_not_yet_strict_list_only_shrinks() -> None:
    baseline = [o for o in _mypy()["overrides"] if o.get("ignore_errors")]
    assert len(baseline) == 1, "one baseline override, no second one"
    listed = _listed(baseline[0])
    assert len(listed) == len(set(listed)), "a module listed twice"
    added = set(listed) - NOT_YET_STRICT
    assert not added, f"modules added to mypy's not-yet-strict list: {sorted(added)}"
    assert all(_own(m) and "*" not in m for m in listed), "the baseline names modules, no globs"


def test_no_other_override_loosens_a_module_of_ours() -> None:
    for override in _mypy()["overrides"]:
        if override.get("ignore_errors"):
            continue
        ours = [m for m in _listed(override) if _own(m)]
        loosened = LOOSENING & set(override)
        assert not (ours and loosened), f"{ours} loosened by {sorted(loosened)}"


def test_every_listed_module_still_exists() -> None:
    # A module renamed or removed leaves the list with it, so the list says what is left.
    gone = sorted(m for m in NOT_YET_STRICT if find_spec(m) is None)
    assert not gone, f"listed but gone (take them off both lists): {gone}"
