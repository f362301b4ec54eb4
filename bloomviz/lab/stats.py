"""The lab's judgements: what luck explains for a filter with independent uniform positions.

Four questions, each answered with a p-value (how often independent positions would look at least this far off):

- **The rate, given the filter's own fill (exact).** With X of m bits set, a stranger whose k positions are
  independent and uniform passes with probability q = (X/m)^k exactly, whatever the inserts were; P strangers
  looked up give a Binomial(P, q) count. ``binomial_p`` is the exact two-sided test (the outcomes no more likely
  than the one seen, as R's ``binom.test``).
- **The rate against the formula (approximate).** Between filters X varies too: the count of P strangers has
  mean P·E[q] (E[q] = the exact rate, ``theory.rates.fp_exact``) and variance P·(E[q] − E[q²]) + P²·Var(q), with
  E[q²] = E[(X/m)^{2k}] from ``theory.exact_rate.log_fill_moment``. ``ensemble_z`` is the normal approximation
  with that exact mean and spread.
- **The fill.** X after N independent positions (the occupancy problem) has mean m(1 − (1 − 1/m)^N) and variance
  m(1 − 1/m)^N + m(m − 1)(1 − 2/m)^N − m²(1 − 1/m)^{2N}; ``fill_z`` (normal approximation).
- **A biased position.** Counts of every position over all items against the uniform m bins: Pearson's
  chi-square, its tail by the Wilson–Hilferty cube-root normal approximation (``chi_square_p``; no SciPy).
"""

from __future__ import annotations

import math

import numpy as np

from bloomviz.theory import exact_rate


def binomial_p(hits: int, trials: int, q: float) -> float:
    """Exact two-sided p-value of ``hits`` in ``trials`` at success probability ``q``."""
    if trials == 0:
        return 1.0
    if q <= 0.0:
        return 1.0 if hits == 0 else 0.0
    if q >= 1.0:
        return 1.0 if hits == trials else 0.0
    i = np.arange(trials + 1, dtype=np.float64)
    lg = np.array([math.lgamma(v + 1.0) for v in range(trials + 1)])
    log_pmf = lg[trials] - lg - lg[::-1] + i * math.log(q) + (trials - i) * math.log1p(-q)
    seen = log_pmf[hits]
    # outcomes as unlikely as the one seen or less (a relative slack keeps the seen one itself in the sum)
    tail = log_pmf[log_pmf <= seen + 1e-7]
    top = float(tail.max())
    return float(min(1.0, math.exp(top) * float(np.exp(tail - top).sum())))


def normal_p(z: float) -> float:
    """Two-sided tail of a standard normal beyond |z|."""
    return math.erfc(abs(z) / math.sqrt(2.0))


def rate_moments(m: int, k: int, n: int) -> tuple[float, float]:
    """(E[q], E[q²]) of q = (X/m)^k after n inserts of k independent positions."""
    mean = math.exp(exact_rate.log_fill_moment(m, k, k * n))
    second = math.exp(exact_rate.log_fill_moment(m, 2 * k, k * n))
    return mean, second


def ensemble_z(hits: int, trials: int, m: int, k: int, n: int) -> float:
    """How many ensemble standard deviations the count of false positives lies from P·FP(m, k, n)."""
    mean, second = rate_moments(m, k, n)
    var = trials * max(0.0, mean - second) + trials * trials * max(0.0, second - mean * mean)
    if var <= 0.0:
        return 0.0 if hits == trials * mean else math.copysign(math.inf, hits - trials * mean)
    return (hits - trials * mean) / math.sqrt(var)


def fill_moments(m: int, total: int) -> tuple[float, float]:
    """(mean, variance) of the number of bits set by ``total`` independent uniform positions."""
    one = math.exp(total * math.log1p(-1.0 / m)) if m > 1 else 0.0
    two = math.exp(total * math.log1p(-2.0 / m)) if m > 2 else 0.0
    mean = m * (1.0 - one)
    var = m * one + m * (m - 1) * two - (m * one) ** 2
    return mean, max(0.0, var)


def fill_z(bits_set: int, m: int, total: int) -> float:
    mean, var = fill_moments(m, total)
    if var <= 0.0:
        return 0.0 if bits_set == round(mean) else math.copysign(math.inf, bits_set - mean)
    return (bits_set - mean) / math.sqrt(var)


def chi_square_p(counts: np.ndarray) -> tuple[float, float]:
    """(statistic, upper-tail p) of counts against equal expected counts (Wilson–Hilferty approximation)."""
    counts = np.asarray(counts, dtype=np.float64)
    bins, total = counts.size, float(counts.sum())
    if bins < 2 or total == 0:
        return 0.0, 1.0
    expected = total / bins
    stat = float(((counts - expected) ** 2).sum() / expected)
    df = bins - 1
    z = ((stat / df) ** (1.0 / 3.0) - (1.0 - 2.0 / (9.0 * df))) / math.sqrt(2.0 / (9.0 * df))
    return stat, 0.5 * math.erfc(z / math.sqrt(2.0))


def distinct_p(distinct: np.ndarray, m: int, k: int) -> tuple[float, float, float]:
    """(share of items with a repeated position, the share independent positions give, two-sided p)."""
    items = int(distinct.size)
    expected = 1.0 - float(exact_rate.distinct_weights(m, k)[min(k, m)]) if k <= m else 1.0
    repeated = int((distinct < k).sum())
    return repeated / items if items else 0.0, expected, binomial_p(repeated, items, expected)

