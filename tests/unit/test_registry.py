"""The one registry idiom (jobtracker/registry.py): a tuple, a read-only lookup built
from it, and `extended()` as the only way a test adds or swaps an entry."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from jobtracker import alerts, intake, proposals, sources, tasks
from jobtracker.registry import Registry


@dataclass(frozen=True)
class Entry:
    name: str
    value: int = 0


def test_the_lookup_is_built_from_the_tuple_in_its_order() -> None:
    registry = Registry((Entry("b"), Entry("a")))
    assert list(registry) == ["b", "a"]
    assert registry["a"] == Entry("a") and "c" not in registry
    assert registry.entries == (Entry("b"), Entry("a"))


@pytest.mark.parametrize("registry", [tasks.REGISTRY, proposals.REGISTRY, sources.REGISTRY,
                                      alerts.REGISTRY, intake.REGISTRY])
def test_no_entry_can_be_put_in_a_shipped_registry_by_hand(registry: Registry) -> None:
    with pytest.raises(TypeError):
        registry["toy"] = next(iter(registry.values()))   # type: ignore[index]
    with pytest.raises(TypeError):
        registry._by_name["toy"] = next(iter(registry.values()))   # type: ignore[index]


def test_two_entries_of_one_name_are_refused() -> None:
    with pytest.raises(ValueError, match="share a name"):
        Registry((Entry("a"), Entry("a", 1)))


def test_extended_adds_at_the_end_and_swaps_in_place_then_restores() -> None:
    registry = Registry((Entry("a"), Entry("b")))
    with registry.extended(Entry("c"), Entry("a", 1)) as same:
        assert same is registry
        assert registry.entries == (Entry("a", 1), Entry("b"), Entry("c"))
        assert registry.first(lambda e: e.value == 1) == Entry("a", 1)
    assert registry.entries == (Entry("a"), Entry("b"))
    assert list(registry) == ["a", "b"]


def test_extended_restores_after_an_error() -> None:
    registry = Registry((Entry("a"),))
    with pytest.raises(RuntimeError), registry.extended(Entry("z")):
        raise RuntimeError("the test failed")
    assert list(registry) == ["a"]


def test_first_asks_in_tuple_order() -> None:
    registry = Registry((Entry("a", 2), Entry("b", 2)))
    assert registry.first(lambda e: e.value == 2) == Entry("a", 2)
    assert registry.first(lambda e: e.value == 3) is None


class ToySender(alerts.Sender):
    name = "toyalerts"
    label = "Toy alerts"
    domains = ("toy.example",)


def test_a_sender_added_through_the_helper_is_the_one_sender_of_finds() -> None:
    # sender_of reads the same tuple the lookup is built from: one source of truth.
    toy = ToySender()
    assert alerts.sender_of("jobs@toy.example") is None
    with alerts.REGISTRY.extended(toy):
        assert alerts.sender_of("jobs@toy.example") is toy
        assert alerts.REGISTRY["toyalerts"] is toy
    assert alerts.sender_of("jobs@toy.example") is None
