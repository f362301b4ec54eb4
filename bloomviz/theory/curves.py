"""The theory of a standard filter over an array of n at once: what a plot's curves and a CSV's columns need.

The scalar forms (with their argument checks) are in rates.py; these take arrays of n for one (m, k) and skip
the checks, for the measurement's rows (one per insert). Numerically careful in the same way: the expected
fill 1 - (1 - 1/m)^(kn) is -expm1(k n log1p(-1/m)), and a rate p^k is exp(k log p), so that m = 2^32 and
rates of 1e-11 come out right.
"""

from __future__ import annotations

import math

import numpy as np

from bloomviz.theory.exact_rate import fp_exact_at

__all__ = ["theory_many", "estimate_many"]


# The last single point asked for (``points``) and its columns. After an insert the window asks for the theory
# at the new n twice, once for the Explain panel's numbers (workbench.records.Numbers) and once for the plot's
# readout (measure.series.row_columns), 60-200 us each at m = 10^8 (the exact rate's matrix power): the second
# asking is answered from here. Keyed by the exact parameters, so any other point computes afresh; a curve (the
# plot's rows, read from the cached curve, between those two askings) neither reads nor replaces it. One entry,
# replaced whole (a tuple swapped in one assignment: a reader in another thread sees the old one or the new).
_LAST_POINT: tuple | None = None


def theory_many(m: int, k: int, n, points: bool = False) -> dict[str, np.ndarray]:
    """The exact rate, Bloom's classic formula, the approximation, the bound and the expected fill at each n.
    ``points``: the exact rate at these n alone, never through a longer cached curve (exact_rate.fp_exact_at),
    for a few n spread far apart: a plot's rows, the latest n. One point asked for twice in a row is computed
    once (``_LAST_POINT``); the arrays returned are the caller's own either way."""
    global _LAST_POINT
    n = np.asarray(n, dtype=float)
    if points and n.size == 1:
        key = (int(m), int(k), float(n.reshape(-1)[0]), n.shape)
        last = _LAST_POINT
        if last is None or last[0] != key:
            last = _LAST_POINT = (key, _theory_many(m, k, n, points))
        return {name: values.copy() for name, values in last[1].items()}
    return _theory_many(m, k, n, points)


def _theory_many(m: int, k: int, n: np.ndarray, points: bool) -> dict[str, np.ndarray]:
    with np.errstate(divide="ignore"):
        fill = -np.expm1(k * n * math.log1p(-1.0 / m)) if m > 1 else (n > 0).astype(float)
        classic = np.exp(k * np.log(fill)) if k else np.ones_like(n)
        approx = np.exp(k * np.log(-np.expm1(-k * n / m)))
        bound = np.exp(k * np.log(-np.expm1(-k * (n + 0.5) / (m - 1)))) if m > 1 else np.ones_like(n)
    exact = fp_exact_at(m, k, n, points) if n.size else np.zeros(0)
    return {"fp_exact": exact, "fp_classic": classic, "fp_approx": approx, "fp_bound": np.minimum(bound, 1.0),
            "fill_expected": fill}


def estimate_many(m: int, k: int, bits_set) -> np.ndarray:
    """The estimated item count -(m/k) ln(1 - X/m) for each count X of bits set (inf once every bit is)."""
    x = np.asarray(bits_set, dtype=float)
    with np.errstate(divide="ignore"):
        return np.where(x >= m, np.inf, -(m / k) * np.log1p(-np.minimum(x, m - 0.5) / m))
