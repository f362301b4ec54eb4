"""git's changed-path hashing (``bloom.c``), as a scheme a bloomviz filter can run.

git hashes a path with 32-bit MurmurHash3 (the Wikipedia algorithm) twice, seeds 0x293ae76f and 0x7e646e2c,
and takes position i = ((h0 + i·h1) mod 2^32) mod m: plain double hashing in 32 bits, nothing forced odd, no
mixing. Its commit-graph filters are 8·len bits with len = ceil(10·n / 8) bytes for n paths, k = 7.

Two versions exist (the ``BDAT`` chunk's first number). Version 1 reads the bytes through ``char``, which is
signed on x86 and most Linux machines: a byte of 0x80 or more becomes 0xFFFFFF80... before its shift, so its
high bits smear over the word's other bytes (``OR``-ed in a full block, ``XOR``-ed in the tail). Version 2
(git 2.45) reads ``unsigned char``: standard MurmurHash3. For ASCII paths the two agree.

``murmur3_32`` is the scalar reference; ``murmur3_32_many`` the same over many items with numpy (items grouped
by length, one uint32 column per word), which tests hold equal to it and to git's own test vectors.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from bloomviz.hashing.base import HashScheme

SEED0, SEED1 = 0x293AE76F, 0x7E646E2C
C1, C2, M5, N = 0xCC9E2D51, 0x1B873593, 5, 0xE6546B64
MASK32 = 0xFFFFFFFF
_U32 = np.uint32


def _rotl32(x: int, r: int) -> int:
    return ((x << r) | (x >> (32 - r))) & MASK32


def _byte(b: int, signed: bool) -> int:
    # version 1: (uint32_t)(char)b sign-extends a byte >= 0x80
    return b | 0xFFFFFF00 if signed and b & 0x80 else b


def murmur3_32(data: bytes, seed: int, version: int = 2) -> int:
    """git's ``murmur3_seeded_v1``/``_v2`` of ``data``."""
    signed = version == 1
    h = seed & MASK32
    n4 = len(data) // 4
    for i in range(n4):
        k = 0
        for j in range(4):
            k |= (_byte(data[4 * i + j], signed) << (8 * j)) & MASK32
        k = (_rotl32((k * C1) & MASK32, 15) * C2) & MASK32
        h ^= k
        h = (_rotl32(h, 13) * M5 + N) & MASK32
    tail = data[4 * n4:]
    if tail:
        k1 = 0
        for j in reversed(range(len(tail))):
            k1 ^= (_byte(tail[j], signed) << (8 * j)) & MASK32
        k1 = (_rotl32((k1 * C1) & MASK32, 15) * C2) & MASK32
        h ^= k1
    h ^= len(data) & MASK32
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & MASK32
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & MASK32
    return h ^ (h >> 16)


def key_hashes(data: bytes, version: int = 2) -> tuple[int, int]:
    """(h0, h1): the two seeded hashes behind every position of one path."""
    return murmur3_32(data, SEED0, version), murmur3_32(data, SEED1, version)


def git_positions(h0: int, h1: int, m: int, k: int) -> tuple[int, ...]:
    return tuple(((h0 + i * h1) & MASK32) % m for i in range(k))


def _rotl32_np(x: np.ndarray, r: int) -> np.ndarray:
    return (x << _U32(r)) | (x >> _U32(32 - r))


def _murmur_same_length(mat: np.ndarray, seed: int, signed: bool) -> np.ndarray:
    """MurmurHash3-32 of each row of ``mat`` (n x L uint8, all items of length L)."""
    n, length = mat.shape
    vals = mat.astype(_U32)
    if signed:
        vals = np.where(vals & _U32(0x80), vals | _U32(0xFFFFFF00), vals)
    h = np.full(n, seed, dtype=_U32)
    n4 = length // 4
    with np.errstate(over="ignore"):
        for i in range(n4):
            k = np.zeros(n, dtype=_U32)
            for j in range(4):
                k |= vals[:, 4 * i + j] << _U32(8 * j)
            k = _rotl32_np(k * _U32(C1), 15) * _U32(C2)
            h ^= k
            h = _rotl32_np(h, 13) * _U32(M5) + _U32(N)
        rest = length - 4 * n4
        if rest:
            k1 = np.zeros(n, dtype=_U32)
            for j in range(rest):
                k1 ^= vals[:, 4 * n4 + j] << _U32(8 * j)
            h ^= _rotl32_np(k1 * _U32(C1), 15) * _U32(C2)
        h ^= _U32(length & MASK32)
        h ^= h >> _U32(16)
        h *= _U32(0x85EBCA6B)
        h ^= h >> _U32(13)
        h *= _U32(0xC2B2AE35)
        h ^= h >> _U32(16)
    return h


def murmur3_32_many(datas: Sequence[bytes], seed: int, version: int = 2) -> np.ndarray:
    """``murmur3_32`` of every item (uint32), vectorised across the items of each length."""
    out = np.zeros(len(datas), dtype=_U32)
    by_length: dict[int, list[int]] = {}
    for i, d in enumerate(datas):
        by_length.setdefault(len(d), []).append(i)
    for length, idx in by_length.items():
        if length > 4096:      # a long item alone: the scalar loop costs no padded matrix
            for i in idx:
                out[i] = murmur3_32(datas[i], seed, version)
            continue
        mat = np.frombuffer(b"".join(datas[i] for i in idx), dtype=np.uint8).reshape(len(idx), length)
        out[np.asarray(idx)] = _murmur_same_length(mat, seed, version == 1)
    return out


def positions_from_hashes(h0: np.ndarray, h1: np.ndarray, m: int, k: int) -> np.ndarray:
    """n x k int64 positions ((h0 + i·h1) mod 2^32) mod m."""
    out = np.empty((h0.size, k), dtype=np.int64)
    acc = h0.astype(_U32, copy=True)
    with np.errstate(over="ignore"):
        for i in range(k):
            out[:, i] = (acc.astype(np.int64)) % m
            acc += h1.astype(_U32, copy=False)
    return out


class GitChangedPaths(HashScheme):
    """git's hashing, version 2 (standard MurmurHash3)."""

    version = 2

    def positions(self, data, m, k):
        return git_positions(*key_hashes(data, self.version), m, k)

    def positions_many(self, datas, m, k):
        datas = list(datas)
        return positions_from_hashes(murmur3_32_many(datas, SEED0, self.version),
                                     murmur3_32_many(datas, SEED1, self.version), m, k)

    def explain(self, data, m, k):
        h0, h1 = key_hashes(data, self.version)
        return [(f"h0 = MurmurHash3-32 (seed 0x{SEED0:08x}{', bytes as signed char' if self.version == 1 else ''})",
                 f"{h0}"),
                (f"h1 = MurmurHash3-32 (seed 0x{SEED1:08x})", f"{h1}"),
                ("position i", f"((h0 + i·h1) mod 2^32) mod {m}")]


class GitChangedPathsV1(GitChangedPaths):
    """git's hashing, version 1 (bytes >= 0x80 read as signed char)."""

    version = 1


def step_lines(data: bytes, m: int, k: int, version: int) -> list[str]:
    h0, h1 = key_hashes(data, version)
    return [f"h0 + {i}·h1 = {(h0 + i * h1) & MASK32:,} (mod 2^32);  mod {m:,} = {((h0 + i * h1) & MASK32) % m:,}"
            for i in range(k)]


_WHY = ("Its positions are an arithmetic progression in 32 bits with nothing forced odd: in git's small filters "
        "(m = 16 bits for one path) an even h1 makes positions coincide, so a path often lights fewer than k bits "
        "and the measured rate lands above the textbook's. Positions never pass 2^32.")

GIT_SCHEMES: tuple[HashScheme, ...] = (
    GitChangedPaths("git-changed-paths", "git changed-path filters (version 2)",
                    "git's commit-graph hashing: two 32-bit MurmurHash3 (seeds 0x293ae76f, 0x7e646e2c), position i "
                    "= (h0 + i·h1) mod 2^32 mod m. " + _WHY, good=False),
    GitChangedPathsV1("git-changed-paths-v1", "git changed-path filters (version 1, signed char)",
                      "git's version 1 hashing: as version 2, but bytes of 0x80 and above are read as signed char "
                      "(git's bug for non-ASCII paths before 2.45); ASCII paths hash the same. " + _WHY, good=False),
)
