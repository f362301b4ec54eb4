"""The exact tracker from hash halves in a filter of at most 2^26 bits (its probe bits' rows found among the
positions a batch turned, fresh_rows.py) gives what it gives from rows of positions, one insert at a time
underneath; ``fresh_rows`` names the row of the one entry of each turned bit and leaves its scratch clean."""

from __future__ import annotations

import numpy as np
import pytest

from bloomviz.filters.standard import BloomFilter
from bloomviz.items.encoding import random_items
from bloomviz.measure import first_flips
from bloomviz.measure.fp_tracker import FpTracker
from bloomviz.measure.experiment import Simulation
from bloomviz.measure.given_items import murmur_halves
from bloomviz.measure.pipeline import Measurement
from bloomviz.measure.streams import item_stream
from bloomviz.measure.fresh_rows import MAP_MAX_BITS, fresh_rows, map_bits, table_size


@pytest.mark.parametrize("m, k, n, probes", [(1, 1, 40, 30), (7, 3, 60, 50), (64, 7, 300, 200),
                                             (5_000, 1, 4_000, 800), (9_000, 4, 6_000, 700),
                                             (300_000, 20, 20_000, 5_000), (first_flips.EXACT_MAX_M, 2, 3_000, 900)])
def test_halves_and_rows_give_the_same_curve_in_a_small_filter(m, k, n, probes):
    probe_list = random_items(probes, seed=m + k, prefix="p")
    items = random_items(n, seed=k, prefix="w")
    items[5::40] = [items[3]] * len(items[5::40])                  # repeated items
    items[7::60] = probe_list[: len(items[7::60])]                  # items equal to probes
    h1, h2 = murmur_halves(items)
    by_rows, by_halves = BloomFilter(m, k), BloomFilter(m, k)
    rows_tracker, halves_tracker = FpTracker(by_rows, probe_list), FpTracker(by_halves, probe_list)
    cuts = [0, 1, n // 7, n // 7 + 1, n // 2, n]
    for start, stop in zip(cuts, cuts[1:]):
        if stop - start == 1 and start:       # a single insert between batches leaves stale entries behind
            for flt, tracker in ((by_rows, rows_tracker), (by_halves, halves_tracker)):
                ins = flt.add(items[start])
                tracker.on_insert([p for p, fresh in zip(ins.positions, ins.newly_set) if fresh])
            continue
        expected = rows_tracker.insert_batch(by_rows.positions_many(items[start:stop]), by_rows)
        got = halves_tracker.insert_halves(h1[start:stop], h2[start:stop], by_halves)
        assert all(np.array_equal(a, b) for a, b in zip(expected, got)), (start, stop)
    assert by_rows.bits == by_halves.bits and by_halves.bits_set == by_halves.bits.count()
    assert rows_tracker.fp_count == halves_tracker.fp_count
    assert np.array_equal(rows_tracker.probe_zero_counts(), halves_tracker.probe_zero_counts())
    # and against the filter itself: a probe is a false positive exactly when all its bits are set
    assert halves_tracker.fp_count == int(np.count_nonzero(by_halves.contains_many(probe_list)))


def _first_rows(fresh: np.ndarray, new_per_row: np.ndarray, turned_bits: np.ndarray) -> dict[int, int]:
    rows = np.repeat(np.arange(new_per_row.size), new_per_row)
    order = np.argsort(fresh[: rows.size], kind="stable")
    at = order[np.searchsorted(fresh[: rows.size][order], turned_bits)]     # (the entries are distinct)
    assert np.array_equal(fresh[at], turned_bits)
    return dict(zip(turned_bits.tolist(), rows[at].tolist()))


@pytest.mark.parametrize("turned, rows", [(1, 1), (5, 3), (300, 2_000), (5_000, 40_000), (70_000, 60_000)])
def test_fresh_rows_finds_each_turned_bit_at_its_row(turned, rows):
    rng = np.random.default_rng(turned)
    new_per_row = rng.integers(0, 9, rows)
    new_per_row[rng.integers(0, rows, rows // 5 + 1)] = 0        # rows that turned nothing
    new_per_row[-1] = max(1, new_per_row[-1])
    total = int(new_per_row.sum())
    # the fresh positions: distinct (a bit turns once); those sharing low bits with a turned bit included
    fresh = rng.choice(1 << 26, total, replace=False).astype(np.int64)
    turned = min(turned, total)
    picked = rng.choice(total, turned, replace=False)
    turned_bits = fresh[picked]
    lookalikes = (fresh[picked[: turned // 2]] ^ (1 << 24)) & ((1 << 26) - 1)     # same low bits, not turned
    keep = ~np.isin(lookalikes, fresh)
    fresh[rng.choice(np.setdiff1d(np.arange(total), picked), int(keep.sum()), replace=False)] = lookalikes[keep]
    slots = rng.permutation(turned).astype(np.int64) + 3
    bit_time = np.full(turned + 3, -1, dtype=np.int64)
    bits = map_bits(turned)
    bitmap = np.zeros(1 << (MAP_MAX_BITS - 3), dtype=np.uint8)
    keys = np.full(table_size(turned), -1, dtype=np.int64)
    values = np.empty_like(keys)
    fresh = np.append(fresh, 123)       # room past the last entry, as the pass leaves it
    assert fresh_rows(fresh, new_per_row, turned_bits, slots, bit_time, bitmap, bits, keys, values) == turned
    expected = _first_rows(fresh, new_per_row, turned_bits)
    assert {b: int(bit_time[s]) for b, s in zip(turned_bits.tolist(), slots.tolist())} == expected
    assert (bit_time[:3] == -1).all()
    assert not bitmap.any() and (keys == -1).all()      # scratch left as found, for the next batch


def test_fresh_rows_with_no_turned_bits_touches_nothing():
    bit_time = np.full(4, -1, dtype=np.int64)
    empty = np.zeros(0, dtype=np.int64)
    bitmap, keys = np.zeros(1 << 13, dtype=np.uint8), np.full(16, -1, dtype=np.int64)
    assert fresh_rows(np.arange(5, dtype=np.int64), np.array([2, 3]), empty, empty, bit_time, bitmap, 16, keys,
                      keys.copy()) == 0
    assert (bit_time == -1).all() and not bitmap.any()


@pytest.mark.parametrize("m, k", [(64, 7), (9_000, 1), (40_000, 5)])
def test_a_simulation_of_generated_items_goes_by_halves_and_counts_what_rows_count(m, k, monkeypatch):
    taken = []
    halves_pass = FpTracker.insert_halves
    monkeypatch.setattr(FpTracker, "insert_halves", lambda self, *a: taken.append(1) or halves_pass(self, *a))
    sim = Simulation(m=m, k=k, n=5_000, probes=800, seed=4)
    series = sim.run(every=3, chunk=1_500)
    assert len(taken) == 4
    # the same items and probes stepped by the measurement itself: rows of positions below 2^26 bits
    flt = BloomFilter(m, k)
    plain = Measurement(flt, sim.measurement.probes, item_stream(5_000, 4), every=3)
    while plain.remaining:
        plain.step(1_500)
    assert len(taken) == 4
    kept = plain.checkpoints
    np.testing.assert_array_equal(series.column("n"), kept["n"])
    np.testing.assert_array_equal(series.column("fp_measured"), kept["fp"] / 800)
    np.testing.assert_array_equal(np.rint(series.column("fill") * m), kept["bits_set"])
    assert sim.filter.bits == flt.bits and kept["fp"][-1] > 0
