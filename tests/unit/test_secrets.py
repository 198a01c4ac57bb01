"""The Redactor: every credential jobtracker holds, in every form it may travel in."""

from __future__ import annotations

import base64
import random
import string
from urllib.parse import quote

import pytest

from jobtracker.secrets import (
    Redactor,
    display_url,
    has_userinfo,
    redact,
    strip_userinfo,
    url_credentials,
)

ALPHABET = string.ascii_letters + string.digits + "-._~+/=!$%*"


def generated_secrets(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(8, 64)))
            for _ in range(count)]


def forms(user: str, secret: str) -> list[str]:
    """Every way a server may echo a credential back."""
    pair = f"{user}:{secret}"
    return [secret, quote(secret, safe=""), pair,
            base64.b64encode(pair.encode()).decode(), base64.b64encode(secret.encode()).decode()]


def echoes(user: str, secret: str) -> list[str]:
    """Texts a hostile or chatty server might send, each holding one form."""
    b64 = base64.b64encode(f"{user}:{secret}".encode()).decode()
    return [f"Authorization: Bearer {secret}", f'{{"authorization": "Bearer {secret}"}}',
            f"got Basic {b64} which is wrong", f"user {user} password {secret}",
            f"http://{user}:{quote(secret, safe='')}@model.example/v1/chat/completions",
            f"GET /v1/models?api_key={quote(secret, safe='')}&x=1",
            f"bad credentials {user}:{secret}", f"echo {quote(secret, safe='')} end",
            f"token in b64 {base64.b64encode(secret.encode()).decode()}."]


@pytest.mark.parametrize("secret", generated_secrets(60, seed=14))
def test_a_known_credential_is_gone_in_every_form_wherever_it_is_cut(secret: str) -> None:
    user = "ada"
    redactor = Redactor.of(tokens=[secret], urls=[f"http://{user}:{quote(secret, safe='')}@h/v1"])
    for text in echoes(user, secret):
        padded = "x" * 97 + text + "y" * 50
        for limit in (20, 60, 110, 120, 200, len(padded)):
            out = redactor.cut(padded, limit)
            leaked = [f for f in forms(user, secret) if f in out]
            # And no long piece of it either: the cut comes after redaction.
            assert not leaked and secret[:12] not in out, (text, limit, out)


@pytest.mark.parametrize("secret", generated_secrets(30, seed=41))
def test_generic_shapes_are_caught_without_knowing_the_secret(secret: str) -> None:
    pair = base64.b64encode(f"me:{secret}".encode()).decode()
    texts = [f"Authorization: Bearer {secret}", f"Basic {pair}",
             f"https://me:{quote(secret, safe='')}@api.example/v1",
             f"https://boards.example/jobs.json?token={quote(secret, safe='')}",
             f"/feed.rss?a=1&api_key={quote(secret, safe='')}",
             f"/feed.rss?key={quote(secret, safe='')}#top", f'"api_key": "{secret[:20]}x"']
    for text in texts:
        out = redact(text)
        assert quote(secret, safe="") not in out and pair not in out, (text, out)
        assert "***" in out


def test_board_and_feed_urls_contribute_their_query_secrets() -> None:
    redactor = Redactor.of(urls=["https://b.example/jobs?token=tok-123456&page=2",
                                 "https://f.example/rss?client_secret=cs-abcdef&lang=en"])
    out = redactor("saw tok-123456 and cs-abcdef, also page 2 and lang en")
    assert "tok-123456" not in out and "cs-abcdef" not in out
    assert "page 2 and lang en" in out


def test_ordinary_text_is_left_alone() -> None:
    text = "HTTP 401: invalid model 'qwen3:8b' (see https://docs.example/errors?page=3)"
    assert Redactor.of(tokens=["s3cret-value"])(text) == text


def test_a_short_secret_is_not_searched_alone_but_its_forms_in_context_are() -> None:
    redactor = Redactor.of(urls=["http://me:pw@h/v1"])
    assert redactor("a pw b") == "a pw b"          # would blank ordinary words
    assert "pw" not in redactor("http://me:pw@h/v1").split("@")[0]
    assert base64.b64encode(b"me:pw").decode() not in redactor(
        f"Basic {base64.b64encode(b'me:pw').decode()}")


def test_url_helpers() -> None:
    url = "http://me:hunter2@127.0.0.1:9/v1?api_key=k-999&x=1"
    assert has_userinfo(url) and not has_userinfo("http://127.0.0.1:9/v1")
    assert strip_userinfo(url) == "http://127.0.0.1:9/v1?api_key=k-999&x=1"
    assert display_url(url) == "http://127.0.0.1:9/v1?api_key=***&x=1"
    assert sorted(url_credentials(url)) == ["hunter2", "k-999", "me:hunter2"]
    assert url_credentials("http://[::1") == []
