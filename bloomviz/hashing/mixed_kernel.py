"""murmur3-mix's batch arithmetic compiled (numba): position i of an item is fmix64(h1 + i·h2) scaled to [0, m).

The numpy version needed a dozen whole-array passes over a k x n block of 64-bit words and a transposed copy
(5 + 1.5 ns a position at k = 20); one loop over the items keeps each word in a register. Bit for bit the
same as ``schemes._mixed_scalar`` (tests/test_hash_schemes.py checks the three paths agree):

- m < 2^32: Lemire's multiply-high floor(z·m / 2^64), from 32-bit halves (hi·m + (lo·m >> 32) cannot overflow);
- m >= 2^32: z mod m, a mask when m is a power of two (the same value, without a 64-bit division).
"""

from __future__ import annotations

import numpy as np
from numba import njit

_C1 = np.uint64(0xFF51AFD7ED558CCD)
_C2 = np.uint64(0xC4CEB9FE1A85EC53)
_S33 = np.uint64(33)
_S32 = np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)
_LEMIRE_LIMIT = 1 << 32


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
            x = z ^ (z >> _S33)
            x *= _C1
            x ^= x >> _S33
            x *= _C2
            x ^= x >> _S33
            if mode == 0:
                x = ((x >> _S32) * mm + (((x & _LOW32) * mm) >> _S32)) >> _S32
            elif mode == 1:
                x &= mask
            else:
                x %= mm
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
