"""What one board's (or one alert sender's) part of a fetch did, for the lines a fetch prints."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class BoardResult:
    """What one board's fetch did. `error` is set when it failed (nothing was closed)."""

    name: str
    url: str
    new: int = 0
    updated: int = 0
    reopened: int = 0        # also counted in `updated`
    closed: int = 0
    unchanged: int = 0
    skipped: int = 0         # items in the response that could not be read
    error: str | None = None
    not_modified: bool = False
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.error is None


__all__ = ["BoardResult"]
