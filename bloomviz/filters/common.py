"""Pieces shared by the Bloom filter variants: argument checks for their own parameters, the bit payload
reader, the scheme's full-width hash values, and a mixin for variants that place positions themselves.

The checks follow the core's rules: a message that names the bad value; ``bool``, NaN, inf and strings are
refused rather than coerced.
"""

from __future__ import annotations

import math
import numbers
from typing import Iterable, Sequence

import numpy as np
from bitarray import bitarray

from bloomviz.filters import bitstore
from bloomviz.theory.limits import BLOCK_BITS, COUNTER_BITS
from bloomviz.filters.standard import BATCH
from bloomviz.items.encoding import to_bytes, to_bytes_list


# --- the scheme's hash values at full width -------------------------------------------------------------------
# Every scheme computes a 64-bit value per hash function and reduces it with ``% m`` at the end. Partitioned
# and blocked filters reduce modulo a small size (a slice, a 512-bit block), and the schemes' values reduced
# that way are far from independent: Kirsch–Mitzenmacher positions (h1 + i·h2) mod s are an arithmetic
# progression mod s, so there are only about s²/2 distinct position patterns. Measured here with murmur3-km at
# 16 bits per item: a blocked filter (B = 512, k = 8) showed 2.3x its theory, a partitioned one with 4096-bit
# slices 1.5x, while k independent seeds matched theory. So the variants ask the scheme for its values modulo
# 2^63 − 1 (as wide as the schemes' int64 output allows), scramble each with the SplitMix64 finalizer (a
# bijection on 64 bits: equal values stay equal, so a weak scheme's repeats still show) and only then reduce.
RAW_MODULUS = (1 << 63) - 1
MASK64 = (1 << 64) - 1
_MIX1, _MIX2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


def mix64(x: int) -> int:
    x ^= x >> 30
    x = (x * _MIX1) & MASK64
    x ^= x >> 27
    x = (x * _MIX2) & MASK64
    return x ^ (x >> 31)


def mix64_many(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x).astype(np.uint64)  # a copy: mixed in place below
    with np.errstate(over="ignore"):
        x ^= x >> np.uint64(30)
        x *= np.uint64(_MIX1)
        x ^= x >> np.uint64(27)
        x *= np.uint64(_MIX2)
        x ^= x >> np.uint64(31)
    return x


def hash_values(scheme, data: bytes, count: int) -> tuple[int, ...]:
    """``count`` scrambled 64-bit hash values of one item from the scheme (see the comment above)."""
    return tuple(mix64(v) for v in scheme.positions(data, RAW_MODULUS, count))


def hash_values_many(scheme, datas: Sequence[bytes], count: int) -> np.ndarray:
    """The same for many items: an (n, count) uint64 array; row i equals ``hash_values`` of item i."""
    return mix64_many(scheme.positions_many(datas, RAW_MODULUS, count))


def _is_integer(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _is_real(value: object) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def check_counter_bits(value: object) -> int:
    low, high = COUNTER_BITS
    if not _is_integer(value) or not low <= int(value) <= high:
        raise ValueError(f"counter_bits must be an integer from {low} to {high}, got {value!r}")
    return int(value)


def check_growth(value: object) -> int:
    # 2 and 4 are the growth factors Almeida et al. study; anything else is refused rather than rounded.
    if not _is_real(value) or value not in (2, 4):
        raise ValueError(f"growth must be 2 or 4, got {value!r}")
    return int(value)


def check_tightening(value: object) -> float:
    if not _is_real(value) or not math.isfinite(float(value)) or not 0.5 <= float(value) <= 0.95:
        raise ValueError(f"tightening must be a number from 0.5 to 0.95, got {value!r}")
    return float(value)


MIN_BLOCK_BITS, MAX_BLOCK_BITS = BLOCK_BITS


def check_block_bits(value: object) -> int:
    ok = _is_integer(value) and MIN_BLOCK_BITS <= int(value) <= MAX_BLOCK_BITS and int(value) & (int(value) - 1) == 0
    if not ok:
        raise ValueError(f"block_bits must be a power of two from {MIN_BLOCK_BITS} to {MAX_BLOCK_BITS}, "
                         f"got {value!r}")
    return int(value)


def check_count(value: object) -> int:
    """An insert count read back from a saved state."""
    if not _is_integer(value) or int(value) < 0:
        raise ValueError(f"count must be a non-negative integer, got {value!r}")
    return int(value)


def check_params(params: object, expected: Iterable[str], variant: str) -> dict:
    """Saved parameters must be a dict holding exactly the expected names."""
    if not isinstance(params, dict):
        raise ValueError(f"params of a {variant} filter must be a dict, got {type(params).__name__}")
    expected = set(expected)
    missing = sorted(expected - set(params))
    extra = sorted(set(params) - expected)
    if missing:
        raise ValueError(f"params of a {variant} filter lack {', '.join(missing)}")
    if extra:
        raise ValueError(f"params of a {variant} filter have unknown names: {', '.join(map(repr, extra))}")
    return params


def bits_from_payload(m: int, payload: bytes) -> bitarray:
    """The m bits stored as ceil(m/8) bytes, bit j at byte j//8 bit j%8 (little-endian), padding zero."""
    if not isinstance(payload, (bytes, bytearray, memoryview)):
        raise ValueError(f"payload must be bytes, got {type(payload).__name__}")
    expected = (m + 7) // 8
    if len(payload) != expected:
        raise ValueError(f"payload is {len(payload)} bytes, a {m}-bit filter needs {expected}")
    bits = bitarray(endian="little")
    bits.frombytes(bytes(payload))
    if bits.count(1, m, len(bits)):
        raise ValueError(f"padding bits after bit {m} are set")
    del bits[m:]
    return bits


class RemappedPositions:
    """Mixin for a BloomFilter subclass whose positions are computed by ``_map_one(data)`` (bytes -> tuple)
    and ``_map_many(datas)`` (list of bytes -> (n, k) int64). Every single-item and batch path of the filter
    goes through these two, so the grid, ``in``, ``update`` and ``contains_many`` all agree."""

    def _map_one(self, data: bytes) -> tuple[int, ...]:
        raise NotImplementedError

    def _map_many(self, datas: Sequence[bytes]) -> np.ndarray:
        raise NotImplementedError

    def positions(self, item: object) -> tuple[int, ...]:
        return self._map_one(to_bytes(item))

    def positions_many(self, items: Iterable[object]) -> np.ndarray:
        datas = to_bytes_list(items)
        if not datas:
            return np.empty((0, self._k), dtype=np.int64)
        return np.concatenate([self._map_many(datas[s:s + BATCH]) for s in range(0, len(datas), BATCH)])

    def update(self, items: Iterable[object]) -> int:
        datas = to_bytes_list(items)  # all encoded first: a bad item changes nothing
        fresh = 0
        for s in range(0, len(datas), BATCH):
            fresh += bitstore.set_bits(self._bits, self._map_many(datas[s:s + BATCH]))
        self._bits_set += fresh
        self._count += len(datas)
        return fresh

    def contains_many(self, items: Iterable[object]) -> np.ndarray:
        datas = to_bytes_list(items)
        out = np.empty(len(datas), dtype=bool)
        for s in range(0, len(datas), BATCH):
            chunk = datas[s:s + BATCH]
            out[s:s + len(chunk)] = self._test_rows(self._map_many(chunk))
        return out

    def values_for_grid(self) -> np.ndarray:
        """The m bits as a uint8 0/1 array (costs m bytes: for full redraws)."""
        return bitstore.unpack(self._bits)

    def _check_compatible(self, other, op):
        other = super()._check_compatible(other, op)
        mine, theirs = self._state_params(), other._state_params()
        for name in mine:
            if mine[name] != theirs[name]:
                raise ValueError(f"{op}: the filters differ in {name} ({mine[name]!r} vs {theirs[name]!r})")
        return other

    def _load(self, count: int, payload: bytes) -> None:
        self._bits = bits_from_payload(self._m, payload)
        self._bits_set = self._bits.count()
        self._count = check_count(count)
