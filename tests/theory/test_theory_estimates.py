"""Theory's estimates from what a filter shows (how many items a fill means, how large an intersection is) and
the Wilson interval every measured rate is given with: hand values, their inverses, and a 60-digit textbook form.
(The closed forms themselves are in test_theory.py.)"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bloomviz.theory import rates as theory

FEW = settings(max_examples=50, deadline=None)


# --- estimates ----------------------------------------------------------------------------------------------
def test_estimate_count_hand_values():
    assert theory.estimate_count(1000, 1, 0) == 0.0
    assert theory.estimate_count(1000, 1, 500) == pytest.approx(1000 * math.log(2))
    assert theory.estimate_count(1000, 2, 750) == pytest.approx(500 * math.log(4))
    assert theory.estimate_count(1000, 3, 1000) == math.inf
    assert theory.estimate_count(1, 1, 1) == math.inf
    assert theory.estimate_union(1000, 2, 750) == theory.estimate_count(1000, 2, 750)


@FEW
@given(m=st.integers(10 ** 5, 2 ** 34), k=st.integers(1, 20), load=st.floats(0.01, 2.0))
def test_estimate_count_inverts_the_expected_fill(m, k, load):
    n = max(1, round(load * m / k))
    x = round(m * theory.fill_expected(m, k, n))
    # one bit of rounding in X moves the estimate by about 1/(k (1 - fill)) items
    slack = 1.0 / (k * (1 - x / m)) + n * k / m
    assert theory.estimate_count(m, k, x) == pytest.approx(n, rel=0, abs=slack)


def test_intersection_from_estimates():
    assert theory.estimate_intersection(1000, 3, 100.0, 80.0, 150.0) == pytest.approx(30.0)
    assert theory.estimate_intersection(1000, 3, 100.0, 80.0, 200.0) == 0.0   # noise below zero: clamped
    assert theory.estimate_intersection(1000, 3, 100.0, 80.0, 90.0) == 80.0   # never above the smaller set
    assert math.isnan(theory.estimate_intersection(1000, 3, 100.0, 80.0, math.inf))


def test_intersection_from_bits():
    m, k = 10_000, 3
    same = theory.estimate_intersection_from_bits(m, k, 2000, 2000, 2000)
    assert same == pytest.approx(theory.estimate_count(m, k, 2000))
    disjointish = theory.estimate_intersection_from_bits(m, k, 1000, 1000, 1800)
    expected = 2 * theory.estimate_count(m, k, 1000) - theory.estimate_union(m, k, 1800)
    assert disjointish == pytest.approx(expected) and disjointish > 0
    assert math.isnan(theory.estimate_intersection_from_bits(m, k, 9000, 5000, m))


@pytest.mark.parametrize("a, b, u", [(100, 50, 90), (100, 50, 151), (100, 50, 10_001)])
def test_intersection_from_bits_refuses_counts_no_or_can_give(a, b, u):
    with pytest.raises(ValueError, match=str(u)):
        theory.estimate_intersection_from_bits(10_000, 3, a, b, u)


# --- Wilson interval ----------------------------------------------------------------------------------------
def test_wilson_known_values():
    # 5 of 10 at 95 %: 0.5 ∓ 1.96·sqrt(0.025 + 0.009604)/1.38416 -> [0.2366, 0.7634]; 0 of 10 -> [0, 0.2775]
    low, high = theory.wilson_interval(5, 10)
    assert (low, high) == pytest.approx((0.23659, 0.76341), abs=1e-5)
    assert theory.wilson_interval(0, 10) == pytest.approx((0.0, 0.27754), abs=1e-5)
    assert theory.wilson_interval(0, 10)[0] == 0.0 and theory.wilson_interval(10, 10)[1] == 1.0
    assert theory.wilson_interval(0, 0) == (0.0, 1.0)


def wilson_textbook(hits: int, trials: int, z: float) -> tuple[float, float]:
    with localcontext() as ctx:
        ctx.prec = 50
        t, z = Decimal(trials), Decimal(z)
        p = Decimal(hits) / t
        d = 1 + z * z / t
        c = (p + z * z / (2 * t)) / d
        h = z * (p * (1 - p) / t + z * z / (4 * t * t)).sqrt() / d
        return float(c - h), float(c + h)


@FEW
@given(trials=st.integers(1, 10 ** 12), frac=st.floats(0, 1), z=st.floats(0.5, 4))
def test_wilson_contains_the_estimate_and_matches_the_textbook_form(trials, frac, z):
    hits = round(frac * trials)
    low, high = theory.wilson_interval(hits, trials, z)
    assert 0.0 <= low <= hits / trials <= high <= 1.0
    ref_low, ref_high = wilson_textbook(hits, trials, z)
    assert low == pytest.approx(ref_low, rel=1e-9, abs=1e-40)  # the reference leaves ~1e-55 at 0 hits
    assert high == pytest.approx(ref_high, rel=1e-9, abs=0)


def test_wilson_one_hit_in_a_trillion_keeps_its_low_end():
    low, high = theory.wilson_interval(1, 10 ** 12)
    assert 0.0 < low < 1e-12 < high
    assert low == pytest.approx(wilson_textbook(1, 10 ** 12, 1.96)[0], rel=1e-9, abs=0)


def test_wilson_wider_z_gives_a_wider_interval():
    narrow, wide = theory.wilson_interval(30, 100, 1.0), theory.wilson_interval(30, 100, 3.0)
    assert wide[0] < narrow[0] < 0.3 < narrow[1] < wide[1]
