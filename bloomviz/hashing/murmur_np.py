"""MurmurHash3_x64_128 vectorised across items with numpy: many equal-length byte rows hashed at once.

Bit for bit the digest of ``mmh3.hash_bytes(row, seed)`` (tests pin it on every tail length 0-15, lengths up
to 64 KiB and several seeds): ``h1`` is its first 8 bytes and ``h2`` its last 8, both little-endian, which is
what the hash schemes read. Generated items (core.generated_items) are rows of one width, so a million of
them hash in a few dozen whole-array operations with no Python object per item; for a ``list[str]`` from a
user, mmh3 per item stays the right tool (rows of different lengths would each need their own pass).
"""

from __future__ import annotations

import numpy as np

_U64 = np.uint64
_C1 = _U64(0x87C37B91114253D5)
_C2 = _U64(0x4CF5AD432745937F)
_FMIX1 = _U64(0xFF51AFD7ED558CCD)
_FMIX2 = _U64(0xC4CEB9FE1A85EC53)
_MASK32 = 0xFFFFFFFF


def hash128_rows(rows: np.ndarray, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(h1, h2), two uint64 arrays: MurmurHash3_x64_128 of every row of a (n, length) uint8 array."""
    rows = np.asarray(rows)
    if rows.dtype != np.uint8 or rows.ndim != 2:
        raise TypeError(f"rows must be a 2-d uint8 array, got {rows.dtype} with shape {rows.shape}")
    n, length = rows.shape
    # Rows padded with zeros to whole 16-byte blocks: the tail's missing bytes then read as the zeros the
    # reference's switch leaves in k1 and k2, and every block is two little-endian uint64 words.
    width = max(16, -(-length // 16) * 16)
    padded = np.zeros((n, width), dtype=np.uint8)
    padded[:, :length] = rows
    words = np.ascontiguousarray(padded.view("<u8").astype(_U64, copy=False).T)   # word j of every row
    return hash128_words(words, length, seed)


def hash128_words(words: np.ndarray, length: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """MurmurHash3_x64_128 of n items of ``length`` bytes given as little-endian uint64 words: ``words[j]`` is
    word j of every item (bytes 8j…8j+7, zero past the length), at least ceil(length / 16) * 2 rows of them.
    Each step is one whole-array operation done in place (temporaries cost as much as the arithmetic)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) <= _MASK32:
        raise ValueError(f"seed must be an integer in [0, 2**32 - 1] (as mmh3 takes it), got {seed!r}")
    n = words.shape[1]
    blocks, tail = divmod(length, 16)
    h1 = np.full(n, int(seed), dtype=_U64)
    h2 = h1.copy()
    k = np.empty(n, dtype=_U64)
    t = np.empty(n, dtype=_U64)

    def rotl(x, r):                       # x = rotl(x, r) in place, t as scratch
        np.right_shift(x, _U64(64 - r), out=t)
        x <<= _U64(r)
        x |= t

    def mix_k1(word):                      # h1 ^= rotl(word * c1, 31) * c2
        np.multiply(word, _C1, out=k)
        rotl(k, 31)
        np.multiply(k, _C2, out=k)
        h1.__ixor__(k)

    def mix_k2(word):                      # h2 ^= rotl(word * c2, 33) * c1
        np.multiply(word, _C2, out=k)
        rotl(k, 33)
        np.multiply(k, _C1, out=k)
        h2.__ixor__(k)

    with np.errstate(over="ignore"):
        for b in range(blocks):
            mix_k1(words[2 * b])
            rotl(h1, 27)
            h1 += h2
            h1 *= _U64(5)
            h1 += _U64(0x52DCE729)
            mix_k2(words[2 * b + 1])
            rotl(h2, 31)
            h2 += h1
            h2 *= _U64(5)
            h2 += _U64(0x38495AB5)
        if tail > 8:
            mix_k2(words[2 * blocks + 1])
        if tail > 0:
            mix_k1(words[2 * blocks])
        h1 ^= _U64(length)
        h2 ^= _U64(length)
        h1 += h2
        h2 += h1
        for h in (h1, h2):
            for const in (_FMIX1, _FMIX2):
                np.right_shift(h, _U64(33), out=t)
                h ^= t
                h *= const
            np.right_shift(h, _U64(33), out=t)
            h ^= t
        h1 += h2
        h2 += h1
    return h1, h2


def hash_bytes_many(rows: np.ndarray, seed: int = 0) -> list[bytes]:
    """The 16-byte digests, as ``mmh3.hash_bytes`` returns them (for tests and comparisons)."""
    h1, h2 = hash128_rows(rows, seed)
    both = np.empty((h1.size, 2), dtype="<u8")
    both[:, 0], both[:, 1] = h1, h2
    raw = both.tobytes()
    return [raw[16 * i:16 * i + 16] for i in range(h1.size)]
