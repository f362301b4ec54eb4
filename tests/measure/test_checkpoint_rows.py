"""An exact step's checkpoint rows, found from its first n, are the rows the rule picks: every E-th insert, the
source's last item and the insert counts asked for (``at``), each once and in order."""

from __future__ import annotations

import numpy as np
import pytest

from bloomviz.filters.standard import BloomFilter
from bloomviz.measure.pipeline import Measurement


def by_the_rule(n: np.ndarray, every, last, at) -> np.ndarray:
    keep = np.zeros(n.size, dtype=bool)
    if every is not None:
        keep |= n % every == 0
        keep |= n == last
    if len(at):
        keep |= np.isin(n, np.asarray(at))
    return np.flatnonzero(keep)


@pytest.mark.parametrize("trial", range(6))
def test_checkpoints_of_consecutive_inserts_follow_the_rule(trial):
    rng = np.random.default_rng(trial)
    for _ in range(60):
        every = [None, 1, 2, 3, 7, 1_000][rng.integers(6)]
        at = sorted(set(rng.integers(0, 60, rng.integers(0, 5)).tolist()))
        total = int(rng.integers(1, 60))
        measurement = Measurement(BloomFilter(500, 3), [], list(range(total)), every=every, at=at, store=False)
        lo, size = int(rng.integers(0, 50)), int(rng.integers(1, 30))
        n = np.arange(lo + 1, lo + size + 1, dtype=np.int64)
        record = measurement._record(n, n * 0, n * 0)
        assert np.array_equal(record.kept, by_the_rule(n, every, total, at)), (every, at, total, lo, size)


def test_a_run_keeps_the_rows_it_kept_before():
    measurement = Measurement(BloomFilter(2_000, 3), ["p1", "p2"], [f"x{i}" for i in range(100)], every=30,
                              at=[5, 31, 99])
    for count in (17, 40, 43):
        measurement.step(count)
    assert measurement.checkpoints["n"].tolist() == [5, 30, 31, 60, 90, 99, 100]
