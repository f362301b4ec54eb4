"""Explorer sweeps: the k curve's minimum, n = 0, the bits-per-item curves, and measured points vs theory."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bloomviz.studies import explore

from bloomviz.theory import rates as theory
from bloomviz.measure.experiment import Cancelled


@settings(max_examples=40)
@given(st.integers(min_value=16, max_value=10 ** 8), st.integers(min_value=1, max_value=10 ** 6))
def test_k_curve_minimum_sits_at_the_rounded_optimum_or_a_neighbour(m, n):
    k_real = (m / n) * math.log(2)
    if k_real > 60:
        return
    ks = list(range(1, 65))
    sweep = explore.k_sweep(m, n, ks)
    k_min = int(sweep["k"][int(np.argmin(sweep["fp_exact"]))])
    target = max(1, round(k_real))
    assert target - 4 <= k_min <= target + 1   # the exact optimum sits at or a little below the classic one
    _, k_int = explore.k_optimum(m, n)
    assert sweep["fp_exact"][k_int - 1] == sweep["fp_exact"].min()


def test_n_zero_has_no_optimum_and_zero_rates():
    assert explore.k_optimum(1000, 0) == (None, None)
    sweep = explore.k_sweep(1000, 0, range(1, 10))
    assert np.all(sweep["fp_exact"] == 0) and np.all(sweep["fp_approx"] == 0)


def test_exact_approx_and_bound_differ_at_small_m_and_bound_bounds():
    sweep = explore.k_sweep(32, 4, range(1, 9))
    assert np.all(sweep["fp_bound"] >= sweep["fp_exact"])
    assert np.max(np.abs(sweep["fp_exact"] - sweep["fp_approx"]) / sweep["fp_exact"]) > 0.01


def test_n_sweep_matches_scalar_theory():
    ns = [0, 10, 500, 5000]
    out = explore.n_sweep(4096, 5, ns)
    for i, n in enumerate(ns):
        assert out["fp_exact"][i] == pytest.approx(theory.fp_exact(4096, 5, n), rel=1e-9, abs=1e-300)
        assert out["fp_approx"][i] == pytest.approx(theory.fp_approx(4096, 5, n), rel=1e-9, abs=1e-300)
    with pytest.raises(ValueError):
        explore.n_sweep(4096, 5, [-1])


def test_m_family_is_ascending_distinct_and_within_range():
    assert explore.m_family(1000) == [250, 500, 1000, 2000, 4000]
    assert explore.m_family(1) == [1, 2, 4]
    assert max(explore.m_family(2 ** 34)) == 2 ** 34


def test_bits_per_item_curves_order_and_values():
    ps = np.geomspace(1e-9, 0.4, 30)
    out = explore.bits_per_item_sweep(ps)
    assert np.allclose(out["lower_bound"], -np.log2(ps))
    assert np.allclose(out["bloom_optimal"] / out["lower_bound"], 1 / math.log(2))
    # integer k can only cost more than the real optimum, and not much more
    assert np.all(out["bloom_integer_k"] >= out["bloom_optimal"] * (1 - 1e-12))
    assert np.all(out["bloom_integer_k"] <= out["bloom_optimal"] * 1.1)
    bits, k = explore.best_integer_k_bits(0.01)
    assert k == 7 and (1 - math.exp(-k / bits)) ** k == pytest.approx(0.01)
    with pytest.raises(ValueError):
        explore.bits_per_item_sweep([0.0])


@pytest.mark.parametrize("text, ks", [("3:5", [3, 4, 5]), ("7", [7]), (" 1:1 ", [1])])
def test_parse_k_range(text, ks):
    assert explore.parse_k_range(text) == ks


@pytest.mark.parametrize("text", ["5:3", "0:4", "1:65", "a:b", "1:2:3", ""])
def test_parse_k_range_refuses(text):
    with pytest.raises(ValueError, match="k range"):
        explore.parse_k_range(text)


def _within_5_sd(measured, exact, probes):
    sd = np.sqrt(np.maximum(exact * (1 - exact), 1e-12) / probes)
    return np.abs(measured - exact) <= 5 * sd


@pytest.mark.parametrize("seed", [0, 7])
def test_measured_k_points_agree_with_theory(seed):
    probes = 20_000
    job = explore.KMeasurement(20_000, 2_000, range(1, 13), probes=probes, seed=seed, step_items=700)
    steps = 0
    while not job.step():
        steps += 1
        assert 0 <= job.done <= job.total
    assert steps > 12   # it really was cut into bounded steps
    r = job.result()
    assert list(r["k"]) == list(range(1, 13))
    assert np.all(_within_5_sd(r["fp_measured"], r["fp_exact"], probes)), r
    assert np.all((r["fp_low"] <= r["fp_measured"]) & (r["fp_measured"] <= r["fp_high"]))
    # most 95% intervals hold the exact rate
    inside = (r["fp_low"] <= r["fp_exact"]) & (r["fp_exact"] <= r["fp_high"])
    assert inside.sum() >= 9


def test_a_new_seed_gives_other_measurements_and_the_same_seed_the_same():
    a = explore.KMeasurement(4_000, 400, [3, 5], probes=5_000, seed=1).run()
    b = explore.KMeasurement(4_000, 400, [3, 5], probes=5_000, seed=1).run()
    c = explore.KMeasurement(4_000, 400, [3, 5], probes=5_000, seed=2).run()
    assert np.array_equal(a["hits"], b["hits"])
    assert not np.array_equal(a["hits"], c["hits"])


def test_measured_n_points_agree_with_theory_and_with_a_filter_built_directly():
    probes = 20_000
    ns = [0, 1_000, 2_000, 3_000]
    job = explore.NMeasurement(20_000, 7, ns, probes=probes, seed=3, step_items=777)
    r = job.run()
    assert list(r["n"]) == ns and r["hits"][0] == 0
    assert np.all(_within_5_sd(r["fp_measured"], r["fp_exact"], probes))
    # the tracker's count at n = 2000 equals testing the probes against a filter of the first 2000 items
    from bloomviz.filters.standard import BloomFilter
    from bloomviz.items.encoding import random_items
    flt = BloomFilter(20_000, 7)
    flt.update(random_items(2_000, seed=3, prefix="i"))
    hits = int(np.count_nonzero(flt.contains_many(random_items(
        probes, seed=3 + explore.PROBE_SEED_OFFSET, prefix="p"))))
    assert r["hits"][2] == hits


def test_cancel_and_bad_arguments():
    job = explore.KMeasurement(1000, 100, [1, 2], probes=100)
    with pytest.raises(Cancelled):
        job.run(cancel=lambda: True)
    with pytest.raises(ValueError, match="probes"):
        explore.KMeasurement(1000, 100, [1], probes=0)
    with pytest.raises(ValueError, match="seed"):
        explore.KMeasurement(1000, 100, [1], seed=-1)
    with pytest.raises(ValueError, match="too large"):
        explore.KMeasurement(2 ** 33, 100, [1])
    with pytest.raises(ValueError, match="too many"):
        explore.NMeasurement(1000, 3, [explore.MAX_MEASURE_N + 1])
    with pytest.raises(ValueError, match="at least one k"):
        explore.KMeasurement(1000, 100, [])


def test_measuring_n_zero_gives_rate_zero():
    r = explore.KMeasurement(1000, 0, [1, 4], probes=500).run()
    assert list(r["hits"]) == [0, 0]


def test_n_sweep_for_a_one_bit_filter():
    out = explore.n_sweep(1, 3, [0, 1, 5])
    assert list(out["fp_exact"]) == [0.0, 1.0, 1.0]
    assert list(out["fp_bound"]) == [1.0, 1.0, 1.0]
