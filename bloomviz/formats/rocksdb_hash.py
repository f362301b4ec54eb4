"""The two hashes RocksDB's filters are defined by, in pure Python.

``hash64`` is RocksDB's ``Hash64`` / ``GetSliceHash64`` (util/hash.cc): XXPH3, the *preview* of XXH3 from
xxHash 0.7.2 that RocksDB froze into its formats (util/xxph3.h), with RocksDB's own change for the empty
string. It is not the released XXH3: the xxhash package's ``xxh3_64`` gives other values for every length
RocksDB's schema test pins (util/hash_test.cc, Hash64SmallValueSchema), so the preview is ported here, scalar
path only (the vector paths compute the same values).

``hash32`` is the MurmurHash1-like ``Hash`` of LevelDB and RocksDB (util/hash.cc) with the seed both use for
Bloom filters (0xbc9f1d34). The two projects differ in one detail, the 1-3 trailing bytes: RocksDB adds them
sign-extended (``static_cast<int8_t>``, kept because it is part of its format), LevelDB since 1.18 (2014) as
unsigned bytes. ``signed_tail`` picks the rule.
"""

from __future__ import annotations

M64 = (1 << 64) - 1
M32 = (1 << 32) - 1
P32_1, P32_2, P32_3 = 0x9E3779B1, 0x85EBCA77, 0xC2B2AE3D
P64_1, P64_2, P64_3, P64_4, P64_5 = (0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9,
                                     0x85EBCA77C2B2AE63, 0x27D4EB2F165667C5)
SECRET = bytes.fromhex(
    "b8fe6c3923a44bbe7c01812cf721ad1cded46de9839097db7240a4a4b7b3671f"
    "cb79e64eccc0e578825ad07dccff7221b8084674f743248ee03590e6813a264c"
    "3c2852bb91c300cb88d0658b1b532ea371644897a20df94e3819ef46a9deacd8"
    "a8fa763fe39c343ff9dcbbc7c70b4f1d8a51e04bcdb45931c89f7ec9d9787364"
    "eac5ac8334d3ebc3c581a0fffa1363eb170ddd51b7f0da49d316552629d4689e"
    "2b16be587d47a1fc8ff8b8d17ad031ce45cb3a8f95160428afd7fbcabb4b407e")
BLOOM_SEED = 0xBC9F1D34


def _le64(b: bytes, i: int) -> int:
    return int.from_bytes(b[i:i + 8], "little")


def _le32(b: bytes, i: int) -> int:
    return int.from_bytes(b[i:i + 4], "little")


def _fold(a: int, b: int) -> int:
    p = (a & M64) * (b & M64)
    return (p ^ (p >> 64)) & M64


def _avalanche(h: int) -> int:
    h ^= h >> 37
    h = (h * P64_3) & M64
    return h ^ (h >> 32)


def _mix16(data: bytes, i: int, s: int) -> int:
    return _fold(_le64(data, i) ^ _le64(SECRET, s), _le64(data, i + 8) ^ _le64(SECRET, s + 8))


def _short(data: bytes, n: int) -> int:
    if n > 8:
        lo = _le64(data, 0) ^ _le64(SECRET, 0)
        hi = _le64(data, n - 8) ^ _le64(SECRET, 8)
        return _avalanche((n + lo + hi + _fold(lo, hi)) & M64)
    if n >= 4:
        keyed = (_le32(data, 0) | (_le32(data, n - 4) << 32)) ^ _le64(SECRET, 0)
        mix = (n + ((keyed ^ (keyed >> 51)) * P32_1)) & M64
        return _avalanche(((mix ^ (mix >> 47)) * P64_2) & M64)
    if n:
        combined = data[0] | (data[n >> 1] << 8) | (data[n - 1] << 16) | (n << 24)
        return _avalanche(((combined ^ _le32(SECRET, 0)) * P64_1) & M64)
    return _fold(_le64(SECRET, 0), P64_2)   # RocksDB's change: the empty string hashes the seed


def _long(data: bytes, n: int) -> int:
    acc = [P32_3, P64_1, P64_2, P64_3, P64_4, P32_2, P64_5, P32_1]

    def stripe(at: int, s: int) -> None:
        for i in range(8):
            val = _le64(data, at + 8 * i)
            key = val ^ _le64(SECRET, s + 8 * i)
            acc[i] = (acc[i] + val + (key & M32) * (key >> 32)) & M64

    rounds = (len(SECRET) - 64) // 8
    block = 64 * rounds
    blocks = n // block
    for b in range(blocks):
        for r in range(rounds):
            stripe(b * block + 64 * r, 8 * r)
        for i in range(8):   # scramble
            a = acc[i]
            acc[i] = (((a ^ (a >> 47)) ^ _le64(SECRET, len(SECRET) - 64 + 8 * i)) * P32_1) & M64
    for r in range((n - blocks * block) // 64):
        stripe(blocks * block + 64 * r, 8 * r)
    if n & 63:
        stripe(n - 64, len(SECRET) - 64 - 7)
    h = (n * P64_1) & M64
    for i in range(0, 8, 2):
        s = 11 + 8 * i
        h += _fold(acc[i] ^ _le64(SECRET, s), acc[i + 1] ^ _le64(SECRET, s + 8))
    return _avalanche(h & M64)


def hash64(data: bytes) -> int:
    """RocksDB's Hash64(data) (seed 0): XXPH3 64-bit."""
    n = len(data)
    if n <= 16:
        return _short(data, n)
    if n <= 128:
        acc = (n * P64_1) & M64
        for lo, hi, s in ((48, n - 64, 96), (32, n - 48, 64), (16, n - 32, 32), (0, n - 16, 0)):
            if (lo == 48 and n > 96) or (lo == 32 and n > 64) or (lo == 16 and n > 32) or lo == 0:
                acc += _mix16(data, lo, s) + _mix16(data, hi, s + 16)
        return _avalanche(acc & M64)
    if n <= 240:
        acc = (n * P64_1) & M64
        for i in range(8):
            acc += _mix16(data, 16 * i, 16 * i)
        acc = _avalanche(acc & M64)
        for i in range(8, n // 16):
            acc += _mix16(data, 16 * i, 16 * (i - 8) + 3)
        acc += _mix16(data, n - 16, 136 - 17)
        return _avalanche(acc & M64)
    return _long(data, n)


def hash32(data: bytes, seed: int = BLOOM_SEED, signed_tail: bool = True) -> int:
    """LevelDB's/RocksDB's 32-bit Hash (MurmurHash1-like); see the module docstring for ``signed_tail``."""
    m, n = 0xC6A4A793, len(data)
    h = (seed ^ (n * m)) & M32
    whole = n - n % 4
    for i in range(0, whole, 4):
        h = ((h + _le32(data, i)) * m) & M32
        h ^= h >> 16
    rest = n - whole
    if rest:
        for j in range(rest - 1, -1, -1):
            byte = data[whole + j]
            if signed_tail and byte >= 128:
                byte -= 256
            h = (h + ((byte << (8 * j)) & M32)) & M32
        h = (h * m) & M32
        h ^= h >> 24
    return h
