"""Cassandra's MurmurHash3 x64-128 (``org.apache.cassandra.utils.MurmurHash.hash3_x64_128``), which is not
quite the reference hash.

The 16-byte blocks are read as the reference reads them (little-endian, bytes unsigned), but the last
``length mod 16`` bytes are combined as Java's signed bytes: ``k1 ^= ((long) key.get(offset + i)) << 8*i``
sign-extends a byte >= 0x80 over all the higher bits. So a key whose tail holds such a byte hashes
differently from ``mmh3.hash64`` (the reference); every other key hashes the same (tests check both). The
result is (h1, h2) as Java's two signed longs, here as unsigned 64-bit integers.
"""

from __future__ import annotations

import mmh3

_M = (1 << 64) - 1
C1, C2 = 0x87C37B91114253D5, 0x4CF5AD432745937F


def _rotl(v: int, n: int) -> int:
    return ((v << n) | (v >> (64 - n))) & _M


def _fmix(k: int) -> int:
    k ^= k >> 33
    k = (k * 0xFF51AFD7ED558CCD) & _M
    k ^= k >> 33
    k = (k * 0xC4CEB9FE1A85EC53) & _M
    return k ^ (k >> 33)


def _tail(tail: bytes, signed: bool) -> int:
    """The tail bytes combined: sign-extended to 64 bits and XORed in place as Cassandra's switch does, or
    as the reference's unsigned bytes."""
    k = 0
    for i, b in enumerate(tail):
        k ^= ((b - 256 if signed and b >= 0x80 else b) << (8 * i)) & _M
    return k


def hash3_x64_128(data: bytes, seed: int = 0) -> tuple[int, int]:
    """(h1, h2) of ``data`` exactly as Cassandra computes them."""
    if not any(b >= 0x80 for b in data[len(data) & ~15:]):
        return mmh3.hash64(data, seed, signed=False)   # the two hashes agree here: use the C one
    return python_hash(data, seed, signed_tail=True)


def python_hash(data: bytes, seed: int = 0, signed_tail: bool = True) -> tuple[int, int]:
    """MurmurHash3 x64-128 in Python; with ``signed_tail=False`` it is the reference (equal to mmh3)."""
    tail = data[len(data) & ~15:]
    h1 = h2 = seed & _M
    for off in range(0, len(data) - len(tail), 16):
        k1 = int.from_bytes(data[off:off + 8], "little")
        k2 = int.from_bytes(data[off + 8:off + 16], "little")
        h1 ^= (_rotl((k1 * C1) & _M, 31) * C2) & _M
        h1 = ((_rotl(h1, 27) + h2) * 5 + 0x52DCE729) & _M
        h2 ^= (_rotl((k2 * C2) & _M, 33) * C1) & _M
        h2 = ((_rotl(h2, 31) + h1) * 5 + 0x38495AB5) & _M
    k1, k2 = _tail(tail[:8], signed_tail), _tail(tail[8:], signed_tail)
    h2 ^= (_rotl((k2 * C2) & _M, 33) * C1) & _M
    h1 ^= (_rotl((k1 * C1) & _M, 31) * C2) & _M
    h1 ^= len(data)
    h2 ^= len(data)
    h1 = (h1 + h2) & _M
    h2 = (h2 + h1) & _M
    h1, h2 = _fmix(h1), _fmix(h2)
    h1 = (h1 + h2) & _M
    return h1, (h2 + h1) & _M
