"""Files jobtracker writes: slugs, and atomic writes that never leave half a file."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobtracker.files import slug, write_atomic


@pytest.mark.parametrize(("parts", "expected"), [
    (("Acme", "Senior Engineer"), "acme-senior-engineer"),
    (("Zürich Labs", "Sr. Engineer (Payments) / API"), "zurich-labs-sr-engineer-payments-api"),
    (("../../etc", "passwd"), "etc-passwd"),
    (("", None), "posting"),
    (("日本",), "posting"),
])
def test_slug(parts: tuple[str | None, ...], expected: str) -> None:
    assert slug(*parts) == expected


def test_slug_is_bounded() -> None:
    assert len(slug("a" * 50, "b" * 50)) <= 60


def test_write_atomic_replaces_the_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "tailored" / "1-acme.md"
    write_atomic(target, "first\n")
    write_atomic(target, "second\n")
    assert target.read_text(encoding="utf-8") == "second\n"
    assert [p.name for p in target.parent.iterdir()] == ["1-acme.md"]


def test_write_atomic_failure_keeps_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "1-acme.md"
    write_atomic(target, "old\n")
    with pytest.raises(UnicodeEncodeError):
        write_atomic(target, "new \ud800 text")      # cannot be encoded: fails mid-write
    assert target.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["1-acme.md"]
