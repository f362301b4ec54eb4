"""Compiled loops over a filter's bytes (numba): set bits (counting the new ones), test rows, AND a column.

Why compiled: what these do is one pass over the positions in insertion order, each reading and writing one
byte of the array. NumPy has no such pass: a fancy write of bytes loses bits when two positions share a
byte, so the numpy code read back and retried (2.2-2.4x a bare numpy scatter at m = 9.6e8 and 2^32); this
loop, with its range check and count, measured 1.0-1.7x the scatter in ``benchmarks/bench_scale.py`` (the
exact tracker's pass, measure/first_flips.py, is the same loop noting probe bits).

Little-endian bit order throughout (bit i of the filter is bit i % 8 of byte i // 8), as bitarray stores a
``bitarray(m, endian="little")``. Positions are int64 and are checked to lie in [0, m) before any write,
so a refused batch changes nothing.

The functions compile on first call and are cached on disk (``cache=True``); ``nogil`` lets a caller run
them in a worker thread.
"""

from __future__ import annotations

import numpy as np

from bloomviz.hashing.lazy_jit import njit
from bloomviz.filters.cold_bits import range_message
from bloomviz.hashing.intrinsics import prefetch

# Positions ahead at which the loops ask for a byte's cache line: in a big array every access misses the
# cache, and a loop that reads a byte before writing it keeps only a few misses in flight by itself (at
# m = 2^32, k = 20: 16.1 ns a position without, 11.5 with 16 ahead, 11.7 with 32, 13.5 with 8).
PREFETCH_AHEAD = 16


@njit(cache=True, nogil=True)
def _out_of_range(flat, m):
    """Index of the first position outside [0, m), or -1."""
    for i in range(flat.size):
        p = flat[i]
        if p < 0 or p >= m:
            return i
    return -1


@njit(cache=True, nogil=True)
def _set(view, flat):
    """Set the bits; return how many turned from 0 to 1 (counted, so nobody recounts the array)."""
    fresh = 0
    last = flat.size - PREFETCH_AHEAD
    for i in range(flat.size):
        if i < last:
            prefetch(view, flat[i + PREFETCH_AHEAD] >> 3)
        p = flat[i]
        b = p >> 3
        bit = np.uint8(1 << (p & 7))
        v = view[b]
        fresh += (v & bit) == 0
        view[b] = v | bit
    return fresh


@njit(cache=True, nogil=True)
def _all_set_rows(view, rows, out):
    n, k = rows.shape
    for r in range(n):
        hit = True
        for c in range(k):
            p = rows[r, c]
            if not (view[p >> 3] >> (p & 7)) & 1:
                hit = False
                break
        out[r] = hit


@njit(cache=True, nogil=True)
def _and_bits(view, flat, found):
    last = flat.size - PREFETCH_AHEAD
    for i in range(flat.size):
        if i < last and found[i + PREFETCH_AHEAD]:
            prefetch(view, flat[i + PREFETCH_AHEAD] >> 3)
        if found[i]:
            p = flat[i]
            found[i] = (view[p >> 3] >> (p & 7)) & 1


def check_range(flat: np.ndarray, m: int, view: np.ndarray | None = None) -> None:
    """Raise ValueError naming the first position outside [0, m) (and if ``view`` is too short for m bits):
    the compiled loops do not check bounds, so nothing reaches them unchecked."""
    if view is not None and view.size * 8 < m:
        raise ValueError(f"a byte array of {view.size:,} bytes cannot hold {m:,} bits")
    bad = _out_of_range(flat, m)
    if bad >= 0:
        raise ValueError(range_message(int(flat[bad]), m))


def checked_rows(rows: np.ndarray, m: int, view: np.ndarray) -> np.ndarray:
    """``rows`` as a C-contiguous int64 n x k array whose positions all lie in [0, m) of ``view``."""
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    if rows.ndim != 2:
        raise ValueError(f"rows must be an n x k array, got shape {rows.shape}")
    check_range(rows.ravel(), m, view)
    return rows


def set_positions(view: np.ndarray, positions: np.ndarray, m: int) -> int:
    """Set the bits at ``positions`` (any shape) in the little-endian byte array ``view`` of m bits; return
    how many of them turned from 0 to 1."""
    flat = np.ascontiguousarray(positions, dtype=np.int64).ravel()
    check_range(flat, m, view)
    return int(_set(view, flat))


def all_set(view: np.ndarray, rows: np.ndarray, m: int) -> np.ndarray:
    """Bool per row of ``rows`` (n x k positions): are all its bits set? Stops at a row's first 0."""
    rows = checked_rows(rows, m, view)
    out = np.empty(rows.shape[0], dtype=np.bool_)
    _all_set_rows(view, rows, out)
    return out


def and_bits(view: np.ndarray, positions: np.ndarray, m: int, found: np.ndarray) -> None:
    """``found[i] &= bit at positions[i]``, in place (bool array of the positions' length); a position whose
    row is already out is not read (a column of lookups after another: most non-members fail early)."""
    flat = np.ascontiguousarray(positions, dtype=np.int64).ravel()
    if found.dtype != np.bool_ or found.size != flat.size:
        raise ValueError(f"found must be a bool array of the positions' length {flat.size}")
    check_range(flat, m, view)
    _and_bits(view, flat, found)
