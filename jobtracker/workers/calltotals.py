"""A run's model calls summed: prompt tokens, the share the server's cache served,
generated tokens and the speed it generated them at — the tail of the closing line.

A reporter like any other (fed `CallFinished` events), so the figures are those of
the calls the run made, whatever task made them.
"""

from __future__ import annotations

from dataclasses import dataclass

from jobtracker.workers.events import CallFinished, Event


@dataclass
class CallTotals:
    calls: int = 0
    prompt_tokens: int = 0
    generated_tokens: int = 0
    cached_tokens: int = 0
    cache_reported: int = 0         # prompt tokens of the calls whose server said what it cached
    call_seconds: float = 0.0       # round trips of the calls with generated tokens
    rated_tokens: int = 0           # generated tokens of the calls the server timed
    rated_seconds: float = 0.0      # ... and the time it says it took to generate them

    def emit(self, event: Event) -> None:
        if not isinstance(event, CallFinished):
            return
        self.calls += 1
        prompt, generated = event.input_tokens or 0, event.output_tokens or 0
        self.prompt_tokens += prompt
        self.generated_tokens += generated
        if event.cached_tokens is not None:
            self.cached_tokens += event.cached_tokens
            self.cache_reported += prompt
        if event.tokens_per_second and generated:
            self.rated_tokens += generated
            self.rated_seconds += generated / event.tokens_per_second
        elif event.seconds and generated:
            self.call_seconds += event.seconds

    @property
    def cached_share(self) -> float | None:
        """Cached prompt tokens over the prompt tokens of the calls that reported a cache."""
        return self.cached_tokens / self.cache_reported if self.cache_reported else None

    @property
    def tokens_per_second(self) -> float | None:
        """The server's own generation speed when it timed every call; otherwise generated
        tokens over the calls' round trips (which include reading the prompt)."""
        if self.rated_seconds and not self.call_seconds:
            return self.rated_tokens / self.rated_seconds
        seconds = self.rated_seconds + self.call_seconds
        return self.generated_tokens / seconds if seconds else None

    def describe(self) -> str:
        """`tokens: 12,345 prompt (87% cached), 678 generated, 41.2 tok/s`, or '' with no
        call. A figure the server did not give is left out."""
        if not self.calls:
            return ""
        parts = [f"{self.prompt_tokens:,} prompt"]
        if self.cached_share is not None:
            parts[0] += f" ({self.cached_share:.0%} cached)"
        parts.append(f"{self.generated_tokens:,} generated")
        if self.tokens_per_second is not None:
            parts.append(f"{self.tokens_per_second:.1f} tok/s")
        return "tokens: " + ", ".join(parts)
