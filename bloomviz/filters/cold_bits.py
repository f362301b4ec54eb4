"""The bit passes in numpy for small inputs while the window builds itself (see hashing/cold_paths.py).

bit_kernels' compiled loops cost numba's import and a load of their machine code on first use (~1 s); the
window's first paint built a sample for the Set operations tab through them. For a few thousand positions
numpy does the same in well under a millisecond. Same results, same refusals (the range check's message is
``range_message``, shared with bit_kernels), and a refused batch changes nothing.
"""

from __future__ import annotations

import numpy as np

from bloomviz.hashing.cold_paths import native_pending, note_cold_batch, use_cold_path
from bloomviz.unique_ints import sorted_unique

COLD_POSITIONS = 200_000      # positions per call; beyond, the compiled pass is worth its load

__all__ = ["COLD_POSITIONS", "all_set", "and_bits", "check_range", "range_message", "set_positions", "use"]


def use(count: int, kernels: tuple[str, ...] = ()) -> bool:
    """Inside the window's ``before_first_paint`` block, before numba is loaded, for a small pass (any pass while
    the native kernel file is built beside the window), unless the pass's compiled ``kernels`` are served from the
    native kernel cache."""
    cold = (count <= COLD_POSITIONS or native_pending()) and use_cold_path(0, *kernels)
    if cold:
        note_cold_batch()       # (every caller takes the numpy path when told so)
    return cold


def range_message(position: int, m: int) -> str:
    return f"positions must lie in [0, {m}); position {position} does not"


def check_range(flat: np.ndarray, m: int, view: np.ndarray | None = None) -> None:
    if view is not None and view.size * 8 < m:
        raise ValueError(f"a byte array of {view.size:,} bytes cannot hold {m:,} bits")
    bad = np.flatnonzero((flat < 0) | (flat >= m))
    if bad.size:
        raise ValueError(range_message(int(flat[bad[0]]), m))


def _bits(view: np.ndarray, flat: np.ndarray) -> np.ndarray:
    return (view[flat >> 3] >> (flat & 7).astype(np.uint8)) & np.uint8(1)


def set_positions(view: np.ndarray, positions: np.ndarray, m: int) -> int:
    flat = np.ascontiguousarray(positions, dtype=np.int64).ravel()
    check_range(flat, m, view)
    distinct = sorted_unique(flat)
    fresh = int(np.count_nonzero(_bits(view, distinct) == 0))
    np.bitwise_or.at(view, distinct >> 3, np.left_shift(np.uint8(1), (distinct & 7).astype(np.uint8)))
    return fresh


def all_set(view: np.ndarray, rows: np.ndarray, m: int) -> np.ndarray:
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    if rows.ndim != 2:
        raise ValueError(f"rows must be an n x k array, got shape {rows.shape}")
    check_range(rows.ravel(), m, view)
    return _bits(view, rows).all(axis=1) if rows.shape[1] else np.ones(rows.shape[0], dtype=np.bool_)


def and_bits(view: np.ndarray, positions: np.ndarray, m: int, found: np.ndarray) -> None:
    flat = np.ascontiguousarray(positions, dtype=np.int64).ravel()
    if found.dtype != np.bool_ or found.size != flat.size:
        raise ValueError(f"found must be a bool array of the positions' length {flat.size}")
    check_range(flat, m, view)
    found &= _bits(view, flat).astype(np.bool_)
