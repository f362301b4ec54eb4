"""MurmurHash3_x64_128 of generated items from their 64-bit values, compiled (numba): one loop, no words.

A generated item (items.generated) is its prefix byte and the 16 hex digits of a 64-bit value, 17 bytes. The
numpy path spells every item's three little-endian words and hashes them in some forty whole-array passes
(murmur_np.hash128_words): 27-53 ns an item on 2^18 items (the machine quiet / loaded); this loop keeps an
item's words in registers: 14 ns from the items' values, 8 from the counter they are made of. The same (h1, h2)
(tests/hashing/test_generated_kernel.py checks it against murmur_np and mmh3). The filters of more than 2^26 bits take
it (filters.generated_positions.halves): those load numba anyway, and no window builds one before its first
paint.
"""

from __future__ import annotations

import numpy as np

from bloomviz.hashing.lazy_jit import njit
from bloomviz.hashing.murmur_kernel import _C1, _C2, _FIVE, _N1, _N2, _finish, _fmix, _rotl
from bloomviz.items.generated import LENGTH, GeneratedItems

_U64 = np.uint64
_LOW32 = np.uint64(0xFFFFFFFF)


@njit(cache=True, inline="always")
def _hex_word(v):
    """Eight ASCII hex digits of the 32-bit ``v`` (most significant first) as a little-endian word: the
    nibbles spread one per byte, made '0'-'9' / 'a'-'f' without a table, the bytes reversed (as
    items.generated._hex_word does across an array)."""
    v |= v << _U64(16)
    v &= _U64(0x0000FFFF0000FFFF)
    v |= v << _U64(8)
    v &= _U64(0x00FF00FF00FF00FF)
    v |= v << _U64(4)
    v &= _U64(0x0F0F0F0F0F0F0F0F)
    letters = ((v + _U64(0x0606060606060606)) >> _U64(4)) & _U64(0x0101010101010101)
    v += _U64(0x3030303030303030) + letters * _U64(39)
    # byte swap: LLVM recognises the shifts and masks as one bswap
    v = ((v & _U64(0x00FF00FF00FF00FF)) << _U64(8)) | ((v >> _U64(8)) & _U64(0x00FF00FF00FF00FF))
    v = ((v & _U64(0x0000FFFF0000FFFF)) << _U64(16)) | ((v >> _U64(16)) & _U64(0x0000FFFF0000FFFF))
    return (v << _U64(32)) | (v >> _U64(32))


@njit(cache=True, inline="always")
def item_halves(value, prefix):
    """(h1, h2) of the item spelled by ``prefix`` (one byte) and the hex digits of ``value``: one 16-byte
    block (words 0 and 1) and a one-byte tail (word 2), as MurmurHash3_x64_128 reads 17 bytes with seed 0."""
    high = _hex_word(value >> _U64(32))
    low = _hex_word(value & _LOW32)
    w0 = (high << _U64(8)) | prefix
    w1 = (high >> _U64(56)) | (low << _U64(8))
    w2 = low >> _U64(56)
    h1 = _U64(0)
    h2 = _U64(0)
    h1 ^= _rotl(w0 * _C1, 31) * _C2
    h1 = (_rotl(h1, 27) + h2) * _FIVE + _N1
    h2 ^= _rotl(w1 * _C2, 33) * _C1
    h2 = (_rotl(h2, 31) + h1) * _FIVE + _N2
    h1 ^= _rotl(w2 * _C1, 31) * _C2
    return _finish(h1, h2, LENGTH)


@njit(cache=True, nogil=True)
def _halves(values, prefix, h1, h2):
    for j in range(values.size):
        h1[j], h2[j] = item_halves(values[j], prefix)


@njit(cache=True, nogil=True)
def _counter_halves(first, prefix, h1, h2):
    # GeneratedItems' values, fmix64(i + key), made here too: its numpy arange and five passes cost 3-6 ns
    for j in range(h1.size):
        h1[j], h2[j] = item_halves(_fmix(first + _U64(j)), prefix)


def hash128_values(values: np.ndarray, prefix: str) -> tuple[np.ndarray, np.ndarray]:
    """MurmurHash3_x64_128 (h1, h2) of the generated items ``prefix`` + hex(value) for every value, as mmh3
    gives it for their UTF-8 text."""
    if len(prefix) != 1 or not prefix.isascii():
        raise ValueError(f"prefix must be one ASCII character, got {prefix!r}")
    values = np.ascontiguousarray(values, dtype=np.uint64)
    h1 = np.empty(values.size, dtype=np.uint64)
    h2 = np.empty(values.size, dtype=np.uint64)
    _halves(values, np.uint64(ord(prefix)), h1, h2)
    return h1, h2


def hash128_generated(items: GeneratedItems, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
    """``hash128_values(items.values(start, stop), items.prefix)``; for plain GeneratedItems (whose values are
    fmix64 of a counter) without making the values."""
    if type(items).values is not GeneratedItems.values:        # values of their own (streams.DrawnItems)
        return hash128_values(items.values(start, stop), items.prefix)
    start, stop = max(0, int(start)), min(items.count, int(stop))
    count = max(0, stop - start)
    h1 = np.empty(count, dtype=np.uint64)
    h2 = np.empty(count, dtype=np.uint64)
    _counter_halves(np.uint64((start + items.key) % (1 << 64)), np.uint64(ord(items.prefix)), h1, h2)
    return h1, h2
