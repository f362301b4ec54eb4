"""Live measurement: the FP tracker is exact (equal to looking every probe up after every insert), the series
and the simulation carry the right numbers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bloomviz.filters.counting import CountingBloomFilter

from bloomviz.theory import rates as theory
from bloomviz.measure.experiment import Cancelled, Simulation
from bloomviz.measure.fp_tracker import FpTracker
from bloomviz.measure.series import Series, series_rows
from bloomviz.theory.intervals import wilson_interval as wilson
from bloomviz.filters.standard import BloomFilter
from bloomviz.items.encoding import random_items

# Non-saturated: after all inserts the fill is about 0.4-0.6 and a few percent of the probes are false positives.
CASES = [("murmur3-km", 3000, 4, 450), ("murmur3-enhanced", 2500, 3, 400), ("weak-shift", 4000, 7, 400)]
PROBES = 1500


def brute_force(flt, probes) -> int:
    return int(flt.contains_many(probes).sum())


def items_with_repeats(n: int, seed: int) -> list[str]:
    """Distinct items with some repeated later, so that inserts that set no new bit are covered too."""
    base = random_items(n, seed=seed, prefix="i")
    return base + base[: n // 10]


def single_add(flt, tracker, item) -> int:
    ins = flt.add(item)
    return tracker.on_insert(p for p, fresh in zip(ins.positions, ins.newly_set) if fresh)


@pytest.mark.parametrize("scheme, m, k, n", CASES)
def test_tracker_equals_brute_force_after_every_single_insert(scheme, m, k, n):
    flt = BloomFilter(m, k, scheme=scheme)
    probes = random_items(PROBES, seed=1, prefix="p")
    tracker = FpTracker(flt, probes)
    assert tracker.fp_count == 0
    for item in items_with_repeats(n, seed=2):
        count = single_add(flt, tracker, item)
        assert count == tracker.fp_count == brute_force(flt, probes)
    assert 0 < tracker.fp_count < PROBES // 2  # the case is neither empty nor saturated


@pytest.mark.parametrize("variant", [BloomFilter, CountingBloomFilter])
@pytest.mark.parametrize("scheme, m, k, n", CASES)
def test_tracker_batch_counts_equal_brute_force_after_every_row(scheme, m, k, n, variant):
    """The standard filter's bits are written by the tracker's pass; a counting filter inserts its own way
    and the pass runs on a copy of its bits: both give the numbers of one insert at a time."""
    flt = variant(m, k, scheme=scheme)
    reference = variant(m, k, scheme=scheme)
    probes = random_items(PROBES, seed=3, prefix="p")
    tracker = FpTracker(flt, probes)
    values = items_with_repeats(n, seed=4)
    fp_after, bits_after = tracker.insert_batch(flt.positions_many(values), flt)
    assert len(fp_after) == len(bits_after) == len(values)
    for i, item in enumerate(values):
        reference.add(item)
        assert fp_after[i] == brute_force(reference, probes), i
        assert bits_after[i] == reference.bits_set, i
    assert flt == reference and tracker.fp_count == fp_after[-1]
    assert flt.bits_set == flt.bits.count() == reference.bits_set   # counted, not recounted: still right


@pytest.mark.parametrize("scheme, m, k, n", CASES)
def test_tracker_mix_of_single_and_batch_inserts(scheme, m, k, n):
    flt = BloomFilter(m, k, scheme=scheme)
    reference = BloomFilter(m, k, scheme=scheme)
    probes = random_items(PROBES, seed=5, prefix="p")
    tracker = FpTracker(flt, probes)
    values = items_with_repeats(n, seed=6)
    rng = np.random.default_rng(7)
    i = 0
    while i < len(values):
        size = int(rng.integers(1, 40))
        chunk = values[i:i + size]
        if rng.random() < 0.5:
            for item in chunk:
                single_add(flt, tracker, item)
                reference.add(item)
                assert tracker.fp_count == brute_force(reference, probes)
        else:
            fp_after, bits_after = tracker.insert_batch(flt.positions_many(chunk), flt)
            for j, item in enumerate(chunk):
                reference.add(item)
                assert fp_after[j] == brute_force(reference, probes)
                assert bits_after[j] == reference.bits_set
        assert flt == reference
        i += size
    assert tracker.fp_count == brute_force(flt, probes)


def test_tracker_reports_rate_interval_and_the_false_positive_probes():
    flt = BloomFilter(2000, 3)
    probes = random_items(1000, seed=8, prefix="p")
    tracker = FpTracker(flt, probes)
    tracker.insert_batch(flt.positions_many(random_items(400, seed=9)), flt)
    hits = flt.contains_many(probes)
    assert tracker.probe_count == 1000 and tracker.probes == probes
    assert tracker.rate == pytest.approx(hits.mean())
    assert sorted(tracker.false_positive_probes()) == sorted(p for p, h in zip(probes, hits) if h)
    low, high = tracker.interval()
    assert 0 <= low <= tracker.rate <= high <= 1
    assert (low, high) == pytest.approx(theory.wilson_interval(tracker.fp_count, 1000))


def test_rebuild_follows_the_filter_after_a_load_or_clear():
    flt = BloomFilter(2000, 4)
    probes = random_items(800, seed=10, prefix="p")
    tracker = FpTracker(flt, probes)
    loaded = BloomFilter(2000, 4)
    loaded.update(random_items(350, seed=11))
    tracker.rebuild(loaded)
    assert tracker.fp_count == brute_force(loaded, probes) > 0
    for item in random_items(100, seed=12):  # exact again from there on
        single_add(loaded, tracker, item)
        assert tracker.fp_count == brute_force(loaded, probes)
    loaded.clear()
    tracker.rebuild(loaded)
    assert tracker.fp_count == 0


def test_empty_batch_changes_nothing():
    flt = BloomFilter(100, 2)
    tracker = FpTracker(flt, ["a", "b"])
    fp_after, bits_after = tracker.insert_batch(np.empty((0, 2), dtype=np.int64), flt)
    assert len(fp_after) == len(bits_after) == 0 and len(flt) == 0 and tracker.fp_count == 0


# --- Series -----------------------------------------------------------------------------------------------
def _row(n: float) -> dict:
    return {c: float(n) + i / 100 for i, c in enumerate(Series.COLUMNS)}


def test_series_appends_extends_grows_and_views_columns():
    s = Series(capacity=2)
    assert len(s) == 0 and s.column("n").size == 0
    for n in range(1, 6):  # past the initial capacity: earlier rows must survive the growth
        s.append(**_row(n))
    s.extend(**{c: np.arange(6, 9) + i / 100 for i, c in enumerate(Series.COLUMNS)})
    assert len(s) == 8
    np.testing.assert_array_equal(s.column("n"), np.arange(1, 9))
    np.testing.assert_allclose(s.column("fill"), np.arange(1, 9) + Series.COLUMNS.index("fill") / 100)
    assert s.row(2) == _row(3)
    assert [r["n"] for r in s.rows(every=3)] == [3.0, 6.0]


def test_series_truncate_and_clear():
    s = Series()
    for n in range(1, 11):
        s.append(**_row(n))
    s.truncate(4)
    assert len(s) == 4 and s.column("n")[-1] == 4
    s.truncate(100)  # never grows
    assert len(s) == 4
    s.append(**_row(99))
    assert list(s.column("n")) == [1, 2, 3, 4, 99]
    s.clear()
    assert len(s) == 0


def test_series_refuses_missing_and_unknown_columns():
    s = Series()
    row = _row(1)
    del row["fp_bound"]
    with pytest.raises(ValueError, match="fp_bound"):
        s.append(**row)
    assert len(s) == 0
    with pytest.raises(KeyError, match="nope"):
        s.column("nope")


def test_series_rows_computes_the_columns_from_counts():
    m, k, probes = 1000, 3, 400
    n = np.array([1, 50, 200])
    fp = np.array([0, 3, 80])
    bits = np.array([3, 140, 1000])
    rows = series_rows(m, k, n, fp, probes, bits)
    assert set(rows) == set(Series.COLUMNS)
    np.testing.assert_allclose(rows["fp_measured"], fp / probes)
    np.testing.assert_allclose(rows["fill"], bits / m)
    for i, ni in enumerate(n):
        assert rows["fp_exact"][i] == pytest.approx(theory.fp_exact(m, k, int(ni)), rel=1e-9)
        assert rows["fp_approx"][i] == pytest.approx(theory.fp_approx(m, k, int(ni)), rel=1e-9)
        assert rows["fp_bound"][i] == pytest.approx(theory.fp_bound(m, k, int(ni)), rel=1e-9)
        assert rows["fill_expected"][i] == pytest.approx(theory.fill_expected(m, k, int(ni)), rel=1e-9)
        assert (rows["fp_low"][i], rows["fp_high"][i]) == pytest.approx(theory.wilson_interval(int(fp[i]), probes))
    assert rows["n_estimated"][1] == pytest.approx(theory.estimate_count(m, k, 140))
    assert rows["n_estimated"][2] == math.inf  # every bit set


def test_wilson_interval_contains_the_rate_and_handles_the_edges():
    assert wilson(0, 100)[0] == 0.0 and wilson(0, 100)[1] > 0
    assert wilson(100, 100)[1] == pytest.approx(1.0) and wilson(100, 100)[0] < 1
    low, high = wilson(30, 100)
    assert low < 0.3 < high


# --- Simulation -------------------------------------------------------------------------------------------
def test_simulation_series_is_exact_and_reproducible():
    sim = Simulation(4000, 4, 600, probes=1200, seed=3)
    series = sim.run(chunk=128)  # several batches: exactness must hold across their borders
    assert len(series) == 600
    np.testing.assert_array_equal(series.column("n"), np.arange(1, 601))
    reference = BloomFilter(4000, 4)
    probes = sim.tracker.probes
    assert not set(probes) & set(sim.items)
    counts = series.column("fp_measured") * len(probes)
    np.testing.assert_allclose(counts, np.round(counts), atol=1e-6)
    counts = np.round(counts)
    for i, item in enumerate(sim.items):
        reference.add(item)
        if i % 37 == 0 or i == 599:
            assert counts[i] == brute_force(reference, probes)
            assert series.column("fill")[i] * 4000 == pytest.approx(reference.bits_set)
    assert sim.filter == reference
    again = Simulation(4000, 4, 600, probes=1200, seed=3).run()
    for c in Series.COLUMNS:
        np.testing.assert_array_equal(again.column(c), series.column(c))
    other = Simulation(4000, 4, 600, probes=1200, seed=4)
    assert other.items != sim.items


def test_simulation_with_given_items_excludes_them_from_the_probes():
    values = ["apple", "pear", "\ud800", "plum"] * 3
    sim = Simulation(500, 3, probes=300, seed=1, items=values)
    series = sim.run()
    assert len(series) == len(values) and sim.items == values
    assert not set(sim.tracker.probes) & set(values)
    assert sim.filter.contains_many(values).all()


def test_simulation_progress_cancel_and_iteration():
    seen = []
    Simulation(1000, 3, 500, probes=100).run(chunk=100, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (500, 500) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    calls = iter([False, False, True])
    with pytest.raises(Cancelled):
        Simulation(1000, 3, 500, probes=100).run(chunk=100, cancel=lambda: next(calls))
    records = list(Simulation(1000, 3, 50, probes=100))
    assert len(records) == 50 and set(records[0]) == set(Series.COLUMNS) and records[-1]["n"] == 50


def test_simulation_needs_n_or_items():
    with pytest.raises(ValueError, match="n"):
        Simulation(1000, 3)
