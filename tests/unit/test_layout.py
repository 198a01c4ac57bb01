"""Tests by room: the test of `jobtracker/X/y.py` is found by its name.

The scheme (tests/README.md): a module's tests live in a file named after its path
under jobtracker/, the folders joined by `_` — `jobtracker/postings/samejob.py` →
`test_postings_samejob.py`, `jobtracker/config.py` → `test_config.py`, a package's
`__init__.py` → `test_<package>.py` — optionally followed by `_<aspect>` when one
module has several (`test_store_hostile.py`), in whichever tier folder the tests
need (tests/unit, tests/integration, tests/imap, tests/realmodel). A module needs
such a file unless it is in NEEDS_NONE, which says why.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "jobtracker"
# tests/tui tests the tui package, tests/perf holds benchmarks, not tests.
TIERS = ("unit", "integration", "imap", "realmodel")

# Modules with nothing of their own to test, and why. Keep it short: a module with
# behaviour gets a test file.
NEEDS_NONE = {
    "jobtracker/__init__.py": "the package's docstring",
    "jobtracker/__main__.py": "`python -m jobtracker` calls cli.main, tested through it",
    "jobtracker/cli/__init__.py": "the package's docstring and a lazy main()",
    "jobtracker/contacts/__init__.py": "the room's docstring",
    "jobtracker/learning/__init__.py": "the room's docstring",
    "jobtracker/llm/__init__.py": "the room's docstring",
    "jobtracker/mail/__init__.py": "the room's docstring",
    "jobtracker/mail/imap/errors.py": "one exception class",
    "jobtracker/modelcheck/__init__.py": "the room's docstring and its public names",
    "jobtracker/modelcheck/adapter.py": "one call into the task API a function, each run by "
                                        "every model-check test",
    "jobtracker/notify/__init__.py": "the room's docstring",
    "jobtracker/postings/__init__.py": "the room's docstring",
    "jobtracker/prepare/__init__.py": "the room's docstring",
    "jobtracker/ranking/__init__.py": "the room's docstring",
    "jobtracker/settings/__init__.py": "the room's docstring",
    "jobtracker/run/exits.py": "the exit codes, constants that every command test reads",
    "jobtracker/runner.py": "jobtracker.run under its older name (tests/unit/test_run.py)",
    "jobtracker/store/migrations/__init__.py": "a data package: the migrations' folder",
    "jobtracker/templates/__init__.py": "a data package: init's templates",
    "jobtracker/tracker/__init__.py": "the room's docstring",
    "jobtracker/tracker/store.py": "one short connection around each tracker call, for the "
                                   "TUI (tests/tui/test_tracker_screen.py drives them)",
    "jobtracker/workers/__init__.py": "the package's docstring and its public names",
    "jobtracker/workers/job.py": "what a job is: protocols, a status enum, an outcome record",
}


# Not yet named: modules whose tests exist but sit in a file named after another
# module (the rooms that landed with their tests written end to end), and that file.
# A debt to pay by splitting those files; the list only shrinks: a module added here
# needs a reason, and one whose own file appears must come off.
NOT_YET_NAMED = {
    "jobtracker/cli/notify.py": "tests/integration/test_notify_digest.py",
    "jobtracker/credentials.py": "tests/integration/test_notify_digest.py",
    "jobtracker/interviews/ics.py": "tests/integration/test_interviews.py",
    "jobtracker/interviews/store.py": "tests/integration/test_interviews.py",
    "jobtracker/channels/http.py": "tests/integration/test_notify_digest.py",
    "jobtracker/channels/ntfy.py": "tests/integration/test_notify_digest.py",
    "jobtracker/channels/smtp.py": "tests/integration/test_notify_digest.py",
    "jobtracker/channels/webhook.py": "tests/integration/test_notify_digest.py",
    "jobtracker/notify/archive.py": "tests/integration/test_notify_digest.py",
    "jobtracker/notify/message.py": "tests/integration/test_notify_digest.py",
    "jobtracker/notify/record.py": "tests/integration/test_notify_digest.py",
    "jobtracker/notify/send.py": "tests/integration/test_notify_digest.py",
    "jobtracker/proposals/interview.py": "tests/integration/test_interviews.py",
    "jobtracker/tasks/inbox/scheduling.py": "tests/integration/test_interviews.py",
    "jobtracker/alerts/base.py": "tests/unit/test_alerts.py",
    "jobtracker/alerts/glassdoor.py": "tests/unit/test_alerts.py",
    "jobtracker/alerts/google.py": "tests/unit/test_alerts.py",
    "jobtracker/alerts/html.py": "tests/unit/test_alerts.py",
    "jobtracker/alerts/indeed.py": "tests/unit/test_alerts.py",
    "jobtracker/alerts/linkedin.py": "tests/unit/test_alerts.py",
    "jobtracker/alerts/plain.py": "tests/unit/test_alerts.py",
    "jobtracker/alerts/wellfound.py": "tests/unit/test_alerts.py",
    "jobtracker/alerts/wttj.py": "tests/unit/test_alerts.py",
    "jobtracker/alerts/ziprecruiter.py": "tests/unit/test_alerts.py",
    "jobtracker/postings/results.py": "tests/integration/test_postings_fetch.py",
    "jobtracker/prepare/refresh.py": "tests/integration/test_prepare_documents.py",
    "jobtracker/proposals/answer.py": "tests/unit/test_tasks_answer.py",
    "jobtracker/proposals/source.py": "tests/integration/test_postings_probe.py",
    "jobtracker/render/__init__.py": "tests/unit/test_render_build.py",
    "jobtracker/render/document.py": "tests/unit/test_render_build.py",
    "jobtracker/render/markdown.py": "tests/unit/test_render_build.py",
    "jobtracker/render/pdf.py": "tests/unit/test_render_build.py",
    "jobtracker/render/themes.py": "tests/unit/test_render_build.py",
    "jobtracker/render/word.py": "tests/unit/test_render_build.py",
}


def module_name(path: Path) -> str:
    """`jobtracker/mail/imap/sync.py` → `mail_imap_sync`; a package's `__init__.py` →
    the package (`mail_imap`)."""
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return "_".join(parts)


def children(path: Path) -> set[str]:
    """The names of a package's own modules and subpackages (for its `__init__.py`)."""
    if path.name != "__init__.py":
        return set()
    folder = path.parent
    return {p.stem for p in folder.glob("*.py") if p.name != "__init__.py"} | {
        p.name for p in folder.iterdir() if (p / "__init__.py").is_file()}


def collected_test_files() -> list[str]:
    return sorted(p.stem for tier in TIERS for p in (ROOT / "tests" / tier).rglob("test_*.py"))


def named_after(path: Path, stems: list[str]) -> list[str]:
    """The test files named after the module at `path`. For a package, a file named
    after one of its children (`test_tasks_level`) is that child's, not the package's."""
    base = f"test_{module_name(path)}"
    found = []
    for stem in stems:
        if stem == base:
            found.append(stem)
        elif stem.startswith(base + "_"):
            rest = stem[len(base) + 1:]
            if not any(rest == child or rest.startswith(child + "_")
                       for child in children(path)):
                found.append(stem)
    return found


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_every_module_has_a_test_file_named_after_it() -> None:
    stems = collected_test_files()
    missing = [str(path.relative_to(ROOT)) for path in modules()
               if str(path.relative_to(ROOT)) not in {**NEEDS_NONE, **NOT_YET_NAMED}
               and not named_after(path, stems)]
    assert missing == [], (
        "modules with no test file named after them (tests/README.md; or, when there is "
        f"nothing to test, NEEDS_NONE with the reason): {missing}")


def test_the_allow_list_names_only_modules_that_exist_and_have_no_tests() -> None:
    stems = collected_test_files()
    for name in NEEDS_NONE:
        path = ROOT / name
        assert path.is_file(), f"{name} is in NEEDS_NONE but does not exist"
        assert not named_after(path, stems), f"{name} has tests now: take it off NEEDS_NONE"


def test_the_not_yet_named_point_at_real_tests_and_come_off_once_named() -> None:
    stems = collected_test_files()
    for name, tests in NOT_YET_NAMED.items():
        assert (ROOT / name).is_file(), f"{name} is in NOT_YET_NAMED but does not exist"
        assert (ROOT / tests).is_file(), f"{name}: its tests, {tests}, do not exist"
        assert not named_after(ROOT / name, stems), (
            f"{name} has a test file named after it now: take it off NOT_YET_NAMED")


def test_the_names_are_read_as_the_scheme_says() -> None:
    stems = ["test_tasks_level", "test_tasks_toy", "test_run_run_pipeline", "test_config",
             "test_store_hostile", "test_mail_imap_dovecot", "test_mail_imap_sync_x"]
    assert named_after(PACKAGE / "tasks" / "level.py", stems) == ["test_tasks_level"]
    assert named_after(PACKAGE / "tasks" / "__init__.py", stems) == ["test_tasks_toy"]
    assert named_after(PACKAGE / "run" / "run.py", stems) == ["test_run_run_pipeline"]
    assert named_after(PACKAGE / "run" / "__init__.py", stems) == []
    assert named_after(PACKAGE / "store" / "__init__.py", stems) == ["test_store_hostile"]
    assert named_after(PACKAGE / "mail" / "imap" / "__init__.py", stems) == [
        "test_mail_imap_dovecot"]
    assert named_after(PACKAGE / "config.py", stems) == ["test_config"]
