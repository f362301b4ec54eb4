"""The grid's arguments checked before they reach its arrays: values of the right length, type and range,
positions inside the grid, and repeated positions reduced to their last value."""

from __future__ import annotations

import numpy as np


def checked_values(values, m: int, max_value: int) -> np.ndarray:
    arr = np.asarray(values)
    if arr.ndim != 1 or arr.shape[0] != m:
        raise ValueError(f"values must be a 1-D array of length m = {m:,}, got shape {arr.shape}")
    if arr.dtype.kind not in "uib":
        raise ValueError(f"values must be integers, got dtype {arr.dtype}")
    if arr.dtype != np.uint8 and arr.dtype != np.bool_:
        if m and (arr.min() < 0 or arr.max() > max_value):
            raise ValueError(f"values must lie in 0..{max_value}, got {arr.min()}..{arr.max()}")
        return arr.astype(np.uint8)
    if arr.dtype == np.bool_:
        return arr.view(np.uint8)
    if max_value < 255 and m and arr.max() > max_value:
        raise ValueError(f"values must lie in 0..{max_value}, got a maximum of {arr.max()}")
    return arr


def checked_positions(positions, m: int) -> np.ndarray:
    pos = np.asarray(positions)
    if pos.ndim == 0:
        pos = pos.reshape(1)
    if pos.ndim != 1:
        raise ValueError(f"positions must be a 1-D sequence of cell indices, got shape {pos.shape}")
    if pos.size == 0:
        return pos.astype(np.int64)
    if pos.dtype.kind not in "ui":
        raise ValueError(f"positions must be integers, got dtype {pos.dtype}")
    lo, hi = int(pos.min()), int(pos.max())
    if lo < 0 or hi >= m:
        bad = lo if lo < 0 else hi
        raise ValueError(f"position {bad} is outside the grid's 0..{m - 1}")
    return pos.astype(np.int64, copy=False)


def last_per_position(positions: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each position once, with the last value given for it (as repeated assignment would leave it)."""
    order = np.argsort(positions, kind="stable")
    ordered = positions[order]
    last = np.ones(ordered.size, bool)
    last[:-1] = ordered[1:] != ordered[:-1]
    return ordered[last], values[order[last]]
