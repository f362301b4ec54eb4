"""MeasuredSeries holds a measurement's counts and computes the other columns for the rows read: each value is
the one series_rows gives for that row, whichever rows are read and however the rows were added."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bloomviz.measure.pipeline import MeasuredSeries
from bloomviz.measure.series import COLUMNS, NONE, OWN, columns_at, series_rows


def _counts(n0: int, size: int, probes: int, m: int, seed: int):
    rng = np.random.default_rng(seed)
    n = np.arange(n0 + 1, n0 + size + 1)
    fp = np.sort(rng.integers(0, probes + 1, size))
    bits = np.minimum(m, np.sort(rng.integers(0, m + 1, size)))
    return n, fp, bits


def _assert_same(a: np.ndarray, b: np.ndarray) -> None:
    np.testing.assert_array_equal(np.asarray(a), np.asarray(b))   # bit for bit, nan where nan


def test_every_column_is_series_rows_for_each_row_whatever_rows_are_read():
    m, k, probes = 5_000, 4, 700
    s = MeasuredSeries(capacity=3)          # grows past its capacity as rows come
    parts = [_counts(0, 40, probes, m, 1), _counts(40, 25, probes, m, 2), _counts(65, 1, probes, m, 3)]
    for n, fp, bits in parts:
        s.add(n, fp, bits, m=m, k=k, probes=probes)
    n, fp, bits = (np.concatenate(c) for c in zip(*parts))
    want = series_rows(m, k, n, fp, probes, bits)
    assert len(s) == 66 and s.nbytes == 66 * 24       # n, the rate, the bits set: the count is rate * probes
    for name in COLUMNS:
        _assert_same(s.column(name), want[name])
    rows = np.array([65, 0, 17, 40, 17, -1])
    got = s.columns_at(rows, ("fp_exact", "fp_high", "n_estimated", "n"))
    for name, values in got.items():
        _assert_same(values, want[name][rows])
    assert s.row(3) == {c: float(want[c][3]) for c in COLUMNS}
    assert [r["n"] for r in s.rows(every=20)] == [20.0, 40.0, 60.0]
    with pytest.raises(KeyError, match="nope"):
        s.column("nope")
    with pytest.raises(IndexError):
        s.columns_at([66], ("n",))


def test_stretches_keep_their_own_m_k_probes_and_theory():
    s = MeasuredSeries()
    a = _counts(0, 10, 300, 2_000, 4)
    b = _counts(10, 8, 500, 4_000, 5)        # another probe count and m (a stage opened, probes redrawn)
    c = _counts(18, 6, 500, 4_000, 6)
    own = np.linspace(0.1, 0.2, 6)
    s.add(*a, m=2_000, k=3, probes=300)
    s.add(*b, m=4_000, k=5, probes=500, theory=NONE)
    s.add(*c, m=4_000, k=5, probes=500, theory=OWN, own=own)
    ra, rb, rc = (series_rows(m, k, *x[:2], p, x[2]) for (m, k, p), x in
                  (((2_000, 3, 300), a), ((4_000, 5, 500), b), ((4_000, 5, 500), c)))
    rc["fp_exact"] = own
    for key in ("fp_exact", "fp_classic", "fp_approx", "fp_bound"):
        rb[key] = np.full(8, np.nan)
    for key in ("fp_classic", "fp_approx", "fp_bound"):
        rc[key] = np.full(6, np.nan)
    for name in COLUMNS:
        _assert_same(s.column(name), np.concatenate([ra[name], rb[name], rc[name]]))
    picked = s.columns_at([23, 2, 12], ("fp_exact", "fill"))
    _assert_same(picked["fp_exact"], [own[5], ra["fp_exact"][2], math.nan])
    _assert_same(picked["fill"], [rc["fill"][5], ra["fill"][2], rb["fill"][2]])


def test_truncate_drops_the_rows_and_their_stretches():
    s = MeasuredSeries()
    s.add(*_counts(0, 5, 100, 1_000, 7), m=1_000, k=3, probes=100)
    s.add(*_counts(5, 5, 200, 1_000, 8), m=1_000, k=3, probes=200)
    s.truncate(5)
    later = _counts(5, 3, 100, 1_000, 9)
    s.add(*later, m=1_000, k=3, probes=100)
    _assert_same(s.column("fp_high")[5:], series_rows(1_000, 3, *later[:2], 100, later[2])["fp_high"])
    s.truncate(99)
    assert len(s) == 8
    s.clear()
    assert len(s) == 0 and s.column("fp_exact").size == 0 and s.columns_at([], ("n",))["n"].size == 0


def test_add_refuses_a_theory_without_its_rates():
    s = MeasuredSeries()
    with pytest.raises(ValueError, match="own"):
        s.add([1], [0], [3], m=10, k=2, probes=5, theory=OWN)
    with pytest.raises(ValueError, match="theory"):
        s.add([1], [0], [3], m=10, k=2, probes=5, theory="mine")
    assert len(s) == 0


def test_columns_at_reads_a_series_that_only_has_columns():
    class Plain:
        def column(self, name):
            return np.arange(4.0) if name == "n" else np.arange(4.0) / 10

    got = columns_at(Plain(), [3, 1], ("n", "fp_exact"))
    _assert_same(got["n"], [3.0, 1.0])
    _assert_same(got["fp_exact"], [0.3, 0.1])


def test_the_counts_come_back_exactly_from_the_rates_at_any_probe_count():
    rng = np.random.default_rng(5)
    for probes in (1, 3, 7, 700, 10_000, 499_999, 10 ** 7, (1 << 40) - 3):
        fp = np.sort(rng.integers(0, probes + 1, 2_000))
        s = MeasuredSeries()
        s.add(np.arange(1, fp.size + 1), fp, fp, m=10 ** 9, k=3, probes=probes)
        low, high = s.columns_at(None, ("fp_low", "fp_high")).values()
        want_low, want_high = series_rows(10 ** 9, 3, np.arange(1, fp.size + 1), fp, probes, fp)["fp_low"], \
            series_rows(10 ** 9, 3, np.arange(1, fp.size + 1), fp, probes, fp)["fp_high"]
        assert np.array_equal(low, want_low) and np.array_equal(high, want_high), probes


@pytest.mark.parametrize("variant", ["standard", "blocked"])
def test_a_measurement_writes_its_rows_with_its_filters_theory(variant):
    from bloomviz.filters.registry import make_filter
    from bloomviz.measure.pipeline import Measurement

    flt = make_filter(variant, m=4_096, k=4)
    probes = [f"p{i}" for i in range(300)]
    series = MeasuredSeries()
    measurement = Measurement(flt, probes, every=None, store=False, series=series)
    records = [measurement.add(f"item {i}") for i in range(30)]
    measurement.add_rows(np.array([40]), np.array([7]), np.array([flt.bits_set]))   # a row its caller keeps
    assert len(series) == 31
    n = np.array([int(r.n[0]) for r in records] + [40])
    fp = np.array([int(r.fp[0]) for r in records] + [7])
    bits = np.array([int(r.bits_set[0]) for r in records] + [flt.bits_set])
    want = series_rows(4_096, 4, n, fp, len(probes), bits)
    for name in ("n", "fp_measured", "fp_low", "fp_high", "fill", "n_estimated"):
        _assert_same(series.column(name), want[name])
    if variant == "standard":
        _assert_same(series.column("fp_exact"), want["fp_exact"])
    else:      # its own exact rate; the standard filter's formulas would describe another filter
        _assert_same(series.column("fp_exact"), flt.theory_fp(n.astype(float)))
        assert np.isnan(series.column("fp_classic")).all()
