"""Exact binomial tails and the spread of the bits set: what tells a hash scheme from one filter's luck.

Given the X bits a filter has set, a stranger whose k positions are independent and uniform passes with
probability q = (X/m)^k exactly, so over P probes the passes are Binomial(P, q): ``binomial_tails`` gives the
chance of a count at least as high (or as low) as the one measured. The rate the formulas give, E[(X/m)^k], also
averages over X; ``bits_set_spread`` gives the mean and standard deviation of X after N = kn uniform positions
(the model of the exact rate), so that a filter's own X can be placed among all filters like it:

    E[X] = m (1 − a),   Var[X] = m(m − 1) b + m a − m² a²,   a = (1 − 1/m)^N,  b = (1 − 2/m)^N

(the number of empty bits is a sum of m indicators, each empty with probability a, two together with b).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["binomial_tails", "bits_set_spread"]


def binomial_tails(hits: int, trials: int, p: float) -> tuple[float, float]:
    """(P[H >= hits], P[H <= hits]) for H ~ Binomial(trials, p), summed from the exact probabilities (in
    logarithms: 10^6 trials at p = 10^-6 lose no digits). O(trials) numpy work."""
    hits, trials = int(hits), int(trials)
    if not 0 <= hits <= trials:
        raise ValueError(f"hits must lie in [0, trials = {trials}], got {hits}")
    if not 0.0 <= p <= 1.0 or math.isnan(p):
        raise ValueError(f"p must lie in [0, 1], got {p!r}")
    if p == 0.0:
        return (1.0 if hits == 0 else 0.0), 1.0
    if p == 1.0:
        return 1.0, (1.0 if hits == trials else 0.0)
    i = np.arange(trials + 1, dtype=np.float64)
    log_fact = np.concatenate(([0.0], np.cumsum(np.log(np.arange(1, trials + 1, dtype=np.float64)))))
    log_pmf = log_fact[-1] - log_fact - log_fact[::-1] + i * math.log(p) + (trials - i) * math.log1p(-p)
    pmf = np.exp(log_pmf - log_pmf.max())
    total = pmf.sum()
    return min(1.0, float(pmf[hits:].sum() / total)), min(1.0, float(pmf[:hits + 1].sum() / total))


def bits_set_spread(m: int, k: int, n: int) -> tuple[float, float]:
    """(mean, standard deviation) of the bits set after n inserts of k independent uniform positions."""
    total = k * n
    a = math.exp(total * math.log1p(-1.0 / m))
    b = math.exp(total * math.log1p(-2.0 / m)) if m > 2 else (0.0 if total else 1.0)
    var = m * (m - 1) * b + m * a - (m * a) ** 2
    return m * (1.0 - a), math.sqrt(max(var, 0.0))
