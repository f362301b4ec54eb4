"""The exact false-positive rate E[(X/m)^k]: against exact rational arithmetic, against an 800-digit reference
for huge filters, the whole-curve path against the scalar one, and the designs derived from it."""

from __future__ import annotations

import math
from decimal import Decimal, localcontext
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest

from bloomviz.theory import exact_rate

from bloomviz.theory import rates as theory


# --- references ---------------------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def occupancy(m: int, balls: int) -> tuple[Fraction, ...]:
    """Pr(X = x) for x = 0…m after ``balls`` uniform positions, exactly (one ball at a time)."""
    dist = [Fraction(0)] * (m + 1)
    dist[0] = Fraction(1)
    for _ in range(balls):
        new = [Fraction(0)] * (m + 1)
        for x, p in enumerate(dist):
            if p:
                new[x] += p * Fraction(x, m)
                if x < m:
                    new[x + 1] += p * Fraction(m - x, m)
        dist = new
    return tuple(dist)


def rational_fp(m: int, k: int, n: int) -> Fraction:
    return sum((p * Fraction(x, m) ** k for x, p in enumerate(occupancy(m, k * n))), Fraction(0))


def stirling2(k: int, j: int) -> int:
    return sum((-1) ** i * math.comb(j, i) * (j - i) ** k for i in range(j + 1)) // math.factorial(j)


def decimal_fp(m: int, k: int, n: int, digits: int = 800) -> Decimal:
    """Σ_j S(k,j)(m)_j/m^k · Σ_i (-1)^i C(j,i)(1 - i/m)^{kn}: the inclusion-exclusion form, whose cancellation
    800 digits absorb for every case below (the double-precision code never uses this form)."""
    with localcontext() as ctx:
        ctx.prec = digits
        total = Decimal(0)
        for j in range(1, min(k, m) + 1):
            falling = math.prod(range(m - j + 1, m + 1))
            weight = Decimal(stirling2(k, j) * falling) / Decimal(m) ** k
            hit_all = sum((Decimal((-1) ** i * math.comb(j, i)) * (1 - Decimal(i) / Decimal(m)) ** (k * n)
                           for i in range(j + 1)), Decimal(0))
            total += weight * hit_all
        return total


# --- the values -------------------------------------------------------------------------------------------
SMALL = [(m, k, n) for m in (1, 2, 3, 5, 8, 13, 16, 32) for k in (1, 2, 3, 4, 7, 8, 16)
         for n in (0, 1, 2, 3, 5, 8) if k * n <= 128]


@pytest.mark.parametrize("m, k, n", SMALL)
def test_scalar_and_curve_equal_exact_rationals(m, k, n):
    truth = rational_fp(m, k, n)
    for value in (theory.fp_exact(m, k, n), float(theory.fp_exact_curve(m, k, n)[n])):
        assert abs(Fraction(value) - truth) <= truth * Fraction(1, 10 ** 9)


def test_a_curve_equals_exact_rationals_insert_by_insert():
    m, k = 64, 4
    curve = theory.fp_exact_curve(m, k, 40)
    for n in range(41):
        truth = rational_fp(m, k, n)
        assert abs(Fraction(float(curve[n])) - truth) <= truth * Fraction(1, 10 ** 9)


def test_the_issue_s_numbers():
    assert theory.fp_exact(32, 4, 5) == pytest.approx(0.0517025, abs=5e-8)
    assert theory.fp_classic(32, 4, 5) == pytest.approx(0.0488179, abs=5e-8)
    gaps = {(8, 2, 1): 0.029, (16, 3, 2): 0.063, (64, 4, 8): 0.030, (16, 8, 1): -0.38}
    for (m, k, n), gap in gaps.items():
        # "the true rate is above the classic curve by 6.3 %" read as classic/exact - 1 for the -38 % case
        ratio = theory.fp_exact(m, k, n) / theory.fp_classic(m, k, n) - 1
        if gap < 0:
            ratio = theory.fp_classic(m, k, n) / theory.fp_exact(m, k, n) - 1
        assert ratio == pytest.approx(gap, abs=0.0035)


@pytest.mark.parametrize("m, k, n", [(2 ** 32, 20, 440_000_000), (2 ** 32, 20, 1000), (2 ** 32, 64, 1),
                                     (2 ** 32, 4, 10 ** 9), (2 ** 34, 7, 10 ** 10), (10 ** 10, 2, 158),
                                     (4096, 64, 16384), (4093, 33, 7)])
def test_huge_and_extreme_filters_against_800_digits(m, k, n):
    ref = decimal_fp(m, k, n)
    value = theory.fp_exact(m, k, n)
    if ref > Decimal("1e-300"):
        # the README's and rates' "to 1e-10, for any m up to 2^34 and n up to 10^10" (seen: below 2e-14)
        assert Decimal(value) == pytest.approx(ref, rel=Decimal("1e-10"))
    # the logarithm keeps its digits where the rate itself underflows (k = 64, one item: ~1e-502)
    assert theory.log_fp_exact(m, k, n) == pytest.approx(float(ref.ln()), rel=1e-12)


def test_curve_agrees_with_single_values_at_a_large_filter():
    m, k = 9_585_059, 7
    curve = theory.fp_exact_curve(m, k, 1_000_000)
    for n in (1, 7, 999, 65_536, 500_001, 1_000_000):
        assert curve[n] == pytest.approx(theory.fp_exact(m, k, n), rel=1e-9)
    assert curve[0] == 0.0 and np.all(np.diff(curve) >= 0)


def test_fp_exact_at_any_order_and_beyond_the_cache():
    ns = np.array([5, 1, 5, 0, 30])
    got = exact_rate.fp_exact_at(32, 4, ns)
    assert got.tolist() == [theory.fp_exact(32, 4, int(v)) for v in ns] or \
        np.allclose(got, [theory.fp_exact(32, 4, int(v)) for v in ns], rtol=1e-12)
    far = exact_rate.fp_exact_at(2 ** 32, 20, np.array([440_000_000]))
    assert far[0] == pytest.approx(theory.fp_exact(2 ** 32, 20, 440_000_000), rel=1e-12)


def test_classic_is_below_exact_and_the_bound_above_it_on_a_grid():
    checked = 0
    for m in (2, 3, 7, 16, 64, 100, 256, 1000, 4096):
        for k in (1, 2, 3, 5, 8, 13, 21, 34, 64):
            for n in sorted({1, 2, 3, m // 8 + 1, m // 2 + 1, m, 2 * m, 4 * m}):
                exact = theory.fp_exact(m, k, n)
                assert theory.fp_classic(m, k, n) <= exact * (1 + 1e-12)
                if k >= 2 and exact < 0.999:
                    assert theory.fp_classic(m, k, n) < exact
                assert exact <= theory.fp_bound(m, k, n) * (1 + 1e-12)
                checked += 1
    assert checked > 500


def test_large_filters_make_the_classic_formula_exact_enough():
    # the gap closes as m grows: a student sees it on the plot
    gaps = [theory.fp_exact(m, 7, m // 10) / theory.fp_classic(m, 7, m // 10) - 1 for m in (64, 1024, 10 ** 6)]
    assert gaps[0] > gaps[1] > gaps[2] > 0 and gaps[2] < 1e-4


# --- designs from the exact rate ----------------------------------------------------------------------------
@pytest.mark.parametrize("m", [16, 32, 64, 128])
def test_optimal_k_int_is_the_brute_force_minimiser_of_the_exact_rate(m):
    for n in range(1, m // 2 + 1):
        logs = [theory.log_fp_exact(m, k, n) for k in range(1, 65)]
        best = min(range(64), key=lambda i: (logs[i], i)) + 1
        assert theory.optimal_k_int(m, n) == best, (m, n)


def test_the_classic_optimum_is_worse_at_m_64_n_1():
    classic_k = min(range(1, 65), key=lambda k: (theory.fp_classic(64, k, 1), k))
    best = theory.optimal_k_int(64, 1)
    assert best < classic_k
    assert theory.fp_exact(64, classic_k, 1) / theory.fp_exact(64, best, 1) > 1.9   # the issue's +97 %


def test_capacity_is_exact():
    for m, k, p in [(64, 4, 0.05), (9_585_059, 7, 0.01), (1000, 3, 1e-4), (2 ** 32, 20, 0.0633)]:
        n = theory.capacity_for(m, k, p)
        assert theory.fp_exact(m, k, n) <= p < theory.fp_exact(m, k, n + 1)


@pytest.mark.parametrize("n, p", [(5, 0.01), (1, 0.1), (30, 0.001), (1_000_000, 0.01)])
def test_the_smallest_exact_design_meets_p_and_one_bit_less_does_not(n, p):
    from bloomviz.theory.calculator import smallest_exact_design
    m_min, k_min = smallest_exact_design(n, p)
    assert theory.fp_exact(m_min, k_min, n) <= p
    if n < 100:   # one bit less misses p at every k (checked by brute force where it is cheap)
        assert min(theory.fp_exact(m_min - 1, k, n) for k in range(1, 65)) > p
    else:
        assert theory.fp_exact(m_min - 1, theory.optimal_k_int(m_min - 1, n), n) > p


def test_calc_keeps_the_textbook_headline_and_adds_the_exact_answers(capsys):
    import json

    from bloomviz.cli import main
    assert main(["calc", "--n", "1e6", "--p", "0.01", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["k"], data["m"]) == (7, 9_585_059)
    assert data["fp_exact"] == pytest.approx(theory.fp_exact(9_585_059, 7, 1_000_000), rel=1e-12)
    assert data["fp_classic"] == pytest.approx(theory.fp_classic(9_585_059, 7, 1_000_000), rel=1e-12)
    assert data["fp_exact"] > 0.01 and theory.fp_exact(data["m_min"], data["k_min"], 1_000_000) <= 0.01
    assert main(["calc", "--n", "5", "--p", "0.01"]) == 0
    text = capsys.readouterr().out
    assert "Bloom's formula (classic)" in text and "smallest m with exact ≤ p" in text


def test_a_scalable_filter_from_capacity_one_stays_within_p():
    from bloomviz.filters.scalable_stages import scalable_fp
    rates = scalable_fp(1, 0.01, np.arange(0, 5000), 2, 0.9)
    assert float(np.max(rates)) <= 0.01


def test_smallest_m_is_the_first_m_meeting_p_from_any_lower_start():
    for k, n, p in [(3, 5, 0.05), (7, 1000, 0.01), (10, 1, 0.001)]:
        m = theory.smallest_m(k, n, p)
        assert theory.fp_exact(m, k, n) <= p < theory.fp_exact(m - 1, k, n)
        assert theory.smallest_m(k, n, p, lowest=max(1, m // 3)) == m
    assert theory.smallest_m(64, 10 ** 10, 1e-12) is None


@pytest.mark.parametrize("m, k, n_max", [(95_850_584, 7, 300_000), (1_000, 3, 5_000), (32, 4, 200), (100, 1, 400)])
def test_points_equal_the_curve_and_the_scalar_kernel(m, k, n_max):
    from bloomviz.theory.exact_rate import fp_exact_curve, fp_exact_kernel, fp_exact_points
    curve = fp_exact_curve(m, k, n_max)
    ns = np.unique(np.random.default_rng(3).integers(0, n_max + 1, 400))
    got = fp_exact_points(m, k, ns)
    np.testing.assert_allclose(got, curve[ns], rtol=1e-12, atol=0)
    for n in ns[::40]:
        assert got[list(ns).index(n)] == pytest.approx(fp_exact_kernel(m, k, int(n)), rel=1e-12)
    assert fp_exact_points(m, k, np.array([0]))[0] == 0.0


def test_fp_exact_at_by_points_never_grows_the_cached_curve():
    from bloomviz.theory import exact_rate
    m, k = 9_585_061, 7                      # an (m, k) no other test caches
    exact_rate._CURVE_CACHE.pop((m, k), None)
    got = exact_rate.fp_exact_at(m, k, np.array([10, 5_000_000]), points=True)
    assert (m, k) not in exact_rate._CURVE_CACHE
    np.testing.assert_allclose(got, [exact_rate.fp_exact_kernel(m, k, 10), exact_rate.fp_exact_kernel(m, k, 5_000_000)],
                               rtol=1e-12)
    short = exact_rate.fp_exact_at(m, k, np.array([100]))   # a cached curve that reaches n is read as it is
    assert exact_rate.fp_exact_at(m, k, np.array([100]), points=True)[0] == short[0]
