"""Where CPython keeps a str's length, kind and code points, so that a compiled loop can read them directly.

The C API's way for a compiled loop (numba's ``numba_extract_unicode``, behind ``intrinsics.text_data``) is a
call per item that returns five values through memory; reading the fields is a few loads (measured, fresh
non-ASCII items, load 13: the hashing step 39 -> 35 ns an item at 10^5, 33 -> 29 at 10^6; ASCII unchanged). The fields are those of CPython's compact
string objects (``PyASCIIObject`` / ``PyCompactUnicodeObject``): the length after the object header, then the
hash, then a state word whose low byte holds interned (2 bits), kind (3), compact (1) and ascii (1); the code
points follow the header, which is shorter for an ASCII string.

Nothing here is taken on trust: the header sizes come from ``sys.getsizeof`` and every offset and bit is
checked against sample strings of each kind when this module is imported. On an interpreter that lays them
out otherwise (another implementation, a free-threaded build, a big-endian machine) the check fails and
``LAYOUT`` says so (all -1): the loops then ask the C API, as before. A string that is not compact (made by a
deprecated C API) is always asked through the C API.
"""

from __future__ import annotations

import ctypes
import sys

import numpy as np

_LENGTH, _STATE = 16, 32          # after the object header: length, hash, then the state word


def _codes(text: str, kind: int) -> bytes:
    return text.encode({1: "latin-1", 2: "utf-16-le", 4: "utf-32-le"}[kind], "surrogatepass")


def _agrees(text: str, kind: int, ascii_data: int, compact_data: int) -> bool:
    address, size = id(text), sys.getsizeof(text)
    data = ascii_data if text.isascii() else compact_data
    if data + len(text) * kind > size or _STATE >= size:
        return False
    state = ctypes.c_uint8.from_address(address + _STATE).value
    return (ctypes.c_ssize_t.from_address(address + _LENGTH).value == len(text)
            and (state >> 2) & 7 == kind and (state >> 5) & 1 == 1 and (state >> 6) & 1 == text.isascii()
            and ctypes.string_at(address + data, len(text) * kind) == _codes(text, kind))


def text_layout() -> np.ndarray:
    """[length, state, ASCII data, non-ASCII data] offsets of a compact str in this interpreter, or all -1."""
    unknown = np.full(4, -1, dtype=np.int64)
    if sys.implementation.name != "cpython" or sys.byteorder != "little":
        return unknown
    ascii_data, compact_data = sys.getsizeof("") - 1, sys.getsizeof("é") - 2
    # new objects (never the interpreter's cached one-character strings), one of each kind and width
    samples = [("".join(parts), kind) for parts, kind in (
        (["a", "bc"], 1), (["é", "a", "ÿ"], 1), (["ž", "ab"], 2), (["\ud800", "x"], 2), (["😀", "x"], 4),
        (["日本", "語" * 20], 2))]
    if all(_agrees(text, kind, ascii_data, compact_data) for text, kind in samples):
        return np.array([_LENGTH, _STATE, ascii_data, compact_data], dtype=np.int64)
    return unknown


LAYOUT = text_layout()
