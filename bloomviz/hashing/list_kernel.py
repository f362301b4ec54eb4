"""MurmurHash3_x64_128 of every item of a list of str or bytes, each read where it lies (compiled, numba).

The joined paths (murmur_kernel) copy every item into one buffer first and, for bytes, ask every item its type
in Python so that only the policy's kinds get in: each of those passes touches every item object, and in a
list of 10^6 items that is a cache miss an item (10^6 bytes items here: the type pass ~16 ns an item, the
join ~13, then the hash and a scan for the separators). This loop visits each item once, through the C API
(``intrinsics``): its exact type is checked, a bytes item or an ASCII str is hashed in place, and a non-ASCII
str is encoded to UTF-8 into a scratch buffer as it is hashed (each code point on its own, as
``surrogatepass`` encodes a lone surrogate; measured: 10^6 items, ~16 ns an item for bytes and ASCII str,
~29 for non-ASCII, against 25 / 48 joined).

An item of another type (a bytearray, a str subclass, anything the policy refuses) stops the loop; the caller
then takes its checked path, which accepts or names it. Bit for bit ``mmh3.hash_bytes`` of the item policy's
bytes (tests/test_list_kernel.py).
"""

from __future__ import annotations

import numpy as np
from numba import carray, njit

from bloomviz.hashing.intrinsics import (bytes_data, list_item, list_size, load64, store32, text_data,
                                         type_address)
from bloomviz.hashing.murmur_kernel import _murmur

# Items per compiled call: the loop holds the GIL (it reads Python objects), so a long list is taken in pieces
# of a few milliseconds and another thread (the window's) gets its turn between them.
SLICE = 1 << 16


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
def _utf8(code_points, length, out, per_word):
    """Encode ``length`` code points (``per_word`` of them fill 8 bytes: 8 Latin-1, 4 UCS-2; 0 for UCS-4)
    into ``out`` (room for 4 bytes each); return the bytes written. Runs of ASCII go a word at a time: most
    non-ASCII text is mostly ASCII, and a branch per character mispredicts at every change of width."""
    j = 0
    i = 0
    while i < length:
        if per_word and i + per_word <= length:
            w = load64(code_points, i)
            if per_word == 8 and not w & _HIGH8:
                store32(out, j, np.uint32(w & _LOW32))
                store32(out, j + 4, np.uint32(w >> np.uint64(32)))
                i += 8
                j += 8
                continue
            if per_word == 4 and not w & _HIGH16:
                packed = ((w & np.uint64(0xFF)) | ((w >> np.uint64(8)) & np.uint64(0xFF00))
                          | ((w >> np.uint64(16)) & np.uint64(0xFF0000)) | ((w >> np.uint64(24)) & np.uint64(0xFF000000)))
                store32(out, j, np.uint32(packed))
                i += 4
                j += 4
                continue
        j = _utf8_one(np.uint32(code_points[i]), out, j)
        i += 1
    return j


_HIGH8 = np.uint64(0x8080808080808080)       # a byte >= 0x80 in 8 Latin-1 code points
_HIGH16 = np.uint64(0xFF80FF80FF80FF80)      # a code point >= 0x80 among 4 UCS-2 ones
_LOW32 = np.uint64(0xFFFFFFFF)


@njit(cache=True)
def _text_halves(address, start, stop, str_type, h1, h2):
    """As ``_bytes_halves`` for a list of str, each hashed as its UTF-8 (surrogatepass) bytes."""
    if list_size(address) < stop:
        return start
    scratch = np.empty(256, np.uint8)
    for i in range(start, stop):
        item = list_item(address, i)
        if type_address(item) != str_type:
            return i
        ok, pointer, length, kind, ascii = text_data(item)
        if not ok:
            return i
        if ascii:
            h1[i], h2[i] = _murmur(carray(pointer, (length,), np.uint8), 0, length, 0)
            continue
        if scratch.size < 4 * length:
            scratch = np.empty(4 * length, np.uint8)
        if kind == 1:
            size = _utf8(carray(pointer, (length,), np.uint8), length, scratch, 8)
        elif kind == 2:
            size = _utf8(carray(pointer, (length,), np.uint16), length, scratch, 4)
        else:
            size = _utf8(carray(pointer, (length,), np.uint32), length, scratch, 0)
        h1[i], h2[i] = _murmur(scratch, 0, size, 0)
    return -1


def list_halves(items: list, of_bytes: bool) -> tuple[np.ndarray, np.ndarray] | None:
    """(h1, h2) of every item of a list of exactly bytes (``of_bytes``) or exactly str; None as soon as an item
    is of another type (nothing else happens: the caller's path takes the list)."""
    n = len(items)
    h1, h2 = np.empty(n, dtype=np.uint64), np.empty(n, dtype=np.uint64)
    kernel, kind = (_bytes_halves, id(bytes)) if of_bytes else (_text_halves, id(str))
    address = id(items)
    for start in range(0, n, SLICE):
        if kernel(address, start, min(n, start + SLICE), kind, h1, h2) >= 0:
            return None
    return h1, h2
