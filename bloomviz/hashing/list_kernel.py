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

from bloomviz.hashing.intrinsics import bytes_data, list_item, list_size, text_data, type_address
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
def _utf8(code_points, length, out):
    """Encode ``length`` code points into ``out`` (room for 4 bytes each); return the bytes written."""
    j = 0
    for i in range(length):
        c = np.uint32(code_points[i])
        if c < 0x80:
            out[j] = c
            j += 1
        elif c < 0x800:
            out[j] = 0xC0 | (c >> 6)
            out[j + 1] = 0x80 | (c & 0x3F)
            j += 2
        elif c < 0x10000:
            out[j] = 0xE0 | (c >> 12)
            out[j + 1] = 0x80 | ((c >> 6) & 0x3F)
            out[j + 2] = 0x80 | (c & 0x3F)
            j += 3
        else:
            out[j] = 0xF0 | (c >> 18)
            out[j + 1] = 0x80 | ((c >> 12) & 0x3F)
            out[j + 2] = 0x80 | ((c >> 6) & 0x3F)
            out[j + 3] = 0x80 | (c & 0x3F)
            j += 4
    return j


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
            size = _utf8(carray(pointer, (length,), np.uint8), length, scratch)
        elif kind == 2:
            size = _utf8(carray(pointer, (length,), np.uint16), length, scratch)
        else:
            size = _utf8(carray(pointer, (length,), np.uint32), length, scratch)
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
