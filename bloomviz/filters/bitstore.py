"""Vectorised bit operations on a little-endian bitarray through a numpy view of its buffer."""

from __future__ import annotations

import ctypes
import sys

import numpy as np
from bitarray import bitarray

# Setting bits through a dense m-sized boolean mask is ~10x faster than ufunc.at but costs m bytes per call;
# use it only when the batch is large compared with m and m itself is moderate.
_DENSE_MAX_M = 1 << 27


# Random access to a big array pays a page-table walk per access with 4 KiB pages (131,072 of them for a
# 512 MiB filter, far more than the TLB holds); with 2 MiB pages the walks mostly vanish: on a 512 MiB array
# here the exact set (set_fresh_bits) went from 28 to 21 ns a position and a plain scatter from 10.4 to 9.2.
_HUGE = 1 << 21
_HUGE_MIN_BYTES = 32 << 20
_MADV_DONTNEED, _MADV_HUGEPAGE = 4, 14


def new_bits(m: int) -> bitarray:
    bits = bitarray(m, endian="little")
    bits.setall(0)
    if len(bits) >= 8 * _HUGE_MIN_BYTES:
        _huge_pages(byte_view(bits))
    return bits


def _huge_pages(zeroed: np.ndarray) -> bool:
    """Back the whole 2 MiB pages inside a buffer that holds only zeros with huge pages (Linux), keeping its
    contents: the pages are marked for huge pages, then dropped, and refault as zeroed 2 MiB pages when next
    touched. bitarray has already written its zeros by then, so marking alone would wait for the kernel's
    background collapse. Returns whether the kernel took the advice; elsewhere, or refused, nothing changes.
    Never call this on a buffer holding anything but zeros: the dropped pages come back as zeros."""
    if not sys.platform.startswith("linux"):
        return False
    start = -(-zeroed.ctypes.data // _HUGE) * _HUGE
    stop = (zeroed.ctypes.data + zeroed.nbytes) // _HUGE * _HUGE
    if stop - start < _HUGE:
        return False
    try:
        madvise = ctypes.CDLL(None, use_errno=True).madvise
    except (OSError, AttributeError):
        return False
    madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    if madvise(start, stop - start, _MADV_HUGEPAGE) != 0:
        return False
    return madvise(start, stop - start, _MADV_DONTNEED) == 0


def byte_view(bits: bitarray) -> np.ndarray:
    return np.frombuffer(bits, dtype=np.uint8)


def test_bits(bits: bitarray, positions: np.ndarray) -> np.ndarray:
    """The bit (0/1, uint8) at every position, same shape as ``positions``."""
    view = byte_view(bits)
    p = np.asarray(positions, dtype=np.int64)
    return (view[p >> 3] >> (p & 7).astype(np.uint8)) & np.uint8(1)


def set_bits(bits: bitarray, positions: np.ndarray) -> None:
    p = np.asarray(positions, dtype=np.int64).ravel()
    if p.size == 0:
        return
    view = byte_view(bits)
    m = len(bits)
    if m <= _DENSE_MAX_M and p.size * 8 >= m // 8:
        mask = np.zeros(len(view) * 8, dtype=bool)
        mask[p] = True
        view |= np.packbits(mask, bitorder="little")
    else:
        # a plain scatter, read back and retried where bits of one byte overwrote each other: about half
        # the cost of numpy.bitwise_or.at (benchmarks/bench_scale.py measures both against a bare scatter)
        set_fresh_bits(view, p)


SET_BLOCK = 1 << 14   # positions per scatter: their bytes' cache lines are still in L2 for the read-back
_BIT = np.array([1 << i for i in range(8)], dtype=np.uint8)   # the mask of bit i of a byte


def set_fresh_bits(view: np.ndarray, positions: np.ndarray) -> None:
    """Set bits of a little-endian byte array with a plain scatter, reading back and retrying the writes that
    another bit of the same byte overwrote (last writer wins per byte; each round sets at least one bit of
    every contended byte). Exact for any positions. Done a block of 16,384 positions at a time, so the gather,
    the scatter and the read-back touch lines the first of them brought into the cache. (Two threads, one per
    half of the array as in first_flips.flip_pass, measured no faster on an idle machine: 20.5-20.8 ns a
    position against 20.6-22 in one thread.)"""
    _set_blocks(view, np.asarray(positions, dtype=np.int64).ravel())


def _set_blocks(view: np.ndarray, p: np.ndarray) -> None:
    for lo in range(0, p.size, SET_BLOCK):
        block = p[lo:lo + SET_BLOCK]
        byte = block >> 3
        mask = _BIT.take(block & 7)
        value = view.take(byte)
        value |= mask
        view[byte] = value
        back = view.take(byte)
        back &= mask
        if np.count_nonzero(back) == back.size:      # the usual case: no two positions shared a byte
            continue
        missed = back == 0
        byte, mask = byte[missed], mask[missed]
        while byte.size:
            view[byte] = view[byte] | mask
            missed = (view[byte] & mask) == 0
            if not missed.any():
                break
            byte, mask = byte[missed], mask[missed]


class BitSetter:
    """Sets many positions in one bitarray, handed over in pieces (e.g. a batch's columns of positions).

    When the whole batch is large compared with m (the same rule as ``set_bits``), the pieces are scattered
    into one dense m-byte mask that is packed and OR-ed in once by ``finish``: a batch of a million items
    then costs one pack instead of one per chunk. Otherwise each piece is set as it comes. Nothing is set
    before ``finish`` in the dense case, so an error part-way leaves the bits unchanged.
    """

    def __init__(self, bits: bitarray, expected_positions: int):
        self._bits = bits
        m = len(bits)
        dense = m <= _DENSE_MAX_M and expected_positions * 8 >= m // 8
        self._mask = np.zeros(len(byte_view(bits)) * 8, dtype=bool) if dense else None

    def add(self, positions: np.ndarray) -> None:
        if self._mask is None:
            set_bits(self._bits, positions)
        else:
            self._mask[positions] = True

    def finish(self) -> None:
        if self._mask is not None:
            view = byte_view(self._bits)
            view |= np.packbits(self._mask, bitorder="little")
            self._mask = None


def unpack(bits: bitarray) -> np.ndarray:
    """All m bits as a uint8 array of 0/1 (costs m bytes: for redraws, not per insert)."""
    return np.unpackbits(byte_view(bits), bitorder="little")[: len(bits)]
