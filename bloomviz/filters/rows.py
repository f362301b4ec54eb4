"""Whole rows of positions in and out of a filter: the batch paths the exact measurement and the window's truth
work through (a row holds one item's k positions, from ``positions_many``). Kept off the filter's public API,
which stays set-like: a filter answers them with its ``_insert_rows``, ``_test_rows`` and ``_count_fresh``
(capabilities.plain_bits says it has them).
"""

from __future__ import annotations

import numpy as np


def insert_rows(flt, positions: np.ndarray) -> int:
    """Insert the items whose rows of positions are given; returns the cells that left 0."""
    return flt._insert_rows(positions)


def test_rows(flt, positions: np.ndarray) -> np.ndarray:
    """A bool per row: would an item with these positions pass a lookup?"""
    return flt._test_rows(positions)


def count_fresh(flt, new_bits: int, rows: int) -> None:
    """Record ``rows`` inserts that the exact tracker has just written into the filter's bits itself, turning
    ``new_bits`` bits from 0 to 1 (its flip pass counts them), so the filter need not recount its array."""
    flt._count_fresh(new_bits, rows)


def scheme_of(flt):
    """The hash scheme object a filter places its positions with (``flt.scheme`` is its stable id)."""
    return flt._scheme


def positions_added(flt, item: object) -> tuple[int, ...]:
    """The positions an ``add`` of the item would set: all of ``positions``, or for a filter that grows in
    stages the newest stage's only (the last k)."""
    positions = flt.positions(item)
    return positions[-flt.k:] if flt.capabilities.staged else positions
