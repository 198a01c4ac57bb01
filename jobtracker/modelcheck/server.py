"""What the model server says about itself: its context window and its tokenizer.

Each server family tells this its own way. llama.cpp: `GET /props` at the server's
root (not under /v1), `default_generation_settings.n_ctx`, the context of one slot.
vLLM: `max_model_len` on its `/v1/models` entries. Ollama: `POST /api/show` (the
model's trained `<arch>.context_length` and any `num_ctx` parameter) and, for a model
loaded now, `GET /api/ps` `context_length` — the context it really runs at, since
Ollama cuts longer prompts silently. llama.cpp and vLLM count tokens with
`POST /tokenize`; elsewhere prompts are estimated.

Everything here is untrusted: a negative, absurd or non-numeric context, a tokenizer
that errors or answers garbage, is reported as such, never believed.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import httpx

from jobtracker.llm.client import BodyTooLarge, fetch_json
from jobtracker.text import one_line

# A context window below this or above that is not believed (2^24: far beyond any model).
MIN_CONTEXT, MAX_CONTEXT = 256, 1 << 24
# Ollama ran every model at 2,048 tokens unless told otherwise (newer versions more);
# with no num_ctx and the model not loaded, the old default is assumed, because a
# prompt cut silently costs a whole night while a false alarm costs one setting.
OLLAMA_ASSUMED_DEFAULT = 2048
INSPECT_TIMEOUT = 10.0
INSPECT_BYTES = 4 * 1024 * 1024     # /props, /tokenize, /api/show: a few KB each
# Estimates: ~3.5 characters per token for English prose in the common BPE
# vocabularies, rounded towards more tokens; plus a few tokens of chat template a message.
CHARS_PER_TOKEN = 3.5
TEMPLATE_TOKENS_PER_MESSAGE = 8


@dataclass(frozen=True)
class ContextWindow:
    """The context a prompt and its answer must fit in, and where that came from."""

    tokens: int | None
    source: str                 # "llama.cpp GET /props", ..., or "unknown"
    note: str = ""              # why unknown, or what to know (Ollama's default)
    kind: str = "unknown"       # llama.cpp, vllm, ollama, unknown: who answered


def server_root(base: str) -> str:
    """`http://host:8080/v1` → `http://host:8080`: /props, /tokenize and /api live there."""
    url = httpx.URL(base)
    path = url.path.rstrip("/")
    path = path[: -len("/v1")] if path.endswith("/v1") else ""
    return str(url.copy_with(path=path or "/", query=None)).rstrip("/")


def plausible_context(value: Any) -> int | None:
    """An integer context window within bounds, else None (bools and floats are not)."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if MIN_CONTEXT <= value <= MAX_CONTEXT else None


def _shown(value: Any) -> str:
    return one_line(repr(value), 40)


async def _json(http: httpx.AsyncClient, method: str, url: str,
                headers: dict[str, str], body: Any = None) -> Any:
    """The JSON answer of one request, or None when there is none worth reading: within
    INSPECT_TIMEOUT in all (not per read) and INSPECT_BYTES, nested JSON refused."""
    try:
        _, answer = await fetch_json(http, method, url, headers=headers, body=body,
                                     timeout=INSPECT_TIMEOUT, limit=INSPECT_BYTES)
    except (httpx.HTTPError, httpx.InvalidURL, TimeoutError, BodyTooLarge, ValueError):
        return None
    return answer


async def context_window(http: httpx.AsyncClient, base: str, model: str,
                         headers: dict[str, str]) -> ContextWindow:
    """Ask llama.cpp, then vLLM, then Ollama; the first family that answers decides."""
    root = server_root(base)
    props = await _json(http, "GET", f"{root}/props", headers)
    if isinstance(props, dict) and ("default_generation_settings" in props or "n_ctx" in props):
        return _llama_cpp(props)
    listing = await _json(http, "GET", f"{base}/models", headers)
    entry = _listed_entry(listing, model)
    if entry is not None and "max_model_len" in entry:
        return _vllm(entry["max_model_len"])
    show = await _json(http, "POST", f"{root}/api/show", headers, {"model": model})
    if isinstance(show, dict) and ("model_info" in show or "parameters" in show):
        running = await _json(http, "GET", f"{root}/api/ps", headers)
        return _ollama(show, running, model)
    return ContextWindow(None, "unknown", "the server answers none of llama.cpp's /props, "
                                          "vLLM's max_model_len or Ollama's /api/show")


def _llama_cpp(props: dict[str, Any]) -> ContextWindow:
    settings = props.get("default_generation_settings")
    raw = settings.get("n_ctx") if isinstance(settings, dict) else props.get("n_ctx")
    tokens = plausible_context(raw)
    if tokens is None:
        return ContextWindow(None, "unknown", f"llama.cpp /props gave n_ctx {_shown(raw)}, "
                                              "not a plausible context", "llama.cpp")
    return ContextWindow(tokens, "llama.cpp GET /props", "per slot", "llama.cpp")


def _listed_entry(listing: Any, model: str) -> dict[str, Any] | None:
    if not isinstance(listing, dict) or not isinstance(listing.get("data"), list):
        return None
    for entry in listing["data"]:
        if isinstance(entry, dict) and entry.get("id") == model:
            return entry
    return None


def _vllm(raw: Any) -> ContextWindow:
    tokens = plausible_context(raw)
    if tokens is None:
        return ContextWindow(None, "unknown", f"vLLM max_model_len {_shown(raw)} is not a "
                                              "plausible context", "vllm")
    return ContextWindow(tokens, "vLLM max_model_len", "", "vllm")


_NUM_CTX = re.compile(r"^\s*num_ctx\s+(-?[0-9]+)\s*$", re.MULTILINE)
# More digits than any context has: int() of 5,000 digits raises (Python's digit limit).
_CONTEXT_DIGITS = 12


def _ollama(show: dict[str, Any], running: Any, model: str) -> ContextWindow:
    info = show.get("model_info") if isinstance(show.get("model_info"), dict) else {}
    trained = next((plausible_context(v) for k, v in info.items()
                    if str(k).endswith(".context_length")), None)
    supports = f"; the model supports {trained:,}" if trained else ""
    loaded = _running_context(running, model)
    if loaded is not None:
        return ContextWindow(loaded, "Ollama GET /api/ps", f"as loaded now{supports}", "ollama")
    params = show.get("parameters")
    found = _NUM_CTX.search(params) if isinstance(params, str) else None
    if found is not None:
        digits = found.group(1)
        tokens = plausible_context(int(digits)) if len(digits) <= _CONTEXT_DIGITS else None
        if tokens is None:
            return ContextWindow(None, "unknown", f"Ollama num_ctx {one_line(digits, 20)} is "
                                                  "not a plausible context", "ollama")
        return ContextWindow(tokens, "Ollama POST /api/show num_ctx", supports.lstrip("; "),
                             "ollama")
    context = min(OLLAMA_ASSUMED_DEFAULT, trained or OLLAMA_ASSUMED_DEFAULT)
    return ContextWindow(context, "Ollama default (assumed)",
                         f"no num_ctx set{supports}: Ollama cuts longer prompts silently; "
                         "set num_ctx (Modelfile) or OLLAMA_CONTEXT_LENGTH", "ollama")


def _running_context(running: Any, model: str) -> int | None:
    if not isinstance(running, dict) or not isinstance(running.get("models"), list):
        return None
    names = {model, f"{model}:latest"}
    for entry in running["models"]:
        if isinstance(entry, dict) and (entry.get("name") in names or
                                        entry.get("model") in names):
            return plausible_context(entry.get("context_length"))
    return None


# --- counting tokens ----------------------------------------------------------------

def estimate_tokens(messages: list[dict[str, str]]) -> int:
    """A deliberately generous count for servers without a tokenizer endpoint."""
    chars = sum(len(m.get("content", "")) for m in messages)
    return math.ceil(chars / CHARS_PER_TOKEN) + TEMPLATE_TOKENS_PER_MESSAGE * len(messages)


class TokenizerError(Exception):
    """The server's tokenizer failed or answered something not believable."""


class Tokenizer:
    """Counts a chat prompt's tokens the way the server will see it, where it can."""

    def __init__(self, http: httpx.AsyncClient, base: str, model: str, kind: str,
                 headers: dict[str, str]) -> None:
        self._http, self._root, self._model = http, server_root(base), model
        self._headers = headers
        self.kind = kind
        self.available = kind in ("llama.cpp", "vllm")
        self.problem: str | None = None      # the first tokenizer failure, for the report

    async def count(self, messages: list[dict[str, str]]) -> tuple[int, bool]:
        """(tokens, estimated). A failing tokenizer is remembered and estimated around."""
        if self.available:
            try:
                return await self._server_count(messages), False
            except TokenizerError as exc:
                self.available = False
                self.problem = str(exc)
        return estimate_tokens(messages), True

    async def _server_count(self, messages: list[dict[str, str]]) -> int:
        chars = sum(len(m.get("content", "")) for m in messages)
        if self.kind == "vllm":
            # vLLM applies the model's chat template itself for the messages form.
            body: dict[str, Any] = {"model": self._model, "messages": messages}
        else:
            body = {"content": await self._templated(messages)}
        answer = await _json(self._http, "POST", f"{self._root}/tokenize", self._headers, body)
        tokens = answer.get("tokens") if isinstance(answer, dict) else None
        count = answer.get("count") if isinstance(answer, dict) else None
        n = len(tokens) if isinstance(tokens, list) else count
        if isinstance(n, bool) or not isinstance(n, int):
            raise TokenizerError("the server's /tokenize gave no token list")
        # A token is at least a byte of text and rarely more than a few dozen characters.
        if n <= 0 or n > chars + 64 * len(messages) + 64 or n * 64 < chars:
            raise TokenizerError(f"the server's /tokenize counted {n} tokens for "
                                 f"{chars} characters")
        return n

    async def _templated(self, messages: list[dict[str, str]]) -> str:
        """The prompt after llama.cpp's chat template (`POST /apply-template`), else the
        messages joined: the template adds only a few tokens a message."""
        answer = await _json(self._http, "POST", f"{self._root}/apply-template",
                             self._headers, {"messages": messages})
        prompt = answer.get("prompt") if isinstance(answer, dict) else None
        if isinstance(prompt, str) and prompt:
            return prompt
        return "\n".join(m.get("content", "") for m in messages)
