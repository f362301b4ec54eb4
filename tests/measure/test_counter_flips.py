"""The setting pass for plain generated items hashed from their counter (counter_flips.py) against the pass from
the hash halves arrays it replaces, for every way a position is scaled; and a Simulation of generated items
taking it gives the same series as the halves arrays did."""

from __future__ import annotations

import numpy as np
import pytest

from bloomviz import small_pages
from bloomviz.filters.generated_positions import halves as generated_halves
from bloomviz.filters.standard import BloomFilter
from bloomviz.hashing.mixed_kernel import mixed_rows
from bloomviz.items.generated import GeneratedItems
from bloomviz.measure import counter_flips
from bloomviz.measure.counter_halves import CounterHalves
from bloomviz.measure.experiment import Simulation
from bloomviz.measure.first_flips import ProbeBits
from bloomviz.measure.pipeline import Measurement
from bloomviz.measure.streams import probe_items


def _zeros(size: int) -> np.ndarray:
    view = small_pages.empty(size, np.uint8)     # pages never written stay unallocated (test_set_halves_pass)
    if size < small_pages.HUGE_FROM:
        view[:] = 0
    return view


@pytest.mark.parametrize("m, k, start", [(1_000_003, 7, 0), (9_585_059, 3, 40), ((1 << 26) + 3, 20, 5),
                                         (1 << 32, 20, 0), (3 * (1 << 31) + 7, 5, 11)])
def test_counter_pass_equals_the_pass_from_halves_arrays(m, k, start):
    items = GeneratedItems(2_000, seed=3)
    flt = BloomFilter(m=m, k=k)
    h1, h2 = generated_halves(flt, items, start, start + 700)
    counter = CounterHalves.of(flt, items, start, start + 700)
    assert counter.count == 700 and all(np.array_equal(a, b) for a, b in zip(counter, (h1, h2)))
    rows = mixed_rows(h1, h2, m, k)
    views, answers = [], []
    for given in (None, CounterHalves.of(flt, items, start, start + 700)):
        view = _zeros((m + 7) // 8)
        before = rows[::9, 0]        # bits set before the batch (positions of its own)
        view[before >> 3] |= np.left_shift(np.uint8(1), (before & 7).astype(np.uint8))
        probe_bits = ProbeBits(np.array([int(h1[4] % np.uint64(m)), 17]), m)
        new_per_row, turned = probe_bits.set_halves(view, h1, h2, m, k, given)
        views.append(view)
        answers.append((new_per_row, turned, probe_bits._fresh[:int(new_per_row.sum())].copy()))
    assert all(np.array_equal(a, b) for a, b in zip(*answers)) and 0 < answers[0][0].sum() < 700 * k
    touched = np.unique(rows >> 3)     # every byte either pass can write
    assert np.array_equal(views[0][touched], views[1][touched])


def test_counter_wraps_as_the_values_do():
    items = GeneratedItems(100, seed=1)
    items._key = (1 << 64) - 30                     # the counter passes 2^64 inside the batch
    flt = BloomFilter(m=1 << 20, k=4)
    counter = CounterHalves.of(flt, items, 10, 60)
    ring_view = np.zeros(1 << 17, np.uint8)
    new_per_row, fresh = np.empty(50, np.int64), np.empty(50 * 4 + 1, np.int64)
    counter_flips.set_counter(ring_view, counter, 1 << 20, 0, 4, 3, new_per_row, fresh)
    h1, h2 = generated_halves(flt, items, 10, 60)
    view = np.zeros(1 << 17, np.uint8)
    expected = ProbeBits(np.array([1]), 1 << 20).set_halves(view, h1, h2, 1 << 20, 4)[0]
    assert np.array_equal(new_per_row, expected) and np.array_equal(view, ring_view)


@pytest.mark.parametrize("m, k", [(1_000_003, 5), ((1 << 26) + 1, 1)])    # probe map exact / hashed
def test_simulation_of_generated_items_is_the_same_by_counter(monkeypatch, m, k):
    def run():
        return [repr(row) for row in Simulation(m=m, k=k, n=300_000, probes=2_000, seed=2).run(every=4_999).rows()]

    calls = []
    kernel = counter_flips.set_counter
    monkeypatch.setattr(counter_flips, "set_counter", lambda *a: calls.append(1) or kernel(*a))
    by_counter = run()
    assert calls
    monkeypatch.setattr(CounterHalves, "of", staticmethod(lambda *a: None))     # the halves arrays, as before
    by_arrays = run()
    assert by_counter == by_arrays and len(by_counter) == 61 and "'fp_measured': 0.0," not in by_counter[-1]


def test_a_measurement_refuses_counter_halves_for_another_count():
    flt = BloomFilter(m=1 << 16, k=3)
    items = GeneratedItems(50, seed=0)
    measurement = Measurement(flt, probe_items(10, 0), items, store=False)
    with pytest.raises(ValueError, match="40 and 40 hash halves for 50 items"):
        measurement.step(50, halves=CounterHalves.of(flt, items, 0, 40))
    assert flt.bits_set == 0 and measurement.taken == 0
