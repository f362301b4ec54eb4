"""Vectorised bit operations on a little-endian bitarray through a numpy view of its buffer."""

from __future__ import annotations

import ctypes
import mmap
import sys

import numpy as np
from bitarray import bitarray

from bloomviz.filters import cold_bits
from bloomviz.hashing import native_kernels

# Random access to a big array pays a page-table walk per access with 4 KiB pages (131,072 of them for a
# 512 MiB filter, far more than the TLB holds); with 2 MiB pages the walks mostly vanish: on a 512 MiB array
# here an exact set (the numpy code before bit_kernels) went from 28 to 21 ns a position and a plain scatter
# from 10.4 to 9.2.
_HUGE = 1 << 21
_HUGE_MIN_BYTES = 32 << 20
_MADV_DONTNEED, _MADV_HUGEPAGE = 4, 14


def new_bits(m: int) -> bitarray:
    """m zero bits (little-endian). From 32 MiB up (Linux), on 2 MiB pages of a fresh anonymous mapping."""
    if m >= 8 * _HUGE_MIN_BYTES:
        bits = _mapped_zeros(m)
        if bits is None:
            bits = bitarray(m, endian="little")
            bits.setall(0)
            _huge_pages(byte_view(bits))
        if _keep_freed_wanted:
            _keep_freed_memory()
        return bits
    bits = bitarray(m, endian="little")
    bits.setall(0)
    return bits


def _mapped_zeros(m: int) -> bitarray | None:
    """m zero bits in an anonymous mapping marked for huge pages before any page is touched, or None where that
    cannot be had (not Linux, m not whole bytes, the mapping refused). Its pages are the kernel's zeros and fault
    in on first touch as 2 MiB pages: a malloc'd bitarray is zeroed twice (the kernel's 4 KiB pages, then
    setall: 131,072 faults at m = 2^32) and its pages then dropped for huge ones (_huge_pages). The bitarray
    imports the buffer, which holds the mapping open until the bitarray is freed; an imported buffer cannot be
    resized, which nothing does to a filter's array (copies, unions, pickles and loads make their own)."""
    if m % 8 or not sys.platform.startswith("linux") or not hasattr(mmap, "MADV_HUGEPAGE"):
        return None
    nbytes = m // 8
    try:
        area = mmap.mmap(-1, nbytes + _HUGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    except (OSError, ValueError):
        return None
    whole = memoryview(area)
    # The kernel backs only 2 MiB-aligned stretches with huge pages: start the array on such a boundary.
    skip = -np.frombuffer(whole, dtype=np.uint8, count=1).ctypes.data % _HUGE
    try:
        area.madvise(mmap.MADV_HUGEPAGE)
    except OSError:                         # huge pages off in this kernel: still zeros, on 4 KiB pages
        pass
    return bitarray(buffer=whole[skip:skip + nbytes], endian="little")


# glibc returns a freed block of more than 128 KiB to the system (munmap, or trimming the heap's top) and
# faults in new zeroed pages for the next: a big filter's exact tracker allocates a dozen arrays of 2 MiB a
# step (one per row of 2^18 inserts), whose pages faulted 11,500 times a million items at m = 2^32 (4.5 us
# each on this virtual machine: 3.0 against 1.45 s of system time for 3 x 10^7 items; extrapolated, about a
# sixth of a Brainflayer run's CPU). Kept for reuse: blocks under 32 MiB from the heap, whose top is trimmed
# past 128 MiB free. A process-wide setting, so the application's to choose: the command line and the window
# ask for it; a program using bloomviz.core as a library keeps its allocator as it set it.
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_kept_freed = False
_keep_freed_wanted = False


def keep_freed_memory_for_big_filters() -> None:
    """From now on, once this process makes a filter of 32 MiB or more, glibc keeps freed work arrays for reuse
    (the command line and the window call this; a library user may too)."""
    global _keep_freed_wanted
    _keep_freed_wanted = True


def keep_freed_memory_now() -> bool:
    """If the application asked for it (``keep_freed_memory_for_big_filters``), glibc keeps freed work arrays for
    reuse from now on, whatever the filter's size. The window's idle warm-up (gui/idle_warm_up.py) calls it after
    its first paint: a first auto-play of 10^6 items into a 1.2 MB filter faulted ~5,000 more fresh pages than
    the next one. Returns whether the allocator keeps them."""
    return _keep_freed_memory() if _keep_freed_wanted else False


def _keep_freed_memory() -> bool:
    """Once a process holds a big filter: glibc keeps freed work arrays for reuse (Linux; elsewhere nothing)."""
    global _kept_freed
    if _kept_freed or not sys.platform.startswith("linux"):
        return _kept_freed
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):       # not glibc (musl has no mallopt)
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    _kept_freed = bool(mallopt(_M_MMAP_THRESHOLD, 32 << 20)) and bool(mallopt(_M_TRIM_THRESHOLD, 128 << 20))
    return _kept_freed


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


def _kernels():
    # Imported on the first bit pass: numba's import costs ~0.18 s, which a command that never sets a bit
    # (calc, inspect, the window before its first insert) should not pay.
    from bloomviz.filters import bit_kernels
    return bit_kernels


def set_bits(bits: bitarray, positions: np.ndarray) -> int:
    """Set the bits at ``positions`` (refused whole, before any write, if one lies outside [0, m)); return
    how many turned from 0 to 1. One compiled pass (bit_kernels), 1.0-1.7x a bare numpy scatter's time."""
    if cold_bits.use(np.size(positions), native_kernels.SET_BITS):
        return cold_bits.set_positions(byte_view(bits), positions, len(bits))
    return _kernels().set_positions(byte_view(bits), positions, len(bits))


def all_set(bits: bitarray, rows: np.ndarray) -> np.ndarray:
    """Bool per row of ``rows`` (n x k positions): are all the row's bits set?"""
    if cold_bits.use(np.size(rows), native_kernels.ALL_SET):
        return cold_bits.all_set(byte_view(bits), rows, len(bits))
    return _kernels().all_set(byte_view(bits), rows, len(bits))


def and_bits(bits: bitarray, positions: np.ndarray, found: np.ndarray) -> None:
    """AND the bits at ``positions`` into ``found`` (bool, one per position), skipping rows already False."""
    if cold_bits.use(np.size(positions), native_kernels.AND_BITS):
        cold_bits.and_bits(byte_view(bits), positions, len(bits), found)
    else:
        _kernels().and_bits(byte_view(bits), positions, len(bits), found)


class BitSetter:
    """Sets many positions in one bitarray, handed over in pieces (e.g. a batch's columns of positions),
    counting the bits turned from 0 to 1 so the array need not be recounted (130 ms at m = 2^32)."""

    def __init__(self, bits: bitarray):
        self._view = byte_view(bits)
        self._m = len(bits)
        self.fresh = 0

    def add(self, positions: np.ndarray) -> None:
        if cold_bits.use(np.size(positions), native_kernels.SET_BITS):
            self.fresh += cold_bits.set_positions(self._view, positions, self._m)
        else:
            self.fresh += _kernels().set_positions(self._view, positions, self._m)


def unpack(bits: bitarray) -> np.ndarray:
    """All m bits as a uint8 array of 0/1 (costs m bytes: for redraws, not per insert)."""
    return np.unpackbits(byte_view(bits), bitorder="little")[: len(bits)]
