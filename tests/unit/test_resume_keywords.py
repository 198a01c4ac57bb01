"""keywords.yaml: terms from any nesting, and the line of bad YAML."""

from __future__ import annotations

import pytest

from jobtracker.resume.keywords import KeywordsError, keyword_terms


def test_keyword_terms_from_any_nesting() -> None:
    assert keyword_terms("keywords: [python, postgresql, kubernetes]\n") == [
        "python", "postgresql", "kubernetes"]
    assert keyword_terms("languages: [Go, 'C++']\ntools:\n  cloud: [AWS]\n  db: sqlite\n") == [
        "Go", "C++", "AWS", "sqlite"]
    assert keyword_terms(None) == [] and keyword_terms("# only a comment\n") == []


def test_keyword_terms_name_the_line_of_bad_yaml() -> None:
    with pytest.raises(KeywordsError, match=r"keywords.yaml: line 2: invalid YAML"):
        keyword_terms("keywords: [python,\n  : oops: ]\n")
