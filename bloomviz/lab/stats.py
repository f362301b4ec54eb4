"""The lab's judgements: what luck explains for a filter with independent uniform positions.

Each question is answered with a p-value (how often independent positions would look at least this far off),
exact wherever the work is affordable; where it is not, a Chebyshev bound, which never overstates a surprise:

- **The rate, given the filter's own fill (exact).** With X of m bits set, a stranger whose k positions are
  independent and uniform passes with probability q = (X/m)^k exactly, whatever the inserts were; P strangers
  looked up give a Binomial(P, q) count. ``binomial_p`` is the exact two-sided test (the outcomes no more likely
  than the one seen, as R's ``binom.test``).
- **The fill.** X after N = k·n independent positions is the occupancy distribution; ``occupancy_pmf`` computes
  it exactly (X grows by one with probability (m − X)/m per position), ``fill_p`` is its two-sided tail.
- **The rate against the formula.** Between filters X varies too: the count of P strangers is a mixture of
  Binomial(P, (x/m)^k) over the occupancy distribution of X (its mean is P·FP(m, k, n), the exact rate);
  ``ensemble_p`` is that mixture's two-sided tail. Its spread, for the words: variance P·(E[q] − E[q²]) +
  P²·Var(q), E[q²] = E[(X/m)^{2k}] from ``theory.exact_rate.log_fill_moment`` (``ensemble_z``).
- **A biased position.** Counts of every position over all items against the uniform m bins: Pearson's
  chi-square, its tail by the Wilson–Hilferty cube-root normal approximation (``chi_square_p``; no SciPy).

A normal approximation is not used for the first three: with a few expected hits (a rate of 10^-5 on 4,000
strangers) one hit is +4 "standard deviations" yet happens one time in twenty; the lab flagged a perfect hash
so in 5 of 60 grids before these were exact.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from bloomviz.theory import exact_rate


@lru_cache(maxsize=8)
def _log_comb(trials: int) -> np.ndarray:
    """ln C(trials, i) for i = 0…trials."""
    lg = np.array([math.lgamma(v + 1.0) for v in range(trials + 1)])
    out = lg[trials] - lg - lg[::-1]
    out.flags.writeable = False
    return out


def binomial_p(hits: int, trials: int, q: float) -> float:
    """Exact two-sided p-value of ``hits`` in ``trials`` at success probability ``q``."""
    if trials == 0:
        return 1.0
    if q <= 0.0:
        return 1.0 if hits == 0 else 0.0
    if q >= 1.0:
        return 1.0 if hits == trials else 0.0
    i = np.arange(trials + 1, dtype=np.float64)
    log_pmf = _log_comb(trials) + i * math.log(q) + (trials - i) * math.log1p(-q)
    seen = log_pmf[hits]
    # outcomes as unlikely as the one seen or less (a relative slack keeps the seen one itself in the sum)
    tail = log_pmf[log_pmf <= seen + 1e-7]
    top = float(tail.max())
    return float(min(1.0, math.exp(top) * float(np.exp(tail - top).sum())))


def two_sided(pmf: np.ndarray, seen: int) -> float:
    """Two-sided tail of a distribution on 0, 1, ... at ``seen``: twice the smaller one-sided tail, at most 1."""
    low, high = float(pmf[: seen + 1].sum()), float(pmf[seen:].sum())
    return min(1.0, 2.0 * min(low, high))


def chebyshev_p(z: float) -> float:
    """P(|Z| >= |z|) <= 1/z² for any distribution of mean 0 and variance 1."""
    return 1.0 if abs(z) <= 1.0 else 1.0 / (z * z)


MAX_STEPS = 200_000           # occupancy by steps: one numpy pass per inserted position
MAX_WORK = 20_000_000         # cells updated in all (positions x possible values of X)
MAX_MIXTURE = 40_000_000      # values of X kept x possible counts of strangers


def occupancy_pmf(m: int, total: int) -> np.ndarray | None:
    """Pr(X = x), x = 0…min(total, m): the bits set by ``total`` independent uniform positions; None when that
    is more work than MAX_STEPS / MAX_WORK allow."""
    size = min(total, m) + 1
    if total > MAX_STEPS or total * size > MAX_WORK:
        return None
    x = np.arange(size, dtype=np.float64)
    stay, grow = x / m, (m - x) / m
    pmf = np.zeros(size)
    pmf[0] = 1.0
    for _ in range(total):
        moved = pmf[:-1] * grow[:-1]
        pmf *= stay
        pmf[1:] += moved
    return pmf


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


def _binomial_rows(trials: int, qs: np.ndarray) -> np.ndarray:
    """Binomial(trials, q) pmfs, one row per q."""
    i = np.arange(trials + 1, dtype=np.float64)
    log_comb = _log_comb(trials)
    rows = np.zeros((qs.size, trials + 1))
    for r, q in enumerate(qs):
        if q <= 0.0:
            rows[r, 0] = 1.0
        elif q >= 1.0:
            rows[r, trials] = 1.0
        else:
            rows[r] = np.exp(log_comb + i * math.log(q) + (trials - i) * math.log1p(-q))
    return rows


def ensemble_p(hits: int, trials: int, m: int, k: int, n: int) -> tuple[float, str]:
    """(two-sided p of ``hits`` false positives among ``trials`` strangers, how it was computed): exact over the
    occupancy distribution, or a Chebyshev bound with the exact mean and spread when that is too much work."""
    pmf = occupancy_pmf(m, k * n)
    if pmf is not None:
        keep = np.flatnonzero(pmf > 1e-16 * pmf.max())   # the rest weighs less than m·1e-16 together
        if keep.size * (trials + 1) <= MAX_MIXTURE:
            qs = (keep / m) ** k
            counts = pmf[keep] @ _binomial_rows(trials, qs)
            return two_sided(counts, hits), "exact"
    return chebyshev_p(ensemble_z(hits, trials, m, k, n)), "Chebyshev bound"


def fill_moments(m: int, total: int) -> tuple[float, float]:
    """(mean, variance) of the number of bits set by ``total`` independent uniform positions."""
    one = math.exp(total * math.log1p(-1.0 / m)) if m > 1 else 0.0
    two = math.exp(total * math.log1p(-2.0 / m)) if m > 2 else 0.0
    mean = m * (1.0 - one)
    var = m * one + m * (m - 1) * two - (m * one) ** 2
    return mean, max(0.0, var)


def fill_p(bits_set: int, m: int, total: int) -> tuple[float, str]:
    """(two-sided p of ``bits_set`` after ``total`` positions, how it was computed)."""
    pmf = occupancy_pmf(m, total)
    if pmf is not None:
        return (two_sided(pmf, bits_set) if bits_set < pmf.size else 0.0), "exact"
    mean, var = fill_moments(m, total)
    if var <= 0.0:
        return (1.0 if abs(bits_set - mean) < 0.5 else 0.0), "exact"
    return chebyshev_p((bits_set - mean) / math.sqrt(var)), "Chebyshev bound"


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

