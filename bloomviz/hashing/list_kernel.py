"""MurmurHash3_x64_128 of every item of a list of str or bytes, each read where it lies (compiled, numba).

The joined paths (murmur_kernel) copy every item into one buffer first and, for bytes, ask every item its type
in Python so that only the policy's kinds get in: each of those passes touches every item object, and in a
list of 10^6 items that is a cache miss an item (10^6 bytes items here: the type pass ~16 ns an item, the
join ~13, then the hash and a scan for the separators). This loop visits each item once, through the C API
(``intrinsics``): its exact type is checked, a bytes item or an ASCII str is hashed in place, and a non-ASCII
str is encoded to UTF-8 into a scratch buffer and hashed one non-ASCII item later (each code point on its
own, as ``surrogatepass`` encodes a lone surrogate; measured: 10^6 items, ~10-13 ns an item for bytes and ASCII
str, ~29 for non-ASCII, against 25 / 48 joined).

An item of another type (a bytearray, a str subclass, anything the policy refuses) stops the loop; the caller
then takes its checked path, which accepts or names it. Bit for bit ``mmh3.hash_bytes`` of the item policy's
bytes (tests/hashing/test_list_kernel.py).
"""

from __future__ import annotations

import threading

import numpy as np

from bloomviz.hashing.lazy_jit import njit, numba_value
from bloomviz.hashing.intrinsics import (bytes_data, field_address, list_item, list_size, load64, peek_byte,
                                         peek_word, store32, text_data, type_address)
from bloomviz.hashing.murmur_kernel import _murmur
from bloomviz.hashing.str_layout import LAYOUT

# Items per compiled call: the loop holds the GIL (it reads Python objects), so a long list is taken in pieces
# of a few milliseconds and another thread (the window's) gets its turn between them.
SLICE = 1 << 16
carray = numba_value("numba", "carray")     # made real when the loops compile (lazy_jit)


@njit(cache=True)
def _bytes_halves(address, start, stop, bytes_type, h1, h2):
    """Hash items [start, stop) of a list of bytes into h1/h2; the index of the first item that is not exactly
    bytes (or ``start`` if the list is shorter than ``stop`` now), or -1."""
    if list_size(address) < stop:
        return start
    for i in range(start, stop):
        item = list_item(address, i)
        if type_address(item) != bytes_type:
            return i
        pointer, size = bytes_data(item)
        h1[i], h2[i] = _murmur(carray(pointer, (size,), np.uint8), 0, size, 0)
    return -1


@njit(cache=True, inline="always")
def _utf8_one(c, out, j):
    """Encode code point ``c`` at ``out[j]``; return the index after it."""
    if c < 0x80:
        out[j] = c
        return j + 1
    if c < 0x800:
        out[j] = 0xC0 | (c >> 6)
        out[j + 1] = 0x80 | (c & 0x3F)
        return j + 2
    if c < 0x10000:
        out[j] = 0xE0 | (c >> 12)
        out[j + 1] = 0x80 | ((c >> 6) & 0x3F)
        out[j + 2] = 0x80 | (c & 0x3F)
        return j + 3
    out[j] = 0xF0 | (c >> 18)
    out[j + 1] = 0x80 | ((c >> 12) & 0x3F)
    out[j + 2] = 0x80 | ((c >> 6) & 0x3F)
    out[j + 3] = 0x80 | (c & 0x3F)
    return j + 4


@njit(cache=True, inline="always")
def _utf8_latin1(code_points, length, out, j):
    """Encode ``length`` Latin-1 code points into ``out`` from ``j``; return the index after them. Runs of
    ASCII go 8 code points (one word) at a time: Latin-1 text is mostly ASCII (a sentence with one accent:
    13.6 against 27 ns a character at a time)."""
    i = 0
    while i < length:
        if i + 8 <= length:
            w = load64(code_points, i)
            if not w & _HIGH8:
                store32(out, j, np.uint32(w & _LOW32))
                store32(out, j + 4, np.uint32(w >> np.uint64(32)))
                i += 8
                j += 8
                continue
        j = _utf8_one(np.uint32(code_points[i]), out, j)
        i += 1
    return j


@njit(cache=True, inline="always")
def _utf8_wide(code_points, length, out, j):
    """As ``_utf8_latin1`` for UCS-2 or UCS-4 code points, one at a time: a word-at-a-time test for ASCII
    fails on most words of such text and mispredicts where it passes (measured, 10^4 items: 15-character
    mixed Latin 17 -> 14 ns an item, Cyrillic 20 -> 15, CJK 25 -> 18; a long mostly-ASCII sentence 24 -> 26)."""
    for i in range(length):
        c = np.uint32(code_points[i])
        if c < 0x80:
            out[j] = c
            j += 1
        else:
            j = _utf8_one(c, out, j)
    return j


_HIGH8 = np.uint64(0x8080808080808080)       # a byte >= 0x80 in 8 Latin-1 code points
_LOW32 = np.uint64(0xFFFFFFFF)


@njit(cache=True, inline="always")
def _encode(pointer, length, kind, out, j):
    """A str's code points (``kind`` bytes each) as UTF-8 in ``out`` from ``j``; the index after them."""
    if kind == 1:
        return _utf8_latin1(carray(pointer, (length,), np.uint8), length, out, j)
    if kind == 2:
        return _utf8_wide(carray(pointer, (length,), np.uint16), length, out, j)
    return _utf8_wide(carray(pointer, (length,), np.uint32), length, out, j)


@njit(cache=True, inline="always")
def _text_fields(item, layout):
    """As ``text_data``, read from the str's fields where ``layout`` (str_layout) knows them and the str is
    compact, through the C API otherwise."""
    if layout[0] >= 0:
        state = peek_byte(item, layout[1])
        if state & 32:
            ascii = (state >> 6) & 1
            return (True, field_address(item, layout[2] if ascii else layout[3]), peek_word(item, layout[0]),
                    np.int32((state >> 2) & 7), np.int32(ascii))
    return text_data(item)


@njit(cache=True)
def _text_halves(address, start, stop, str_type, h1, h2, scratch, layout):
    """As ``_bytes_halves`` for a list of str, each hashed as its UTF-8 (surrogatepass) bytes; -2 - i when
    item i needs more than half of ``scratch`` (the caller gives a larger one and goes on from i).

    A non-ASCII item is encoded into one half of ``scratch`` and hashed only after the next non-ASCII item
    has been encoded into the other half: hashing bytes just written makes each 8-byte load wait until the
    small stores under it reach the cache (measured, 10^5 items of 15 characters: 34.6 -> 30.1 ns an item)."""
    if list_size(address) < stop:
        return start
    half = scratch.size // 2
    pending, pending_end, at = -1, 0, 0       # the item encoded and not yet hashed, its end; the free half
    for i in range(start, stop):
        item = list_item(address, i)
        if type_address(item) != str_type:
            return i
        ok, pointer, length, kind, ascii = _text_fields(item, layout)
        if not ok:
            return i
        if ascii:
            h1[i], h2[i] = _murmur(carray(pointer, (length,), np.uint8), 0, length, 0)
            continue
        if 4 * length > half:
            if pending >= 0:
                h1[pending], h2[pending] = _murmur(scratch, half - at, pending_end, 0)
            return -2 - i
        end = _encode(pointer, length, kind, scratch, at)
        if pending >= 0:
            h1[pending], h2[pending] = _murmur(scratch, half - at, pending_end, 0)
        pending, pending_end, at = i, end, half - at
    if pending >= 0:
        h1[pending], h2[pending] = _murmur(scratch, half - at, pending_end, 0)
    return -1


def list_halves(items: list, of_bytes: bool, reuse: bool = False) -> tuple[np.ndarray, np.ndarray] | None:
    """(h1, h2) of every item of a list of exactly bytes (``of_bytes``) or exactly str; None as soon as an item
    is of another type (nothing else happens: the caller's path takes the list). ``reuse``: the arrays may be
    the ones this thread's previous call of the same length got, for a caller done with them before its next
    call (``batch_paths.fused_halves``: the fused set and test)."""
    n = len(items)
    h1, h2 = _arrays(n) if reuse and n <= REUSE_LIMIT else (np.empty(n, np.uint64), np.empty(n, np.uint64))
    address = id(items)
    if of_bytes:
        for start in range(0, n, SLICE):
            if _bytes_halves(address, start, min(n, start + SLICE), id(bytes), h1, h2) >= 0:
                return None
        return h1, h2
    scratch = np.empty(2 * _SCRATCH, dtype=np.uint8)
    start = 0
    while start < n:
        stop = min(n, start + SLICE)
        stopped = _text_halves(address, start, stop, id(str), h1, h2, scratch, LAYOUT)
        if stopped >= 0:
            return None
        if stopped == -1:
            start = stop
        else:                          # a long item: room for its UTF-8 (4 bytes a code point at most)
            start = -2 - stopped
            if start >= len(items):    # the list shrank meanwhile (another thread): the checked path
                return None
            scratch = np.empty(8 * len(items[start]), dtype=np.uint8)
    return h1, h2


_SCRATCH = 1024       # bytes for one encoded item (a longer one gets a larger scratch)

# New arrays of 10^5 halves are 1.6 MB the system maps afresh (~390 page faults, 2-4 ns an item of a 10^5-item
# insert measured here, and 20-45 ns an item on a thread's first such batch on a loaded machine): a batch reuses
# this thread's buffer, grown to the largest batch so far (up to REUSE_LIMIT items, 16 MiB). Batches of fewer
# than REUSE_MIN items get arrays of their own (from the allocator's free memory: no fresh pages to map).
# The buffer is at least 4 MiB and starts on a 2 MiB boundary: numpy asks the system for huge pages for an
# array of 4 MiB or more (madvise), and a huge page is one fault where 512 small ones were (a first insert of
# 10^5 non-ASCII str items, measured: 392 faults, 56 ns an item -> 0 faults in that call, 45-47 ns; then
# 44-46 either way). Where the system gives no huge pages it is small pages, as before.
REUSE_LIMIT = 1 << 20
REUSE_MIN = 1 << 14
_HUGE_PAGE = 1 << 21
_kept = threading.local()


def _arrays(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Two arrays of n uint64, for a caller done with them before this thread's next call (views of the thread's
    buffer from REUSE_MIN items)."""
    if n < REUSE_MIN:
        return np.empty(n, np.uint64), np.empty(n, np.uint64)
    buffer = getattr(_kept, "buffer", None)
    if buffer is None or buffer.size < 2 * n:
        size = max(2 * n, (4 << 20) // 8)
        raw = np.empty(size + _HUGE_PAGE // 8, np.uint64)
        start = (-raw.ctypes.data % _HUGE_PAGE) // 8       # (numpy's arrays are 8-byte aligned at least)
        buffer = _kept.buffer = raw[start:start + size]
    return buffer[:n], buffer[n:2 * n]
