"""The Wilson score interval for a binomial proportion: the one implementation, scalar and vectorised.

A measured false-positive rate is hits/trials over a fixed probe set; the interval says where the true rate
lies at confidence z (1.96: 95 %). With p = hits/trials, d = 1 + z²/trials:

    centre c = (p + z²/(2 trials)) / d,   half-width h = z √(p(1-p)/trials + z²/(4 trials²)) / d

The high end c + h is a sum of positive terms, accurate even when tiny. The low end c - h would cancel for few
hits (one hit in 10^12 trials came out as 0), so it comes from (c - h)(c + h) = p²/d instead. The low end is
exactly 0 when hits = 0, the high end exactly 1 when hits = trials; no trials gives (0, 1).

``wilson_many`` checks its arguments and does the arithmetic for an array of hit counts (``wilson_arrays``,
for counts a caller holds as valid already: a measurement's own, asked per operation); ``wilson_interval``
checks one count and calls it, so a plot's band and a status line's interval are the same numbers.
"""

from __future__ import annotations

import numpy as np

from bloomviz.theory.validate import check_count, check_real

__all__ = ["wilson_interval", "wilson_many", "wilson_arrays", "Z_95"]

Z_95 = 1.96


def wilson_many(hits, trials: int, z: float = Z_95) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) arrays of the Wilson interval for each hit count of ``hits`` out of ``trials``."""
    trials = check_count(trials, "trials")
    z = check_real(z, "z", 0.0, lo_open=True)
    hits = np.asarray(hits, dtype=float)
    if hits.size and (not np.all(np.isfinite(hits)) or hits.min() < 0 or hits.max() > trials):
        bad = hits[~(np.isfinite(hits) & (hits >= 0) & (hits <= trials))][0]
        raise ValueError(f"hits must lie in [0, trials = {trials}], got {bad:g}")
    return wilson_arrays(hits, trials, z)


def wilson_arrays(hits: np.ndarray, trials: int, z: float = Z_95) -> tuple[np.ndarray, np.ndarray]:
    """``wilson_many`` without its checks: ``hits`` a float array within [0, trials], ``trials`` a count."""
    if trials == 0:
        return np.zeros_like(hits), np.ones_like(hits)
    p = hits / trials
    z2 = z * z
    d = 1.0 + z2 / trials
    c = (p + z2 / (2 * trials)) / d
    h = z * np.sqrt(p * (1.0 - p) / trials + z2 / (4 * trials * trials)) / d
    high = np.where(hits == trials, 1.0, np.minimum(1.0, c + h))
    with np.errstate(divide="ignore", invalid="ignore"):
        low = np.where(hits == 0, 0.0, np.minimum(high, p * p / (d * high)))
    return low, high


def wilson_interval(hits: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval (low, high) for hits/trials; (0.0, 1.0) when trials = 0."""
    t = check_count(trials, "trials")
    h = check_count(hits, "hits", t, f"trials = {t}")
    low, high = wilson_many(np.array([h]), t, check_real(z, "z", 0.0, lo_open=True))
    return float(low[0]), float(high[0])
