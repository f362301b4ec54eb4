"""The exact tracker's setting pass for plain generated items given by their counter: each item hashed in the loop
that sets its bits.

``first_flips._set_halves_at`` reads the items' (h1, h2) from two n-item arrays that generated_kernel wrote
just before (8 bytes each, written and read back). Here each item's value (fmix64 of its counter), its
MurmurHash3-128 halves (h2 forced odd) and its k positions are computed where the ring of positions is filled
(generated_kernel.item_halves, mixed_kernel's ring): the same halves bit for bit, so the same positions, the
same bits, the same ``fresh`` positions and counts. The pass alone (hashing included), m = 2^32, k = 20, the
filter ~0.44 full, steps of 2^18, 16 interleaved pairs at load ~1-2: 242 (203-294) against 263 (241-300) ns an
item, faster in 15 of 16 pairs.
"""

from __future__ import annotations

import numpy as np

from bloomviz.hashing.generated_kernel import item_halves
from bloomviz.hashing.intrinsics import prefetch
from bloomviz.hashing.lazy_jit import njit
from bloomviz.hashing.mixed_kernel import _position, ring_for
from bloomviz.hashing.murmur_kernel import _fmix
from bloomviz.measure.counter_halves import CounterHalves

_U64 = np.uint64


@njit(cache=True, inline="always")
def _fill_counter(first, prefix, j, mode, mm, mask, k, view, ring, slot):
    # generated_kernel._counter_halves' item j, then mixed_kernel._fill_ring's positions of it
    z, step = item_halves(_fmix(first + _U64(j)), prefix)
    step |= _U64(1)
    for i in range(k):
        p = _position(z, mode, mm, mask)
        ring[slot, i] = p
        prefetch(view, p >> _U64(3))
        z += step


@njit(cache=True, inline="always")
def _set_counter_in(view, first, prefix, n, m, mode, k, ahead, new_per_row, fresh, ring):
    # first_flips._set_halves_in with the ring filled from the counter (see there for why each line is so)
    mm = np.uint64(m)
    mask = np.uint64(m - 1)
    last = ring.shape[0] - 1
    total = 0
    for j in range(-ahead, n):
        if j + ahead < n:
            _fill_counter(first, prefix, j + ahead, mode, mm, mask, k, view, ring, (j + ahead) & last)
        if j < 0:
            continue
        at = j & last
        before = total
        for i in range(k):
            p = ring[at, i]
            b = p >> np.uint64(3)
            shift_in = np.uint8(p & np.uint64(7))
            v = view[b]
            fresh[np.uint64(total)] = np.int64(p)
            total += np.int64(((v >> shift_in) & np.uint8(1)) ^ np.uint8(1))
            view[b] = v | (np.uint8(1) << shift_in)
        new_per_row[j] = total - before
    return total


@njit(cache=True, nogil=True)
def _set_counter_at(view, first, prefix, n, m, mode, k, ahead, new_per_row, fresh, ring):
    """``first_flips._set_halves_at`` for ``n`` plain generated items from counter ``first`` (``prefix`` their
    first byte): one copy of the loop per way of scaling a position, as there."""
    if mode == 1:
        return _set_counter_in(view, first, prefix, n, m, 1, k, ahead, new_per_row, fresh, ring)
    if mode == 0:
        return _set_counter_in(view, first, prefix, n, m, 0, k, ahead, new_per_row, fresh, ring)
    return _set_counter_in(view, first, prefix, n, m, 2, k, ahead, new_per_row, fresh, ring)


def set_counter(view, halves: CounterHalves, m: int, mode: int, k: int, ahead: int, new_per_row, fresh) -> int:
    """``_set_counter_at`` with its ring of positions (made here: see mixed_kernel.ring_for)."""
    return _set_counter_at(view, halves.first, halves.prefix, halves.count, m, mode, k, ahead, new_per_row, fresh,
                           ring_for(ahead, k))
