"""The exact false-positive rate of a Bloom filter, and the method that computes it.

After n inserts of k independent uniform positions each (N = kn positions in all), let X be the number of
bits set. A never-inserted probe draws k independent uniform positions and is a false positive when all of
them are set, so the exact rate is

    FP(m, k, n) = E[(X/m)^k].

Bloom's classic formula (1 - (1 - 1/m)^{kn})^k is (E[X]/m)^k; by Jensen's inequality it is below the exact rate
for k >= 2, and visibly so for the small filters a class uses (m = 32, k = 4, n = 5: exact 0.0517025, classic
0.0488179).

Method. Split the probe by how many distinct bits its k positions hit: J = j with probability

    w_j = S(k, j) · m(m-1)…(m-j+1) / m^k          (S = Stirling numbers of the second kind),

and a probe hitting j distinct bits is a false positive when all j were hit by the N inserted positions:

    FP = Σ_j w_j · P_j(N),     P_j(N) = Pr(j given bits are all hit by N uniform positions).

P_j(N) is an entry of a matrix power: the number u of the j bits not yet hit is a Markov chain that steps
u -> u-1 with probability u/m per position and stays with probability 1 - u/m, so P_j(N) = (T^N)[j, 0] for
the (J+1) x (J+1) bidiagonal matrix T, J = min(k, m). The textbook closed form of that entry is the inclusion-exclusion sum
Σ_i (-1)^i C(j,i) (1 - i/m)^N, whose terms cancel catastrophically (nearly empty large filters lose every
digit); the matrix power has no subtraction anywhere:

  - every entry of every power of T is a sum of products of non-negative numbers, so each product and sum
    adds at most a few units of rounding (2^-53) *relative* to its result;
  - the only place a matrix power would amplify error is the diagonal ((1 - u/m)^N turns an error e in
    1 - u/m into N·e), so every diagonal entry of every power is set from exp(N·log1p(-u/m)) instead, which is
    accurate to |N·u/m|·2^-53 relative (below 1e-13 wherever the entry is not itself negligible);
  - off-diagonal errors then grow by one rounding per matrix product and per gap: after L products a
    (j, 0) entry is within ≈ L·(k+1)·j·2^-53 relative — below 2e-11 for k <= 64 and N < 2^40.
  - w_j is computed in logarithms from exact Stirling numbers (Python integers), within 1e-13 relative.

Scalar values (fp_exact) use square-and-multiply on N with a diagonal rescaling σ = max(1, m/N) (entries of
σ^u·T·σ^-u stay within [e^-64, 64^64] however empty a huge filter is) and a log-sum-exp over j, so even rates
far below 1e-300 come out with full relative accuracy as logarithms (log_fp_exact). A nearly full filter
(rate > 0.5) is computed as 1 − Σ_j w_j·Pr(some of the j bits still 0), the rows of a power of T summing to
1, so that 1 − rate keeps its digits too. Error bound: 1e-10 relative for m <= 2^34, k <= 64, n <= 10^10 (the
tests check 1e-9 against exact rational arithmetic and against an 800-digit reference up to m = 2^34).

A whole curve (one value per insert, n = 0…n_max) is FP(n) = r_b · c_a with n = a·B + b and B ≈ sqrt(n_max):
r_b = w·M^b and c_a = (M^B)^a e_0 for M = T^k, so the cost is O(sqrt(n_max)·k^2 + n_max·k), 25-35 ms for
n_max = 10^6 here (benchmarks/bench_truth.py). Each value is within (a + b)·(k+1)·2^-53 relative (3e-10 at n_max = 10^6 and k = 64). Rates
below about 1e-290 underflow in a curve (they do not in the scalar path).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Iterator

import numpy as np

__all__ = ["fp_exact_kernel", "log_fp_exact_kernel", "log_fill_moment", "distinct_weights", "fp_exact_curve",
           "fp_exact_at", "fp_exact_points"]


@lru_cache(maxsize=None)
def _stirling2_row(k: int) -> tuple[int, ...]:
    """S(k, j) for j = 0…k, as exact integers."""
    row = [1]  # S(0, 0)
    for kk in range(1, k + 1):
        new = [0] * (kk + 1)
        for j in range(1, kk + 1):
            new[j] = j * (row[j] if j < len(row) else 0) + row[j - 1]
        row = new
    return tuple(row)


@lru_cache(maxsize=4096)
def _log_weights(m: int, k: int) -> np.ndarray:
    """ln w_j for j = 0…J (J = min(k, m)); w_j = Pr(the k probe positions hit exactly j distinct bits)."""
    stirling = _stirling2_row(k)
    jmax = min(k, m)
    out = np.full(jmax + 1, -math.inf)
    falling = 0.0  # ln(m(m-1)…(m-j+1)/m^j)
    for j in range(1, jmax + 1):
        if j > 1:
            falling += math.log1p(-(j - 1) / m)
        out[j] = math.log(stirling[j]) + falling - (k - j) * math.log(m)
    return out


def distinct_weights(m: int, k: int) -> np.ndarray:
    """w_j = Pr(k independent uniform positions hit exactly j distinct bits), j = 0…min(k, m)."""
    with np.errstate(under="ignore"):
        return np.exp(_log_weights(m, k))


def _diag_log(m: int, jmax: int) -> np.ndarray:
    """ln(1 - u/m) for u = 0…jmax (-inf where u = m)."""
    u = np.arange(jmax + 1, dtype=np.float64)
    with np.errstate(divide="ignore"):
        return np.log1p(-u / m)


def _step_matrix(m: int, jmax: int, sigma: float) -> np.ndarray:
    """σ^u · T · σ^-u for one inserted position, acting on column vectors indexed by u (bits still unhit)."""
    t = np.zeros((jmax + 1, jmax + 1))
    u = np.arange(jmax + 1, dtype=np.float64)
    t[np.arange(jmax + 1), np.arange(jmax + 1)] = 1.0 - u / m
    t[np.arange(1, jmax + 1), np.arange(jmax)] = sigma * u[1:] / m
    return t


def _set_diag(mat: np.ndarray, power: int, diag_log: np.ndarray) -> None:
    with np.errstate(under="ignore"):
        np.fill_diagonal(mat, np.exp(power * diag_log) if power else 1.0)


def _squarings(step: np.ndarray, power: int, diag_log: np.ndarray) -> Iterator[tuple[np.ndarray, int]]:
    """Square-and-multiply's factors: (step^(2^j), 2^j) for each set bit j of ``power``, lowest first, each
    square's diagonal made exact (see the module docstring)."""
    base, base_pow = step.copy(), 1
    while power:
        if power & 1:
            yield base, base_pow
        power >>= 1
        if power:
            base = base @ base
            base_pow *= 2
            _set_diag(base, base_pow, diag_log)


def _matrix_power(step: np.ndarray, power: int, diag_log: np.ndarray) -> np.ndarray:
    """step^power with exact diagonals (see the module docstring); power >= 0."""
    result = np.eye(step.shape[0])
    done = 0
    for base, base_pow in _squarings(step, power, diag_log):
        result = base @ result
        done += base_pow
        _set_diag(result, done, diag_log)
    return result


def _column_power(step: np.ndarray, power: int, diag_log: np.ndarray) -> np.ndarray:
    """(step^power) e_0: the probabilities P_j(power) (scaled by σ^j), by square-and-multiply on a vector."""
    vec = np.zeros(step.shape[0])
    vec[0] = 1.0
    for base, _ in _squarings(step, power, diag_log):
        vec = base @ vec
    return vec


def log_fp_exact_kernel(m: int, k: int, n: int) -> float:
    """ln FP(m, k, n) for validated integers m >= 1, k >= 1, n >= 0; -inf when the rate is 0."""
    return log_fill_moment(m, k, k * n)


def log_fill_moment(m: int, k: int, total: int) -> float:
    """ln E[(X/m)^k] when X is the number of bits set by ``total`` independent uniform positions: the rate of a
    probe of k positions after ``total`` inserted ones (FP(m, k, n) is total = k·n). With k doubled it is the
    second moment E[((X/m)^k)^2], whose gap to the squared rate is the spread of the rate between filters."""
    if total == 0:
        return -math.inf
    if m == 1:
        return 0.0
    jmax = min(k, m)
    sigma = max(1.0, m / total)
    diag_log = _diag_log(m, jmax)
    logw = _log_weights(m, k)
    if sigma == 1.0:
        # A full filter: the rate is close to 1 and is taken as 1 - Σ_j w_j·Pr(some of the j bits still 0), the
        # rows of a power of T summing to 1, so that the small complement keeps its relative accuracy.
        full = _matrix_power(_step_matrix(m, jmax, 1.0), total, diag_log)
        with np.errstate(under="ignore"):
            weights = np.exp(logw)
        rate = float(weights @ full[:, 0])
        if rate > 0.5:
            return math.log1p(-min(1.0, float(weights @ full[:, 1:].sum(axis=1))))
        q = full[:, 0]
    else:
        q = _column_power(_step_matrix(m, jmax, sigma), total, diag_log)
    with np.errstate(divide="ignore"):
        terms = logw[1:] - np.arange(1, jmax + 1) * math.log(sigma) + np.log(q[1:])
    top = float(np.max(terms))
    if top == -math.inf:
        return -math.inf
    return top + math.log(float(np.sum(np.exp(terms - top))))


@lru_cache(maxsize=65_536)
def fp_exact_kernel(m: int, k: int, n: int) -> float:
    """FP(m, k, n) for validated integers; underflows to 0.0 only where the rate is below ~1e-308."""
    log_fp = log_fp_exact_kernel(m, k, n)
    return 0.0 if log_fp == -math.inf else min(1.0, math.exp(log_fp))


def fp_exact_curve(m: int, k: int, n_max: int, start: int = 0) -> np.ndarray:
    """FP(m, k, n) for n = start…n_max as a float64 array (validated integers; 0 <= start <= n_max)."""
    count = n_max - start + 1
    if m == 1:
        return (np.arange(start, n_max + 1) > 0).astype(np.float64)
    jmax = min(k, m)
    diag_log = _diag_log(m, jmax)
    per_insert = _matrix_power(_step_matrix(m, jmax, 1.0), k, diag_log)      # M = T^k
    block = max(1, math.isqrt(count))
    per_block = _matrix_power(per_insert, block, diag_log * k)              # M^B, diagonal exact
    with np.errstate(under="ignore"):
        weights = np.exp(_log_weights(m, k))
    rows = np.empty((block, jmax + 1))                                       # r_b = w · M^b
    r = weights
    for b in range(block):
        rows[b] = r
        r = r @ per_insert
    blocks = (count + block - 1) // block
    cols = np.empty((jmax + 1, blocks))                                      # c_a = M^(start + aB) e_0
    c = _column_power(per_insert, start, diag_log * k) if start else np.eye(jmax + 1)[:, 0]
    for a in range(blocks):
        cols[:, a] = c
        c = per_block @ c
    grid = rows @ cols                                                       # grid[b, a] = FP(start + aB + b)
    flat = grid.T.reshape(-1)[:count]
    np.minimum(flat, 1.0, out=flat)
    if start == 0:
        flat[0] = 0.0
    return flat


_CURVE_CACHE: dict[tuple[int, int], np.ndarray] = {}
_CURVE_CACHE_VALUES = 24_000_000  # 192 MB in all: the live plot, compare's lanes and a scalable filter's stages
_CURVE_CACHE_MAX_N = 20_000_000   # 160 MB a curve at most


def _cached_curve(m: int, k: int, n_max: int) -> np.ndarray:
    """A curve reaching at least n_max, grown by doubling so that a plot asking insert by insert costs
    amortised O(1) a point."""
    curve = _CURVE_CACHE.get((m, k))
    if curve is None or len(curve) <= n_max:
        length = max(n_max, 2 * (len(curve) if curve is not None else 1024))
        curve = fp_exact_curve(m, k, min(length, _CURVE_CACHE_MAX_N))
        _CURVE_CACHE.pop((m, k), None)
        while _CURVE_CACHE and sum(map(len, _CURVE_CACHE.values())) + len(curve) > _CURVE_CACHE_VALUES:
            _CURVE_CACHE.pop(next(iter(_CURVE_CACHE)))   # the oldest first
        _CURVE_CACHE[(m, k)] = curve
    else:
        _CURVE_CACHE[(m, k)] = _CURVE_CACHE.pop((m, k))  # most recently used last
    return curve


@lru_cache(maxsize=64)
def _binary_powers(m: int, k: int) -> tuple[np.ndarray, ...]:
    """M^(2^j) for j = 0…62 (M = T^k, each square's diagonal exact), once per (m, k): every n < 2^63 is a
    product of some of them."""
    jmax = min(k, m)
    diag_log = _diag_log(m, jmax)
    base = _matrix_power(_step_matrix(m, jmax, 1.0), k, diag_log)
    powers, power = [base], 1
    for _ in range(62):
        base = base @ base
        power *= 2
        _set_diag(base, power, diag_log * k)
        powers.append(base)
    return tuple(powers)


def fp_exact_points(m: int, k: int, ns: np.ndarray) -> np.ndarray:
    """FP(m, k, n) for each whole n in ``ns``, each as ``fp_exact_curve`` computes its first column: w · M^n e_0
    by square-and-multiply on n (M = T^k, every square's diagonal exact), for all n at once. For a few n spread
    far apart (a plot's drawn rows, the latest n): no curve through every n below the largest (a curve to
    1.7·10^7 took 0.5 s of CPU at m = 95,850,584, k = 7: one stall of the window's auto-play)."""
    ns = np.asarray(ns)
    flat = ns.astype(np.int64).reshape(-1)
    if m == 1 or flat.size == 0:
        return (flat > 0).astype(np.float64).reshape(ns.shape)
    powers = _binary_powers(m, k)
    cols = np.zeros((powers[0].shape[0], flat.size))
    cols[0] = 1.0
    left = flat.copy()
    for base in powers:
        odd = (left & 1).astype(bool)
        if odd.any():
            cols[:, odd] = base @ cols[:, odd]
        left >>= 1
        if not left.any():
            break
    with np.errstate(under="ignore"):
        out = np.exp(_log_weights(m, k)) @ cols
    np.minimum(out, 1.0, out=out)
    out[flat == 0] = 0.0
    return out.reshape(ns.shape)


def fp_exact_at(m: int, k: int, ns: np.ndarray, points: bool = False) -> np.ndarray:
    """FP(m, k, n) for each whole n in ``ns`` (any order, any shape), from a cached curve when n is small
    enough, from single values otherwise. ``points``: values at these n only when the cached curve does not
    reach them (``fp_exact_points``), never a longer curve."""
    ns = np.asarray(ns)
    flat = ns.astype(np.int64).reshape(-1)
    if flat.size == 0:
        return np.zeros(ns.shape)
    n_max = int(flat.max())
    if points:
        curve = _CURVE_CACHE.get((m, k))
        if curve is not None and len(curve) > n_max:
            return curve[flat].reshape(ns.shape)
        return fp_exact_points(m, k, flat).reshape(ns.shape)
    if n_max <= _CURVE_CACHE_MAX_N:
        return _cached_curve(m, k, n_max)[flat].reshape(ns.shape)
    uniq, inverse = np.unique(flat, return_inverse=True)
    n_min = int(uniq[0])
    if uniq.size > 64 and n_max - n_min <= _CURVE_CACHE_MAX_N:   # a dense stretch far out: one segment
        return fp_exact_curve(m, k, n_max, n_min)[flat - n_min].reshape(ns.shape)
    vals = np.array([fp_exact_kernel(m, k, int(v)) for v in uniq])
    return vals[inverse].reshape(ns.shape)
