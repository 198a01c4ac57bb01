"""What the model server says about itself: where its own endpoints live, and the
prompt-size estimate for a server with no tokenizer."""

from __future__ import annotations

import pytest

from jobtracker.modelcheck.server import estimate_tokens, server_root


@pytest.mark.parametrize(("base", "root"), [
    ("http://gpu:8080/v1", "http://gpu:8080"),
    ("http://gpu:8080/v1/", "http://gpu:8080"),
    ("https://proxy.example/llama/v1", "https://proxy.example/llama"),
    ("http://gpu:4000/openai", "http://gpu:4000"),
])
def test_props_and_tokenize_live_at_the_server_root(base: str, root: str) -> None:
    assert server_root(base) == root


def test_the_estimate_errs_towards_more_tokens() -> None:
    messages = [{"role": "system", "content": "x" * 350}, {"role": "user", "content": ""}]
    assert estimate_tokens(messages) == 100 + 16
