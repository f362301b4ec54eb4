"""The exact tracker's flip pass and its bookkeeping in numpy, for the batches made while the compiled code loads.

``first_flips`` (numba) sets a batch's bits in insertion order, counts each row's new bits and notes the row
that turns each probe bit; ``account_turned`` then takes the turned bits off the probes' zero counts. While the
window's warm-up thread loads that machine code (about a second after the first paint; hashing/cold_paths.py)
a batch in the window's thread would wait for it: these do the same by sorting instead (a position turns its
bit at its first occurrence in the batch when the bit was 0 before it), several times slower per item but
without the wait, on the few chunks made before the compiled code is ready. The same counts and the same bits:
tests/measure/test_cold_flips.py compares them with the compiled passes.
"""

from __future__ import annotations

import numpy as np

from bloomviz.filters.cold_bits import check_range
from bloomviz.hashing.cold_paths import note_cold_batch


def _bits(view: np.ndarray, positions: np.ndarray) -> np.ndarray:
    return (view[positions >> 3] >> (positions & 7).astype(np.uint8)) & np.uint8(1)


def _first_occurrences(flat: np.ndarray, m: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct positions of ``flat`` (sorted) and where each first comes in it. One sort of
    position * N + index (an int64 when m * N fits): numpy's stable argsort of the positions took 3x as long
    (100 ns a position for a chunk of 3.5 x 10^5, most of the pass)."""
    size = flat.size
    if m * size < 1 << 62:
        key = flat * np.int64(size) + np.arange(size, dtype=np.int64)
        key.sort()
        ordered = key // size
        order = key - ordered * size
    else:
        order = np.argsort(flat, kind="stable")
        ordered = flat[order]
    first = np.ones(ordered.size, dtype=bool)
    first[1:] = ordered[1:] != ordered[:-1]
    return ordered[first], order[first]


def flip_rows(view: np.ndarray, rows: np.ndarray, m: int, distinct: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``first_flips.ProbeBits(distinct, m).flip_rows(view, rows, m)``: set the bits of ``rows`` (n x k, in
    insertion order) in ``view``; (bits each row turned from 0 to 1, and for each of ``distinct`` the row that
    turned it, or -1 when the batch did not turn it). Positions outside [0, m) are refused before any write."""
    note_cold_batch()
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    n, k = rows.shape
    flat = rows.ravel()
    check_range(flat, m, view)
    bit_time = np.full(distinct.size, -1, dtype=np.int64)
    if not flat.size:
        return np.zeros(n, dtype=np.int64), bit_time
    unique, first_at = _first_occurrences(flat, m)     # each position, and where it first comes in the batch
    turned = _bits(view, unique) == 0
    new_per_row = np.bincount(first_at[turned] // k, minlength=n).astype(np.int64)
    # the bits set a byte at a time: the distinct positions are sorted, so each byte's are side by side
    byte = unique >> 3
    starts = np.flatnonzero(np.concatenate(([True], byte[1:] != byte[:-1])))
    view[byte[starts]] |= np.bitwise_or.reduceat(np.left_shift(np.uint8(1), (unique & 7).astype(np.uint8)), starts)
    if distinct.size and unique.size < distinct.size:     # the fewer looked up among the more
        at = np.minimum(np.searchsorted(distinct, unique), distinct.size - 1)
        hit = (distinct[at] == unique) & turned
        bit_time[at[hit]] = first_at[hit] // k
    elif distinct.size:
        at = np.minimum(np.searchsorted(unique, distinct), unique.size - 1)
        hit = (unique[at] == distinct) & turned[at]
        bit_time[hit] = first_at[at[hit]] // k
    return new_per_row, bit_time


def account_turned(turned, bit_time, slot_start, entry_probe, live, zeros, latest, touched, per_row) -> int:
    """``first_flips.account_turned``: a followed bit (``live``) among ``turned`` that turned at row
    ``bit_time`` takes one zero off each probe on it (its entries, ``slot_start[s]`` to ``slot_start[s + 1]``)
    and is followed no more; a probe left with none became a false positive at its latest such row, counted
    in ``per_row``. ``latest`` and ``touched`` are the compiled pass's scratch, unused here. Returns how many
    probes became false positives."""
    turned = np.asarray(turned, dtype=np.int64)
    turned = turned[(bit_time[turned] >= 0) & live[turned]]
    if not turned.size:
        return 0
    live[turned] = False
    starts, stops = slot_start[turned], slot_start[turned + 1]
    sizes = stops - starts
    entries = np.repeat(stops - sizes.cumsum(), sizes) + np.arange(int(sizes.sum()))   # each slot's range
    probes = entry_probe[entries]
    times = np.repeat(bit_time[turned], sizes)
    zeros -= np.bincount(probes, minlength=zeros.size).astype(zeros.dtype)
    last = np.full(zeros.size, -1, dtype=np.int64)
    np.maximum.at(last, probes, times)
    done = (last >= 0) & (zeros == 0)
    np.add.at(per_row, last[done], 1)
    return int(np.count_nonzero(done))
