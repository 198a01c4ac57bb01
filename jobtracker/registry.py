"""The one registry idiom: a tuple of registrants, and a read-only lookup by name.

Every extension point (tasks, proposal kinds, board sources, alert senders, notify
channels, intake steps, the TUI's screens) is a `Registry` built from the tuple in its
package's `__init__.py`. The tuple is the only source of truth: the lookup is a
`types.MappingProxyType` built from it, so nothing can put an entry in the mapping
alone. Tests add a toy (or swap an entry) through `extended()`, the one way in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from types import MappingProxyType
from typing import Generic, Protocol, TypeVar


class Named(Protocol):
    @property
    def name(self) -> str: ...


T = TypeVar("T", bound=Named)


class Registry(Mapping[str, T], Generic[T]):
    """Name → registrant, read-only, in the order of the tuple it is built from."""

    def __init__(self, entries: tuple[T, ...]) -> None:
        self._set(entries)

    def _set(self, entries: tuple[T, ...]) -> None:
        by_name = {entry.name: entry for entry in entries}
        if len(by_name) != len(entries):
            raise ValueError(f"two registrants share a name in {[e.name for e in entries]}")
        self._entries = entries
        self._by_name: Mapping[str, T] = MappingProxyType(by_name)

    @property
    def entries(self) -> tuple[T, ...]:
        """The registrants, in their tuple's order."""
        return self._entries

    def __getitem__(self, name: str) -> T:
        return self._by_name[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_name)

    def __len__(self) -> int:
        return len(self._by_name)

    def first(self, test: Callable[[T], object]) -> T | None:
        """The first registrant, in tuple order, that `test` accepts."""
        return next((entry for entry in self._entries if test(entry)), None)

    @contextmanager
    def extended(self, *entries: T) -> Iterator[Registry[T]]:
        """For a test: these registrants added at the end (one sharing a name with a
        registered one takes its place), until the block ends."""
        before = self._entries
        swapped = {entry.name: entry for entry in entries}
        kept = tuple(swapped.pop(e.name) if e.name in swapped else e for e in before)
        self._set((*kept, *swapped.values()))
        try:
            yield self
        finally:
            self._set(before)
