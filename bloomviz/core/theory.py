"""Closed forms for Bloom filters: false-positive rates, optimal parameters, size estimates, intervals.

Pure functions of plain numbers: no state, no Qt. m = bits, k = hash functions, n = items inserted,
p = a false-positive rate, X = bits set to 1.

    P(a given bit is still 0)   q      = (1 - 1/m)^{kn}
    expected fill               f      = 1 - q
    exact rate                  fp     = (1 - (1 - 1/m)^{kn})^k            (independent, uniform positions)
    approximation               fp     ≈ (1 - e^{-kn/m})^k                 (the textbook form, m large)
    finite-m upper bound        fp     ≤ (1 - e^{-k(n + 1/2)/(m - 1)})^k   (half an item more, one bit less)
    optimal k (real)            k*     = (m/n) ln 2 for the approximation; ln 2 / (-n ln(1 - 1/m)) for the exact form
    design for n items at p     k      = ceil(log2(1/p)),   m = ceil(-n ln p / (ln 2)^2)
    bits per item               Bloom  m/n = log2(e) · log2(1/p) ≈ 1.44 log2(1/p);   lower bound log2(1/p)
    estimated count             n*     = -(m/k) ln(1 - X/m)                 (Swamidass & Baldi 2007)
    union / intersection        |A∪B|* = n*(X of A|B),   |A∩B|* = |A|* + |B|* - |A∪B|*
    Wilson interval             (c ∓ h) with d = 1 + z²/t, c = (p̂ + z²/2t)/d, h = z·sqrt(p̂(1-p̂)/t + z²/4t²)/d
    scalable filter             rate ≤ Σ p0·r^i = p0 / (1 - r)              (Almeida et al. 2007)

Numerics (m up to 2^34, n up to 10^10, rates down to 1e-15 and below):
  - (1 - 1/m)^{kn} is exp(k·n·log1p(-1/m)): forming 1 - 1/m first would round away most digits of 1/m.
  - 1 - e^x is -expm1(x): near x = 0 (a nearly empty filter) the subtraction would cancel to 0.
  - The k-th power is taken with ``**`` (libm pow, within an ulp) on a base computed as above; the base is
    where precision is lost, not the power. It reaches 0.0 only where the true rate is below ~1e-308.
  - Comparisons between rates (optimal integer k) are made on k·ln(fill), which never underflows.
  - Wilson's low end c - h cancels when hits are few; it is taken as p̂²/(d·(c + h)), the same number.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from bloomviz.core.validate import check_count, check_k, check_m, check_n, check_p, check_real

LN2 = math.log(2.0)
LOG2_E = 1.0 / LN2

__all__ = [
    "fp_exact", "fp_approx", "fp_bound", "fill_expected", "optimal_k", "optimal_k_int", "optimal_params",
    "bits_per_element", "lower_bound_bits_per_element", "bloom_bits_per_element", "estimate_count",
    "estimate_union", "estimate_intersection", "estimate_intersection_from_bits", "wilson_interval",
    "capacity_for", "fp_for_k_range", "scalable_fp_bound",
]


# --- unchecked kernels (arguments already validated) ------------------------------------------------------
def _log_zero_prob(m: int, k: int, n: int) -> float:
    """ln q = k·n·ln(1 - 1/m); -inf when m = 1 and n > 0 (the only bit is certainly set)."""
    if n == 0:
        return 0.0
    if m == 1:
        return -math.inf
    return k * n * math.log1p(-1.0 / m)


def _fill(m: int, k: int, n: int) -> float:
    return -math.expm1(_log_zero_prob(m, k, n))


def _fp_exact(m: int, k: int, n: int) -> float:
    return _fill(m, k, n) ** k


def _log_fp_exact(m: int, k: int, n: int) -> float:
    fill = _fill(m, k, n)
    return k * math.log(fill) if fill > 0.0 else -math.inf


# --- false-positive rates ---------------------------------------------------------------------------------
def fp_exact(m: int, k: int, n: int) -> float:
    """(1 - (1 - 1/m)^{kn})^k: the rate after n inserts if the k positions are independent and uniform."""
    return _fp_exact(check_m(m), check_k(k), check_n(n))


def fp_approx(m: int, k: int, n: int) -> float:
    """(1 - e^{-kn/m})^k: the usual approximation, close to fp_exact once m is large."""
    m, k, n = check_m(m), check_k(k), check_n(n)
    return (-math.expm1(-(k * n) / m)) ** k


def fp_bound(m: int, k: int, n: int) -> float:
    """(1 - e^{-k(n + 0.5)/(m - 1)})^k: an upper bound on fp_exact for every finite m >= 2.

    For m = 1 the formula divides by zero; its limit as m -> 1 is 1.0, which is returned (a one-bit filter
    answers "maybe" to everything once anything is inserted, and 1 bounds every rate).
    """
    m, k, n = check_m(m), check_k(k), check_n(n)
    if m == 1:
        return 1.0
    return (-math.expm1(-k * (n + 0.5) / (m - 1))) ** k


def fill_expected(m: int, k: int, n: int) -> float:
    """1 - (1 - 1/m)^{kn}: the expected fraction of bits set after n inserts."""
    return _fill(check_m(m), check_k(k), check_n(n))


def fp_for_k_range(m: int, n: int, ks: Iterable[int]) -> dict[str, np.ndarray]:
    """The three rates for each k in ``ks`` at fixed m and n, as arrays for plotting.

    Keys: ``k`` (int64) and ``fp_exact``, ``fp_approx``, ``fp_bound`` (float64), in the order of ``ks``.
    """
    m, n = check_m(m), check_n(n)
    ks = [check_k(k) for k in ks]
    return {
        "k": np.array(ks, dtype=np.int64),
        "fp_exact": np.array([_fp_exact(m, k, n) for k in ks], dtype=np.float64),
        "fp_approx": np.array([fp_approx(m, k, n) for k in ks], dtype=np.float64),
        "fp_bound": np.array([fp_bound(m, k, n) for k in ks], dtype=np.float64),
    }


# --- choosing parameters ----------------------------------------------------------------------------------
def _check_n_for_optimum(n: object) -> int:
    n = check_n(n)
    if n == 0:
        raise ValueError("n must be positive for an optimal k: with no items every k gives a false-positive "
                         "rate of 0, got n = 0")
    return n


def optimal_k(m: int, n: int) -> float:
    """(m/n) ln 2, the real k that minimises the approximate rate.

    n = 0 raises ValueError: with an empty filter every k gives rate 0, so there is no optimum to show.
    """
    m, n = check_m(m), _check_n_for_optimum(n)
    return (m / n) * LN2


def optimal_k_int(m: int, n: int) -> int:
    """The integer k in [1, 64] with the lowest fp_exact(m, k, n); on a tie, the smaller k.

    As a function of real k, fp_exact falls and then rises, with its minimum at k_e = ln 2 / (-n ln(1 - 1/m))
    (a hair below (m/n) ln 2), so the best integer is floor(k_e) or ceil(k_e), clamped to [1, 64].
    n = 0 raises ValueError, as for optimal_k.
    """
    m, n = check_m(m), _check_n_for_optimum(n)
    if m == 1:
        return 1  # the one bit is set by the first item: every k gives rate 1
    k_real = LN2 / (-n * math.log1p(-1.0 / m))
    candidates = sorted({min(64, max(1, c)) for c in (math.floor(k_real), math.ceil(k_real))})
    return min(candidates, key=lambda k: (_log_fp_exact(m, k, n), k))


def optimal_params(n: int, p: float) -> tuple[int, int]:
    """(k, m) for n items at rate p: k = ceil(log2(1/p)), m = ceil(-n ln p / (ln 2)^2).

    The formula's values are returned as they are: k may exceed 64 (p below ~5e-20) and m may exceed 2**34;
    the filter constructors refuse such values with their own messages.
    """
    n, p = check_n(n, allow_zero=False), check_p(p)
    k = max(1, math.ceil(-math.log2(p)))
    m = max(1, math.ceil(-n * math.log(p) / (LN2 * LN2)))
    return k, m


def capacity_for(m: int, k: int, p: float) -> int:
    """The largest n with fp_exact(m, k, n) <= p (0 when even one item exceeds p).

    Closed form, from fill <= p^{1/k}: n <= ln(1 - p^{1/k}) / (k ln(1 - 1/m)), with 1 - p^{1/k} taken as
    -expm1(ln(p)/k) so that p close to 1 with large k stays finite; then nudged by at most a few steps so
    the answer agrees with fp_exact as evaluated here.
    """
    m, k, p = check_m(m), check_k(k), check_p(p)
    if m == 1:
        return 0
    s = -math.expm1(math.log(p) / k)  # 1 - p^{1/k}: the smallest allowed q
    n = max(0, math.floor(math.log(s) / (k * math.log1p(-1.0 / m))))
    for _ in range(64):
        if n > 0 and _fp_exact(m, k, n) > p:
            n -= 1
        elif _fp_exact(m, k, n + 1) <= p:
            n += 1
        else:
            break
    return n


def scalable_fp_bound(p0: float, r: float) -> float:
    """p0 / (1 - r): the compound rate bound of a scalable filter whose i-th stage has rate p0·r^i.

    0 <= r < 1. Capped at 1.0, which a rate cannot exceed (the cap is still an upper bound).
    """
    p0 = check_p(p0)
    r = check_real(r, "r (tightening ratio)", 0.0, 1.0, hi_open=True)
    return min(1.0, p0 / (1.0 - r))


# --- space ------------------------------------------------------------------------------------------------
def bits_per_element(m: int, n: int) -> float:
    """m / n; inf for n = 0 (bits spent on no items)."""
    m, n = check_m(m), check_n(n)
    return math.inf if n == 0 else m / n


def lower_bound_bits_per_element(p: float) -> float:
    """log2(1/p): no structure answering membership with false-positive rate p can use fewer bits per item."""
    return -math.log2(check_p(p))


def bloom_bits_per_element(p: float) -> float:
    """log2(e) · log2(1/p) ≈ 1.44 log2(1/p): what an optimally configured Bloom filter spends per item."""
    return LOG2_E * -math.log2(check_p(p))


# --- estimates from bit counts ----------------------------------------------------------------------------
def estimate_count(m: int, k: int, bits_set: int) -> float:
    """-(m/k) ln(1 - X/m): the number of items that most likely set X bits; inf when every bit is set."""
    m, k = check_m(m), check_k(k)
    x = check_count(bits_set, "bits_set", m, f"m = {m}")
    return _estimate(m, k, x)


def _estimate(m: int, k: int, x: int) -> float:
    return math.inf if x == m else -(m / k) * math.log1p(-x / m)


def estimate_union(m: int, k: int, bits_set_union: int) -> float:
    """|A ∪ B| estimated from the bits set in A | B (the OR of two filters with the same m, k and hashing)."""
    m, k = check_m(m), check_k(k)
    x = check_count(bits_set_union, "bits_set_union", m, f"m = {m}")
    return _estimate(m, k, x)


def estimate_intersection(m: int, k: int, n_a: float, n_b: float, n_union: float) -> float:
    """|A ∩ B| ≈ n_a + n_b - n_union, from the three count estimates (Swamidass & Baldi 2007).

    The result is clamped to [0, min(n_a, n_b)], the range an intersection can have (noise can push the raw
    difference below 0). When n_union is infinite (the union filter is full) nothing can be said: nan.
    """
    check_m(m), check_k(k)
    a = check_real(n_a, "n_a", 0.0, allow_inf=True)
    b = check_real(n_b, "n_b", 0.0, allow_inf=True)
    u = check_real(n_union, "n_union", 0.0, allow_inf=True)
    if math.isinf(u) or math.isinf(a) or math.isinf(b):
        return math.nan
    return min(max(0.0, a + b - u), a, b)


def estimate_intersection_from_bits(m: int, k: int, bits_a: int, bits_b: int, bits_union: int) -> float:
    """|A ∩ B| estimated from the bits set in A, in B and in A | B; see estimate_intersection.

    The counts must be consistent for an OR: max(bits_a, bits_b) <= bits_union <= bits_a + bits_b.
    """
    m, k = check_m(m), check_k(k)
    xa = check_count(bits_a, "bits_a", m, f"m = {m}")
    xb = check_count(bits_b, "bits_b", m, f"m = {m}")
    xu = check_count(bits_union, "bits_union", m, f"m = {m}")
    if not max(xa, xb) <= xu <= xa + xb:
        raise ValueError(f"bits_union must lie in [max(bits_a, bits_b), bits_a + bits_b] = "
                         f"[{max(xa, xb)}, {xa + xb}] for the OR of two filters, got {xu}")
    return estimate_intersection(m, k, _estimate(m, k, xa), _estimate(m, k, xb), _estimate(m, k, xu))


# --- measured rates ---------------------------------------------------------------------------------------
def _wilson(hits: int, trials: int, z: float) -> tuple[float, float]:
    p = hits / trials
    z2 = z * z
    d = 1.0 + z2 / trials
    c = (p + z2 / (2 * trials)) / d
    h = z * math.sqrt(p * (1.0 - p) / trials + z2 / (4.0 * trials * trials)) / d
    # c + h is a sum of positive terms, accurate even when tiny; c - h would cancel for few hits, so the low
    # end comes from (c - h)(c + h) = p^2 / d instead.
    high = 1.0 if hits == trials else min(1.0, c + h)
    low = 0.0 if hits == 0 else min(high, p * p / (d * high))
    return low, high


def wilson_interval(hits: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion hits/trials; (0.0, 1.0) when trials = 0.

    Exactly 0.0 at the low end when hits = 0 and exactly 1.0 at the high end when hits = trials.
    """
    t = check_count(trials, "trials")
    h = check_count(hits, "hits", t, f"trials = {t}")
    z = check_real(z, "z", 0.0, lo_open=True)
    if t == 0:
        return 0.0, 1.0
    return _wilson(h, t, z)
