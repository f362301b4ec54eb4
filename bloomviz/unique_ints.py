"""np.unique for int arrays, by sorting; and 0 .. n-1 without a new array each time.

Two reasons not to call numpy's: numpy 2.3's hash-based np.unique is ~40x slower on 10^5 positions, and from
numpy 2.x its first call imports numpy.ma (to ask whether the array is masked): ~31 ms of CPU holding the
interpreter's lock, which the plot's first redraw of an auto-play paid (or the warm-up thread beside it).
"""

from __future__ import annotations

import numpy as np


def sorted_unique(values) -> np.ndarray:
    """The distinct values of an int array (any shape), sorted, as int64."""
    out = np.sort(np.asarray(values, dtype=np.int64).reshape(-1))
    if out.size > 1:
        out = out[np.concatenate(([True], out[1:] != out[:-1]))]
    return out


_RANGE = [np.zeros(0, np.int64)]
_RANGE[0].flags.writeable = False


def index_range(size: int) -> np.ndarray:
    """0 .. size-1 as int64, read-only: a view of one array kept for the largest size asked so far (a measured
    step of every=1 keeps every row, and an index array made for each step was new memory each time)."""
    rows = _RANGE[0]
    if rows.size < size:
        rows = np.arange(max(size, 1 << 16), dtype=np.int64)
        rows.flags.writeable = False
        _RANGE[0] = rows
    return rows[:size]
