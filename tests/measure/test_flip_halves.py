"""The exact tracker given hash halves (positions computed in the passes that use them, for filters over 2^26
bits) gives the numbers and bits it gives from rows of positions, across batches and after a single insert."""

from __future__ import annotations

import numpy as np
import pytest

from bloomviz.filters.generated_positions import halves, positions
from bloomviz.filters.standard import BloomFilter
from bloomviz.measure.fp_tracker import FpTracker
from bloomviz.measure.streams import item_stream, probe_items


@pytest.mark.parametrize("m, k", [((1 << 26) + 77, 9), (1 << 27, 4)])
def test_halves_and_rows_give_the_same_counts_and_bits(m, k):
    items, probes = item_stream(30_000, 3), probe_items(20_000, 3)
    by_rows, by_halves = BloomFilter(m, k), BloomFilter(m, k)
    rows_tracker, halves_tracker = FpTracker(by_rows, probes), FpTracker(by_halves, probes)
    zeros_before = halves_tracker.probe_zero_counts().sum()
    for start, stop in [(0, 7_000), (7_000, 7_001), (7_001, 30_000)]:
        if stop - start == 1:       # a single insert between batches leaves stale entries behind
            item = items.texts(start, stop)[0]
            for flt, tracker in ((by_rows, rows_tracker), (by_halves, halves_tracker)):
                ins = flt.add(item)
                tracker.on_insert([p for p, fresh in zip(ins.positions, ins.newly_set) if fresh])
            continue
        expected = rows_tracker.insert_batch(positions(by_rows, items, start, stop), by_rows)
        got = halves_tracker.insert_halves(*halves(by_halves, items, start, stop), by_halves)
        assert all(np.array_equal(a, b) for a, b in zip(expected, got))
    assert by_rows.bits == by_halves.bits and by_rows.bits_set == by_halves.bits_set == by_halves.bits.count()
    assert rows_tracker.fp_count == halves_tracker.fp_count == int(np.count_nonzero(by_rows.contains_many(probes)))
    assert np.array_equal(rows_tracker.probe_zero_counts(), halves_tracker.probe_zero_counts())
    assert halves_tracker.probe_zero_counts().sum() < zeros_before        # probe bits did flip


def test_only_plain_murmur3_mix_filters_take_halves():
    from bloomviz.filters.registry import make_filter
    items = item_stream(10, 0)
    assert halves(BloomFilter(1_000, 3), items, 0, 10) is not None
    assert halves(BloomFilter(1_000, 3, scheme="murmur3-km"), items, 0, 10) is None
    assert halves(make_filter("counting", m=1_000, k=3), items, 0, 10) is None
    assert halves(make_filter("partitioned", m=1_002, k=3), items, 0, 10) is None
