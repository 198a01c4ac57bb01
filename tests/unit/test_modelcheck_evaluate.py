"""How the check sums up its answers: the nearest-rank percentile."""

from __future__ import annotations

from jobtracker.modelcheck.evaluate import _percentile


def test_the_percentile_is_an_observed_value() -> None:
    values = [float(v) for v in range(1, 21)]
    assert _percentile(values, 0.95) == 19.0 and _percentile([3.0], 0.95) == 3.0
    assert _percentile(values, 0.5) == 10.0
