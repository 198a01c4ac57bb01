"""The in-flight pane lists the units asking the model before those writing an answer
(each group oldest first), so a short pane cuts off the rows that hold no slot."""

from __future__ import annotations

from tui.live import InFlight
from tui.widgets.inflight import InFlightTable


def test_units_asking_come_before_units_writing_each_oldest_first() -> None:
    units = [InFlight("level", "a", 1.0, "answered"), InFlight("level", "b", 2.0, "asking"),
             InFlight("level", "c", 3.0, "applying"), InFlight("judge", "d", 4.0, "waiting"),
             InFlight("level", "e", 5.0, "retry 2/3 after 429")]
    table = InFlightTable()
    table.show(units, now=10.0)
    assert [u.label for u in table.units] == ["b", "d", "e", "a", "c"]
    assert [u.writing for u in table.units] == [False, False, False, True, True]
