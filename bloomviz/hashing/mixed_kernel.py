"""murmur3-mix's batch arithmetic compiled (numba): position i of an item is fmix64(h1 + i·h2) scaled to [0, m).

The numpy version needed a dozen whole-array passes over a k x n block of 64-bit words and a transposed copy
(5 + 1.5 ns a position at k = 20); one loop over the items keeps each word in a register. Bit for bit the
same as ``schemes._mixed_scalar`` (tests/hashing/test_cold_paths.py checks the paths agree):

- m < 2^32: Lemire's multiply-high floor(z·m / 2^64), one widening multiply (``intrinsics.mulhi``; the same
  value as the 32-bit halves' hi·m + (lo·m >> 32) the numpy paths use, 1.7x faster on a 10^5-item insert);
- m >= 2^32: z mod m, a mask when m is a power of two (the same value, without a 64-bit division).
"""

from __future__ import annotations

import numpy as np

from bloomviz.hashing.lazy_jit import njit
from bloomviz.hashing.intrinsics import load64, mulhi, popcount, prefetch

_C1 = np.uint64(0xFF51AFD7ED558CCD)
_C2 = np.uint64(0xC4CEB9FE1A85EC53)
_S33 = np.uint64(33)
_LEMIRE_LIMIT = 1 << 32


@njit(cache=True, inline="always")
def _position(z, mode, mm, mask):
    # fmix64(z) scaled to [0, m): mode 0 multiply-high (m < 2^32), 1 a mask (a power of two), 2 modulo
    x = z ^ (z >> _S33)
    x *= _C1
    x ^= x >> _S33
    x *= _C2
    x ^= x >> _S33
    if mode == 0:
        return mulhi(x, mm)
    if mode == 1:
        return x & mask
    return x % mm


@njit(cache=True, nogil=True)
def _mix(h1, h2, m, mode, out, by_row):
    # mode 0: multiply-high (m < 2^32); 1: mask (m - 1, a power of two); 2: modulo
    n = h1.size
    k = out.shape[1] if by_row else out.shape[0]
    mm = np.uint64(m)
    mask = np.uint64(m - 1)
    for j in range(n):
        z = h1[j]
        step = h2[j]
        for i in range(k):
            x = _position(z, mode, mm, mask)
            if by_row:
                out[j, i] = np.int64(x)
            else:
                out[i, j] = np.int64(x)
            z += step


def _mode(m: int) -> int:
    if m < _LEMIRE_LIMIT:
        return 0
    return 1 if m & (m - 1) == 0 else 2


def _filled(h1: np.ndarray, h2: np.ndarray, m: int, out: np.ndarray, by_row: bool) -> np.ndarray:
    _mix(np.ascontiguousarray(h1, dtype=np.uint64), np.ascontiguousarray(h2, dtype=np.uint64), m, _mode(m),
         out, by_row)
    return out


def mixed_rows(h1: np.ndarray, h2: np.ndarray, m: int, k: int) -> np.ndarray:
    """The n x k positions of n items from their hash halves (uint64 arrays)."""
    return _filled(h1, h2, m, np.empty((h1.size, k), dtype=np.int64), by_row=True)


def mixed_columns(h1: np.ndarray, h2: np.ndarray, m: int, k: int) -> np.ndarray:
    """The same positions as a k x n array: row i is position i of every item."""
    return _filled(h1, h2, m, np.empty((k, h1.size), dtype=np.int64), by_row=False)


# --- positions and bits in one loop ---------------------------------------------------------------------------
# For a plain filter the positions are only an address: computing each and setting (or testing) its bit in the
# same loop saves writing and re-reading a k x n array. A filter larger than the CPU's caches misses on every
# position; there the loop computes the positions of the item a few ahead, asks for their cache lines and keeps
# them in a small ring, so that many misses are in flight at once (measured, k = 7: at m = 9.6e6 a set 31 -> 25
# ns an item, at m = 9.6e7 137 -> 45; at m = 2^32, k = 20, 600 -> 220). A filter that fits in the caches gains
# nothing from it and pays the ring (m = 9.6e5: 19 -> 22 ns), so it runs the plain loop. The bit is set whether
# or not it was set (a branch on it mispredicts half the time: the set step 68 -> 34 ns an item at 10^6).
RING_BYTES = 1 << 20            # filters of more bytes take the ring
AHEAD_POSITIONS = 32            # positions in flight: ceil(32 / k) items ahead


@njit(cache=True, inline="always")
def _set_bit(view, p):
    byte = p >> np.uint64(3)
    bit = np.uint8(1) << np.uint8(p & np.uint64(7))
    v = view[byte]
    view[byte] = v | bit
    return (v & bit) == 0


@njit(cache=True, inline="always")
def _bit(view, p):
    return (view[p >> np.uint64(3)] >> np.uint8(p & np.uint64(7))) & np.uint8(1)


def ring_for(ahead: int, k: int) -> np.ndarray:
    """Room for the positions of ``ahead`` items and the current one, a power of two of rows: made by the caller
    of a kernel, since an array made inside one needs numba's runtime, which a kernel served by the native kernel
    cache (native_kernels.py, loaded without numba) cannot call."""
    slots = 1
    while slots <= ahead:
        slots *= 2
    return np.empty((slots, k), dtype=np.uint64)


@njit(cache=True, inline="always")
def _fill_ring(h1, h2, j, mode, mm, mask, k, view, ring, slot):
    z = h1[j]
    step = h2[j]
    for i in range(k):
        p = _position(z, mode, mm, mask)
        ring[slot, i] = p
        prefetch(view, p >> np.uint64(3))
        z += step


@njit(cache=True, inline="always")
def _or_bit(view, p):
    byte = p >> np.uint64(3)
    view[byte] |= np.uint8(1) << np.uint8(p & np.uint64(7))


@njit(cache=True, nogil=True)
def _mix_set(h1, h2, m, mode, k, view, ahead, count, ring):
    # count: return how many bits turned from 0 to 1 (else 0: the caller counts the array before and after);
    # ring: ring_for(ahead, k)
    fresh = 0
    mm = np.uint64(m)
    mask = np.uint64(m - 1)
    n = h1.size
    if ahead == 0:
        for j in range(n):
            z = h1[j]
            step = h2[j]
            for _ in range(k):
                if count:
                    fresh += _set_bit(view, _position(z, mode, mm, mask))
                else:
                    _or_bit(view, _position(z, mode, mm, mask))
                z += step
        return fresh
    last = ring.shape[0] - 1
    for j in range(-ahead, n):
        if j + ahead < n:
            _fill_ring(h1, h2, j + ahead, mode, mm, mask, k, view, ring, (j + ahead) & last)
        if j >= 0:
            slot = j & last
            for i in range(k):
                if count:
                    fresh += _set_bit(view, ring[slot, i])
                else:
                    _or_bit(view, ring[slot, i])
    return fresh


@njit(cache=True, nogil=True)
def _count_bits(view):
    """The 1 bits of a byte array, a word at a time."""
    total = np.uint64(0)
    words = view.size // 8
    for w in range(words):
        total += popcount(load64(view, 8 * w))
    for b in range(8 * words, view.size):
        total += popcount(np.uint64(view[b]))
    return total


@njit(cache=True, nogil=True)
def _mix_test(h1, h2, m, mode, k, view, out, ahead, ring):
    mm = np.uint64(m)
    mask = np.uint64(m - 1)
    n = h1.size
    if ahead == 0:
        for j in range(n):
            z = h1[j]
            step = h2[j]
            found = True
            for _ in range(k):
                if not _bit(view, _position(z, mode, mm, mask)):
                    found = False
                    break
                z += step
            out[j] = found
        return
    last = ring.shape[0] - 1
    for j in range(-ahead, n):
        if j + ahead < n:
            _fill_ring(h1, h2, j + ahead, mode, mm, mask, k, view, ring, (j + ahead) & last)
        if j >= 0:
            slot = j & last
            found = True
            for i in range(k):
                if not _bit(view, ring[slot, i]):
                    found = False
                    break
            out[j] = found


def _ahead(m: int, k: int) -> int:
    """Items ahead whose cache lines are asked for; 0 for a filter that fits in the caches (the plain loop)."""
    return 0 if m <= 8 * RING_BYTES or k == 0 else -(-AHEAD_POSITIONS // k)


def _checked_view(view: np.ndarray, m: int) -> np.ndarray:
    # the loops index the array unchecked (numba): every position is below m, so m bits must fit in it
    if view.dtype != np.uint8 or view.ndim != 1 or view.size * 8 < m:
        raise ValueError(f"a filter's bits must be a uint8 array of at least {(m + 7) // 8:,} bytes for m = {m:,}")
    return view


def set_from_halves(h1: np.ndarray, h2: np.ndarray, m: int, k: int, view: np.ndarray) -> int:
    """Set the k bits of every item given by its halves in the little-endian byte array ``view`` of m bits;
    return how many turned from 0 to 1. The same bits as ``mixed_rows`` then setting each row's positions."""
    h1, h2 = np.ascontiguousarray(h1, dtype=np.uint64), np.ascontiguousarray(h2, dtype=np.uint64)
    view = _checked_view(view, m)
    ahead = _ahead(m, k)
    ring = ring_for(ahead, k)
    if not _count_after(view, m, h1.size * k):
        return int(_mix_set(h1, h2, m, _mode(m), k, view, ahead, True, ring))
    before = _count_bits(view)
    _mix_set(h1, h2, m, _mode(m), k, view, ahead, False, ring)
    return int(_count_bits(view) - before)


def _count_after(view: np.ndarray, m: int, positions: int) -> bool:
    """Count the bits set before and after a batch rather than as it sets them? Counting each as it goes reads
    the byte's old value into a sum (at 10^5 items, k = 7: 17 -> 14 ns an item without it; 10^6: 30 -> 25);
    counting the array costs a pass over it, which pays while it has no more bytes than the batch has
    positions. Filters of 2^32 bits and more keep counting as they go."""
    return m < (1 << 32) and view.size <= positions


def test_from_halves(h1: np.ndarray, h2: np.ndarray, m: int, k: int, view: np.ndarray) -> np.ndarray:
    """Bool per item: are all its k bits set? Stops at an item's first 0 bit."""
    out = np.empty(h1.size, dtype=np.bool_)
    ahead = _ahead(m, k)
    _mix_test(np.ascontiguousarray(h1, dtype=np.uint64), np.ascontiguousarray(h2, dtype=np.uint64), m, _mode(m),
              k, _checked_view(view, m), out, ahead, ring_for(ahead, k))
    return out
