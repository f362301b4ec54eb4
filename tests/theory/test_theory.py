"""Theory: closed forms against hand-computed values and 60-digit decimal references, their properties, and
the argument checks shared with the filters. The exact rate's own references are in test_exact_rate.py."""

from __future__ import annotations

import inspect
import math
from decimal import Decimal, localcontext

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bloomviz.theory import rates as theory

from bloomviz.theory import validate

FEW = settings(max_examples=50, deadline=None)


# --- high-precision references: Decimal powers and exponentials, no log1p/expm1 --------------------------
def ref_classic(m: int, k: int, n: int) -> float:
    with localcontext() as ctx:
        ctx.prec = 60
        q = (1 - Decimal(1) / Decimal(m)) ** (k * int(n))
        return float((1 - q) ** k)


def ref_approx(m: int, k: int, n: int) -> float:
    with localcontext() as ctx:
        ctx.prec = 60
        return float((1 - (-Decimal(k * int(n)) / Decimal(m)).exp()) ** k)


def ref_bound(m: int, k: int, n: int) -> float:
    with localcontext() as ctx:
        ctx.prec = 60
        return float((1 - (-(k * (Decimal(int(n)) + Decimal("0.5"))) / Decimal(m - 1)).exp()) ** k)


def ref_fill(m: int, k: int, n: int) -> float:
    with localcontext() as ctx:
        ctx.prec = 60
        return float(1 - (1 - Decimal(1) / Decimal(m)) ** (k * int(n)))


# --- the Kedmi example: 512 MiB of bits, k = 20 ------------------------------------------------------------
M_512MIB = 512 * 1024 * 1024 * 8
# The article prints each rate cut after its last digit ("~7.16e-11" for 7.1696e-11): (n, printed, one unit).
KEDMI = [(440_000_000, 0.063, 0.001), (220_000_000, 0.000137, 1e-6),
         (110_000_000, 1.14e-08, 1e-10), (80_000_000, 7.16e-11, 1e-13)]


@pytest.mark.parametrize("n, printed, unit", KEDMI)
def test_kedmi_example_matches_the_reference_and_the_article(n, printed, unit):
    assert M_512MIB == 2 ** 32
    fp = theory.fp_classic(M_512MIB, 20, n)
    assert fp == pytest.approx(ref_classic(M_512MIB, 20, n), rel=1e-12, abs=0)
    assert printed <= fp < printed + unit
    # at m = 2**32 the exact rate is the classic one to 5e-9 relative: the article's figures hold for both
    exact = theory.fp_exact(M_512MIB, 20, n)
    assert exact > fp and exact == pytest.approx(fp, rel=5e-8) and printed <= exact < printed + unit
    assert theory.fp_approx(M_512MIB, 20, n) == pytest.approx(ref_approx(M_512MIB, 20, n), rel=1e-12, abs=0)
    assert theory.fp_bound(M_512MIB, 20, n) == pytest.approx(ref_bound(M_512MIB, 20, n), rel=1e-12, abs=0)


def test_float_item_count_as_written_in_the_issue():
    assert theory.fp_exact(2 ** 32, 20, 4.4e8) == theory.fp_exact(2 ** 32, 20, 440_000_000)
    assert theory.fp_exact(2 ** 32, 20, np.float64(4.4e8)) == theory.fp_exact(2 ** 32, 20, np.int64(440_000_000))


# --- tiny and extreme rates --------------------------------------------------------------------------------
EXTREME = [
    (10 ** 10, 1, 1),                # 1e-10: 1 - (1 - 1/m) in floats keeps only 7 digits of 1/m
    (10 ** 10, 2, 158),              # ~1e-15
    (2 ** 34, 2, 1),                 # ~1.4e-20
    (9_999_999_967, 3, 5),
    (2 ** 33 + 1, 20, 1_000_000),    # ~1e-53
    (2 ** 34, 1, 10 ** 10),          # n at its largest stated size
    (2 ** 34, 7, 10 ** 10),          # a nearly full filter
    (2 ** 34, 64, 10 ** 10),
]


@pytest.mark.parametrize("m, k, n", EXTREME)
def test_extreme_rates_keep_their_digits(m, k, n):
    classic = theory.fp_classic(m, k, n)
    assert 0.0 < classic < 1.0
    assert classic == pytest.approx(ref_classic(m, k, n), rel=1e-12, abs=0)
    assert theory.fill_expected(m, k, n) == pytest.approx(ref_fill(m, k, n), rel=1e-12, abs=0)
    assert theory.fp_approx(m, k, n) == pytest.approx(ref_approx(m, k, n), rel=1e-12, abs=0)
    assert theory.fp_bound(m, k, n) == pytest.approx(ref_bound(m, k, n), rel=1e-12, abs=0)


def test_the_tiny_case_is_one_where_the_naive_formula_fails():
    m, k, n = 10 ** 10, 1, 1
    naive = (1 - (1 - 1 / m) ** (k * n)) ** k
    assert naive != pytest.approx(ref_classic(m, k, n), rel=1e-9, abs=0)
    assert theory.fp_classic(m, k, n) == pytest.approx(ref_classic(m, k, n), rel=1e-14, abs=0)
    assert theory.fp_exact(m, k, n) == pytest.approx(ref_classic(m, k, n), rel=1e-14, abs=0)  # k = 1: the same


def test_small_m_tells_the_four_formulas_apart():
    m, k, n = 10, 2, 3
    classic, approx, bound = theory.fp_classic(m, k, n), theory.fp_approx(m, k, n), theory.fp_bound(m, k, n)
    # by hand: (1 - 0.9^6)^2 = 0.468559^2; (1 - e^-0.6)^2 = 0.451188^2; (1 - e^-7/9)^2 = 0.540574^2
    assert classic == pytest.approx(0.468559 ** 2, rel=1e-6)
    assert approx == pytest.approx(0.4511884 ** 2, rel=1e-6)
    assert bound == pytest.approx(0.5405742 ** 2, rel=1e-6)
    # exact: E[(X/10)^2] = (E[X]^2 + Var X)/100; by hand from the occupancy of 6 balls in 10 bins,
    # E[X] = 10(1 - 0.9^6) = 4.68559, E[X(X-1)] = 90(1 - 2·0.9^6 + 0.8^6) = 19.45323... -> 0.2426436
    assert theory.fp_exact(m, k, n) == pytest.approx((90 * (1 - 2 * 0.9 ** 6 + 0.8 ** 6) + 10 * (1 - 0.9 ** 6))
                                                     / 100, rel=1e-12)
    assert approx < classic < theory.fp_exact(m, k, n) < bound


def test_empty_and_one_bit_filters():
    assert theory.fp_exact(1000, 5, 0) == 0.0
    assert theory.fp_approx(1000, 5, 0) == 0.0
    assert theory.fill_expected(1000, 5, 0) == 0.0
    assert theory.fill_expected(1, 3, 0) == 0.0 and theory.fp_exact(1, 3, 0) == 0.0
    assert theory.fill_expected(1, 3, 1) == 1.0 and theory.fp_exact(1, 3, 1) == 1.0
    assert theory.fp_bound(1, 3, 0) == 1.0 and theory.fp_bound(1, 3, 5) == 1.0  # the limit m -> 1, documented
    assert 0.0 < theory.fp_bound(1000, 5, 0) < 1e-6


# --- properties ----------------------------------------------------------------------------------------------
ms = st.integers(2, 2 ** 34)
ks = st.integers(1, 64)
ns = st.integers(0, 10 ** 10)


NEAR = 1 + 1e-12   # near a rate of 1 the formulas round to within a few ulps of each other


@FEW
@given(m=ms, k=ks, n=ns)
def test_approx_le_classic_le_exact_le_bound(m, k, n):
    classic, exact = theory.fp_classic(m, k, n), theory.fp_exact(m, k, n)
    assert theory.fp_approx(m, k, n) <= classic * NEAR
    assert classic <= exact * NEAR and exact <= theory.fp_bound(m, k, n) * NEAR and theory.fp_bound(m, k, n) <= 1


@FEW
@given(m=st.integers(1000, 2 ** 34), k=ks, n=ns)
def test_approx_is_within_k_over_m_of_exact_for_large_m(m, k, n):
    # ln(1 - 1/m) = -(1/m)(1 + 1/(2m) + ...), so the relative gap in the rate is at most about k/(2m)
    classic, approx = theory.fp_classic(m, k, n), theory.fp_approx(m, k, n)
    assert abs(classic - approx) <= classic * k / m + 1e-300


@FEW
@given(m=ms, k=ks, n=st.integers(0, 10 ** 9), step=st.integers(1, 10 ** 6))
def test_rate_and_fill_grow_with_n(m, k, n, step):
    assert theory.fp_exact(m, k, n) <= theory.fp_exact(m, k, n + step) * NEAR
    assert theory.fill_expected(m, k, n) <= theory.fill_expected(m, k, n + step)


@FEW
@given(m=st.integers(1, 2 ** 32), k=ks, n=st.integers(1, 10 ** 9), factor=st.integers(2, 4))
def test_rate_falls_with_m(m, k, n, factor):
    assert theory.fp_exact(m * factor, k, n) <= theory.fp_exact(m, k, n) * NEAR


@FEW
@given(m=ms, k=ks, n=ns)
def test_classic_rate_is_the_fill_to_the_k(m, k, n):
    assert theory.fp_classic(m, k, n) == pytest.approx(theory.fill_expected(m, k, n) ** k, rel=1e-15, abs=0)


# --- choosing parameters ---------------------------------------------------------------------------------
def test_optimal_params_textbook_example():
    # -1e6 ln(0.01) / (ln 2)^2 = 4605170.19 / 0.480453 = 9585058.4 -> 9,585,059; log2(100) = 6.64 -> 7
    assert theory.optimal_params(1_000_000, 0.01) == (7, 9_585_059)
    assert theory.optimal_params(1e6, 0.01) == (7, 9_585_059)


@pytest.mark.parametrize("n, p", [(1000, 0.001), (1, 0.5), (32_768, 0.001), (10 ** 9, 1e-6), (7, 0.3)])
def test_optimal_params_against_decimal(n, p):
    with localcontext() as ctx:
        ctx.prec = 50
        ln_p = Decimal(p).ln()
        m_ref = math.ceil(-Decimal(n) * ln_p / Decimal(2).ln() ** 2)
        k_ref = math.ceil(-ln_p / Decimal(2).ln())
    assert theory.optimal_params(n, p) == (k_ref, m_ref)


def test_optimal_params_powers_of_two_give_exact_k():
    for e in (1, 2, 3, 10, 30):
        assert theory.optimal_params(100, 2.0 ** -e)[0] == e


def test_optimal_params_does_not_cap():
    k, m = theory.optimal_params(10 ** 10, 1e-25)
    assert k == 84 and m > 2 ** 34


def test_optimal_k_real():
    assert theory.optimal_k(9_585_059, 1_000_000) == pytest.approx(9.585059 * math.log(2), rel=1e-15, abs=0)
    assert theory.optimal_k(2 ** 32, 440_000_000) == pytest.approx(2 ** 32 / 4.4e8 * 0.6931471805599453)


@pytest.mark.parametrize("func", [theory.optimal_k, theory.optimal_k_int])
def test_optimal_k_refuses_an_empty_set(func):
    with pytest.raises(ValueError, match="n = 0"):
        func(1000, 0)


@FEW
@given(n=st.integers(1, 10 ** 6), bits_per_item=st.floats(0.5, 60))
def test_optimal_k_int_is_the_best_integer(n, bits_per_item):
    m = max(1, min(2 ** 34, round(n * bits_per_item)))
    rates = [theory.fp_exact(m, k, n) for k in range(1, 65)]
    best = theory.optimal_k_int(m, n)
    assert rates[best - 1] == min(rates)
    assert best <= max(1, math.ceil(theory.optimal_k(m, n)))  # never above the classic optimum


def test_optimal_k_int_clamps_and_edges():
    assert theory.optimal_k_int(2 ** 34, 1) == 64    # the real optimum is ~1.2e10
    assert theory.optimal_k_int(1000, 1000) == 1      # the real optimum is 0.69
    assert theory.optimal_k_int(1, 5) == 1            # every k gives rate 1
    assert theory.optimal_k_int(9_585_059, 1_000_000) == 7
    assert theory.fp_exact(9_585_059, 7, 1_000_000) < theory.fp_exact(9_585_059, 6, 1_000_000)


@FEW
@given(m=st.integers(1, 2 ** 34), k=st.integers(1, 30), p=st.floats(1e-12, 0.5))
def test_capacity_is_the_largest_n_at_rate_p(m, k, p):
    n = theory.capacity_for(m, k, p)
    assert n == 0 or theory.fp_exact(m, k, n) <= p
    assert theory.fp_exact(m, k, n + 1) > p


def test_capacity_edges():
    assert theory.capacity_for(1, 3, 0.5) == 0
    assert theory.capacity_for(100, 10, 1e-12) == 0
    n = theory.capacity_for(2 ** 34, 64, float(np.nextafter(1.0, 0.0)))  # 1 - p^(1/k) would round to 0
    assert 0 < n < 2 ** 53 and theory.fp_exact(2 ** 34, 64, n + 1) > float(np.nextafter(1.0, 0.0))


def test_textbook_design_lands_just_above_p_at_integer_k():
    # (k, m) from optimal_params meet p only at the real k*; at k = 7 the rate is 1.0039 %, so the capacity
    # at p is slightly below n. Callers that promise "rate <= p" must check.
    k, m = theory.optimal_params(1_000_000, 0.01)
    assert theory.fp_exact(m, k, 1_000_000) == pytest.approx(0.010039, rel=1e-4)
    assert 990_000 < theory.capacity_for(m, k, 0.01) < 1_000_000


def test_fp_for_k_range_matches_the_scalars_and_finds_the_optimum():
    m, n = 20_000, 1000
    table = theory.fp_for_k_range(m, n, range(1, 31))
    assert table["k"].tolist() == list(range(1, 31))
    for i, k in enumerate(range(1, 31)):
        assert table["fp_exact"][i] == theory.fp_exact(m, k, n)
        assert table["fp_approx"][i] == theory.fp_approx(m, k, n)
        assert table["fp_bound"][i] == theory.fp_bound(m, k, n)
    assert int(table["k"][np.argmin(table["fp_exact"])]) == theory.optimal_k_int(m, n) == 14
    assert theory.fp_for_k_range(m, 0, [3])["fp_exact"].tolist() == [0.0]


def test_scalable_bound():
    assert theory.scalable_fp_bound(0.01, 0.9) == pytest.approx(0.1)
    assert theory.scalable_fp_bound(0.01, 0.5) == pytest.approx(0.02)
    assert theory.scalable_fp_bound(0.2, 0.0) == pytest.approx(0.2)
    assert theory.scalable_fp_bound(0.5, 0.95) == 1.0  # capped: 10 would say nothing


# --- space ----------------------------------------------------------------------------------------------------
def test_bits_per_element():
    assert theory.bits_per_element(9_585_059, 1_000_000) == pytest.approx(9.585059)
    assert theory.bits_per_element(100, 0) == math.inf
    assert theory.lower_bound_bits_per_element(0.01) == pytest.approx(6.643856189774724)
    assert theory.lower_bound_bits_per_element(2.0 ** -10) == 10.0
    assert theory.bloom_bits_per_element(2.0 ** -10) == pytest.approx(14.426950408889634)


@FEW
@given(p=st.floats(1e-15, 0.9))
def test_bloom_spends_log2_e_times_the_lower_bound_and_matches_the_design(p):
    bloom, lower = theory.bloom_bits_per_element(p), theory.lower_bound_bits_per_element(p)
    assert bloom / lower == pytest.approx(1.4426950408889634, rel=1e-12, abs=0)
    n = 10 ** 8
    assert theory.optimal_params(n, p)[1] / n == pytest.approx(bloom, rel=1e-7)


# --- argument checks ----------------------------------------------------------------------------------------
NAN, INF = float("nan"), float("inf")
BAD = {
    "m": [(0, ValueError), (-1, ValueError), (2 ** 34 + 1, ValueError), (1.5, TypeError), (1e6, TypeError),
          (True, TypeError), (np.bool_(True), TypeError), ("100", TypeError), (None, TypeError),
          (NAN, TypeError), (INF, TypeError)],
    "k": [(0, ValueError), (65, ValueError), (-3, ValueError), (2.0, TypeError), (False, TypeError),
          ("7", TypeError), (None, TypeError)],
    "n": [(-1, ValueError), (2.5, ValueError), (NAN, ValueError), (INF, ValueError), (-INF, ValueError),
          (2 ** 53 + 1, ValueError), (1e17, ValueError), (True, TypeError), ("10", TypeError), (None, TypeError)],
    "p": [(0, ValueError), (1, ValueError), (0.0, ValueError), (1.0, ValueError), (-0.1, ValueError),
          (1.5, ValueError), (NAN, ValueError), (INF, ValueError), (True, TypeError), ("0.01", TypeError),
          (None, TypeError)],
}
BAD["p0"] = BAD["p"]
BAD["n_max"] = BAD["n"]
GOOD = {"m": 1000, "k": 3, "n": 100, "n_max": 100, "p": 0.01, "p0": 0.01, "r": 0.5, "ks": [1, 2, 3], "bits_set": 10,
        "bits_set_union": 10, "bits_a": 10, "bits_b": 10, "bits_union": 15, "n_a": 5.0, "n_b": 5.0,
        "n_union": 8.0, "hits": 1, "trials": 10}


def _bad_calls():
    for name in theory.__all__:
        func = getattr(theory, name)
        params = inspect.signature(func).parameters
        for param in params:
            kind = "k" if param == "ks" else param
            for bad, exc in BAD.get(kind, []):
                args = {p: GOOD[p] for p in params if p in GOOD}
                args[param] = [bad] if param == "ks" else bad
                yield pytest.param(func, args, bad, exc, id=f"{name}-{param}={bad!r}")


@pytest.mark.parametrize("func, args, bad, exc", list(_bad_calls()))
def test_every_bad_argument_is_refused_naming_it(func, args, bad, exc):
    with pytest.raises(exc) as err:
        func(**args)
    message = str(err.value)
    assert repr(bad) in message or str(bad) in message


OTHER_BAD = [
    (theory.optimal_params, dict(n=0, p=0.01), ValueError, "0"),
    (theory.estimate_count, dict(m=1000, k=3, bits_set=1001), ValueError, "1001"),
    (theory.estimate_count, dict(m=1000, k=3, bits_set=-1), ValueError, "-1"),
    (theory.estimate_count, dict(m=1000, k=3, bits_set=10.0), TypeError, "10.0"),
    (theory.estimate_union, dict(m=1000, k=3, bits_set_union=True), TypeError, "True"),
    (theory.estimate_intersection, dict(m=1000, k=3, n_a=-1.0, n_b=1.0, n_union=1.0), ValueError, "-1.0"),
    (theory.estimate_intersection, dict(m=1000, k=3, n_a=NAN, n_b=1.0, n_union=1.0), ValueError, "nan"),
    (theory.estimate_intersection, dict(m=1000, k=3, n_a="5", n_b=1.0, n_union=1.0), TypeError, "'5'"),
    (theory.estimate_intersection_from_bits, dict(m=100, k=3, bits_a=101, bits_b=1, bits_union=101),
     ValueError, "101"),
    (theory.wilson_interval, dict(hits=11, trials=10), ValueError, "11"),
    (theory.wilson_interval, dict(hits=-1, trials=10), ValueError, "-1"),
    (theory.wilson_interval, dict(hits=1, trials=-10), ValueError, "-10"),
    (theory.wilson_interval, dict(hits=1.0, trials=10), TypeError, "1.0"),
    (theory.wilson_interval, dict(hits=1, trials=10, z=0), ValueError, "0"),
    (theory.wilson_interval, dict(hits=1, trials=10, z=NAN), ValueError, "nan"),
    (theory.wilson_interval, dict(hits=1, trials=10, z="2"), TypeError, "'2'"),
    (theory.scalable_fp_bound, dict(p0=0.01, r=1.0), ValueError, "1.0"),
    (theory.scalable_fp_bound, dict(p0=0.01, r=-0.1), ValueError, "-0.1"),
    (theory.scalable_fp_bound, dict(p0=0.01, r=None), TypeError, "None"),
]


@pytest.mark.parametrize("func, args, exc, shown", OTHER_BAD,
                         ids=[f"{f.__name__}-{a}" for f, a, _, _ in OTHER_BAD])
def test_other_bad_arguments(func, args, exc, shown):
    with pytest.raises(exc, match=f"got {shown}"):
        func(**args)


def test_validators_normalise():
    assert validate.check_m(np.int64(5)) == 5 and type(validate.check_m(np.int64(5))) is int
    assert validate.check_m(1) == 1 and validate.check_m(2 ** 34) == 2 ** 34
    assert validate.check_k(np.uint8(64)) == 64 and type(validate.check_k(np.uint8(64))) is int
    assert validate.check_n(4.4e8) == 440_000_000 and type(validate.check_n(4.4e8)) is int
    assert validate.check_n(np.float64(1e6)) == 1_000_000
    assert validate.check_n(0) == 0 and validate.check_n(2 ** 53) == 2 ** 53
    assert validate.check_p(np.float32(0.25)) == 0.25 and type(validate.check_p(np.float32(0.25))) is float
    assert validate.check_p(1e-300) == 1e-300


def test_validators_explain_the_refusal():
    with pytest.raises(TypeError, match=r"floats are not accepted.*got 1\.5"):
        validate.check_m(1.5)
    with pytest.raises(ValueError, match=r"m must be an integer in \[1, 2\*\*34\], got 0"):
        validate.check_m(0)
    with pytest.raises(ValueError, match=r"\[1, 2\*\*53\], got 0"):
        validate.check_n(0, allow_zero=False)
    with pytest.raises(ValueError, match=r"0 < p < 1, got 1\.0"):
        validate.check_p(1.0)
