"""Closed forms for Bloom filters: false-positive rates, optimal parameters, size estimates, intervals.

Pure functions of plain numbers: no state, no Qt. m = bits, k = hash functions, n = items inserted,
p = a false-positive rate, X = bits set to 1.

    P(a given bit is still 0)   q      = (1 - 1/m)^{kn}
    expected fill               f      = 1 - q
    exact rate                  fp     = E[(X/m)^k], X = bits set           (independent, uniform positions)
    Bloom's formula (classic)   fp     ≈ (1 - (1 - 1/m)^{kn})^k             (= (E[X]/m)^k: below the exact rate)
    approximation               fp     ≈ (1 - e^{-kn/m})^k                 (the textbook form, m large)
    finite-m bound              fp     ≤ (1 - e^{-k(n + 1/2)/(m - 1)})^k   (half an item more, one bit less)
    optimal k (real)            k*     = (m/n) ln 2 (approximation); ln 2 / (-n ln(1 - 1/m)) (classic)
    design for n items at p     k      = ceil(log2(1/p)),   m = ceil(-n ln p / (ln 2)^2)
    bits per item               Bloom  m/n = log2(e) · log2(1/p) ≈ 1.44 log2(1/p);   lower bound log2(1/p)
    estimated count             n*     = -(m/k) ln(1 - X/m)                 (Swamidass & Baldi 2007)
    union / intersection        |A∪B|* = n*(X of A|B),   |A∩B|* = |A|* + |B|* - |A∪B|*
    Wilson interval             (c ∓ h) with d = 1 + z²/t, c = (p̂ + z²/2t)/d, h = z·sqrt(p̂(1-p̂)/t + z²/4t²)/d
    scalable filter             rate ≤ Σ p0·r^i = p0 / (1 - r)              (Almeida et al. 2007)

The exact rate and how it is computed (to 1e-10 relative, with no cancellation) are in ``exact_rate``. The
classic formula assumes the bits are set independently; they are not (a set bit makes the others a little less
likely), and for k >= 2 the true rate is higher: by 6.3 % at m = 16, k = 3, n = 2 and 61 % at m = 16, k = 8,
n = 1; at half-full filters the gap is about 0.13–0.15·k²/m relative (6.4e-6 at m = 10^6, k = 7; 6.2e-4 at
m = 10^6, k = 64), so it vanishes only as m grows past k². The bound is Goel and Gupta's (2010, as Wikipedia
cites it: "the false positive probability for a finite bloom filter ... is at most" it); it was also checked
above the exact rate at 3.9 million (m, k, n) points (123 values of m from 2 to 4,096, 16 of k from 1 to 64,
every n up to 4m; tests/theory/test_exact_rate.py keeps a sample of that check). ``BOUND_TEXT`` says so in the app.

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
from collections.abc import Callable, Iterable

import numpy as np

from bloomviz.theory import exact_rate
from bloomviz.theory.intervals import wilson_interval  # re-exported: theory.wilson_interval is public API
from bloomviz.theory.validate import MAX_M, MAX_N, check_count, check_k, check_m, check_n, check_p, check_real
from bloomviz.theory.limits import MAX_K

LN2 = math.log(2.0)
MAX_CURVE_N = 50_000_000
LOG2_E = 1.0 / LN2

__all__ = [
    "fp_exact", "fp_classic", "log_fp_exact", "fp_exact_curve", "fp_approx", "fp_bound", "fill_expected",
    "optimal_k", "optimal_k_int", "optimal_params",
    "bits_per_element", "lower_bound_bits_per_element", "bloom_bits_per_element", "estimate_count",
    "estimate_union", "estimate_intersection", "estimate_intersection_from_bits", "wilson_interval",
    "capacity_for", "smallest_m", "fp_for_k_range", "scalable_fp_bound", "first_true",
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


def _fp_classic(m: int, k: int, n: int) -> float:
    return _fill(m, k, n) ** k


_fp_exact = exact_rate.fp_exact_kernel
_log_fp_exact = exact_rate.log_fp_exact_kernel


# --- false-positive rates ---------------------------------------------------------------------------------
def fp_exact(m: int, k: int, n: int) -> float:
    """E[(X/m)^k]: the exact rate after n inserts when the k positions of every item (and of the probe) are
    independent and uniform; X is the number of bits set. See ``exact_rate`` for the method and its accuracy."""
    return _fp_exact(check_m(m), check_k(k), check_n(n))


def log_fp_exact(m: int, k: int, n: int) -> float:
    """ln fp_exact(m, k, n), accurate even where the rate itself underflows (-inf for n = 0)."""
    return _log_fp_exact(check_m(m), check_k(k), check_n(n))


def fp_exact_curve(m: int, k: int, n_max: int) -> np.ndarray:
    """fp_exact(m, k, n) for n = 0…n_max, as one float64 array (10^6 values in well under a second)."""
    n_max = check_n(n_max)
    if n_max > MAX_CURVE_N:
        raise ValueError(f"n_max must be at most {MAX_CURVE_N:,} for a whole curve (8 bytes a value), got {n_max:,}; "
                         "ask fp_exact for single values beyond it")
    return exact_rate.fp_exact_curve(check_m(m), check_k(k), n_max)


def fp_classic(m: int, k: int, n: int) -> float:
    """(1 - (1 - 1/m)^{kn})^k, Bloom's formula: (expected fill)^k. It treats the bits as independent, which
    they are not, and is below fp_exact for every k >= 2 and n >= 1 (the two meet as m grows)."""
    return _fp_classic(check_m(m), check_k(k), check_n(n))


def fp_approx(m: int, k: int, n: int) -> float:
    """(1 - e^{-kn/m})^k: the usual approximation, close to fp_exact once m is large."""
    m, k, n = check_m(m), check_k(k), check_n(n)
    return (-math.expm1(-(k * n) / m)) ** k


# The bound, in the words every place shows (the calculator's tooltip, Help, README): one statement, one source.
BOUND_TEXT = ("(1 − e^(−k(n + ½)/(m − 1)))^k: an upper bound of a finite filter's false-positive rate "
              "(Goel and Gupta 2010, as Wikipedia's Bloom filter article cites it); bloomviz also checked it above "
              "the exact rate at 3.9 million (m, k, n) points")


def fp_bound(m: int, k: int, n: int) -> float:
    """(1 - e^{-k(n + 0.5)/(m - 1)})^k: above fp_exact at every point checked (3.9 million, m <= 4,096).

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

    Keys: ``k`` (int64) and ``fp_exact``, ``fp_classic``, ``fp_approx``, ``fp_bound`` (float64), in the order
    of ``ks``.
    """
    m, n = check_m(m), check_n(n)
    ks = [check_k(k) for k in ks]
    return {
        "k": np.array(ks, dtype=np.int64),
        "fp_exact": np.array([_fp_exact(m, k, n) for k in ks], dtype=np.float64),
        "fp_classic": np.array([_fp_classic(m, k, n) for k in ks], dtype=np.float64),
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
    """The integer k in [1, MAX_K] (64) with the lowest fp_exact(m, k, n); on a tie, the smaller k.

    The search starts at the classic optimum ln 2 / (-n ln(1 - 1/m)) and walks down and up while the exact rate
    falls: the exact rate is unimodal in k, and its optimum is at or below the classic one rounded up (both
    checked by brute force for every m <= 256, n <= m/2 in tests/theory/test_best_k.py; rounded, the classic optimum
    picks a worse k for 2,590 of those 16,384 pairs, costing up to +175 % in rate at m = 91, n = 1, +97 % at
    m = 64, n = 1).
    n = 0 raises ValueError, as for optimal_k.
    """
    m, n = check_m(m), _check_n_for_optimum(n)
    if m == 1:
        return 1  # the one bit is set by the first item: every k gives rate 1
    k_real = LN2 / (-n * math.log1p(-1.0 / m))
    start = min(MAX_K, max(1, round(k_real)))
    best_k, best = start, _log_fp_exact(m, start, n)
    for step in (-1, 1):
        k = best_k + step
        while 1 <= k <= MAX_K:
            value = _log_fp_exact(m, k, n)
            if value < best or (value == best and k < best_k):
                best_k, best = k, value
                k += step
            else:
                break
        if best_k != start:
            break   # it fell below the start: above the start it rises (unimodal), no need to look
    return best_k


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

    The classic closed form n <= ln(1 - p^{1/k}) / (k ln(1 - 1/m)) is an upper limit (the exact rate is at or
    above the classic one); the answer is found by bisection on the exact rate below it.
    """
    m, k, p = check_m(m), check_k(k), check_p(p)
    if m == 1:
        return 0
    s = -math.expm1(math.log(p) / k)  # 1 - p^{1/k}: the smallest allowed q
    hi = max(0, math.floor(math.log(s) / (k * math.log1p(-1.0 / m)))) + 1
    while hi < MAX_N and _fp_exact(m, k, hi) <= p:   # guards the rounding of the closed form
        hi = min(MAX_N, hi * 2)
    # fp(0) <= p < fp(hi): the capacity is one below the first n that exceeds p
    return first_true(0, hi, lambda n: _fp_exact(m, k, n) > p) - 1


def smallest_m(k: int, n: int, p: float, lowest: int = 1) -> int | None:
    """The smallest m in [lowest, 2**34] with fp_exact(m, k, n) <= p, or None when even 2**34 bits miss p.

    The rate falls as m grows, so the search gallops up from ``lowest`` (steps of lowest/64, doubling) and
    bisects. A good ``lowest`` (the m that meets p in classic terms, a lower bound since the classic rate is
    below the exact one) makes it a few evaluations; the default searches from one bit.
    """
    k, n, p = check_k(k), check_n(n), check_p(p)
    lowest = check_m(lowest)
    if _fp_exact(lowest, k, n) <= p:
        return lowest
    lo, step = lowest, max(1, lowest // 64)       # fp(lo) > p
    hi = lo + step
    while _fp_exact(min(hi, MAX_M), k, n) > p:
        if hi >= MAX_M:
            return None
        lo, step = hi, step * 2
        hi = lo + step
    return first_true(lo, min(hi, MAX_M), lambda m: _fp_exact(m, k, n) <= p)   # fp(lo) > p >= fp(hi)


def first_true(lo: int, hi: int, holds: Callable[[int], bool]) -> int:
    """The smallest x in (lo, hi] where ``holds``, by bisection: ``holds`` is monotone, false at lo, true at hi."""
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if holds(mid):
            hi = mid
        else:
            lo = mid
    return hi


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

