"""The partitioned Bloom filter: k slices of m/k bits, each hash function owns one slice.

Position i of an item lies in slice i: ``i·s + (h_i mod s)`` with s = m/k, where h_i is the chosen scheme's
i-th 64-bit hash value, scrambled (``variant_common.hash_values``: reducing the scheme's values straight
modulo a small s leaves too few distinct patterns). So an item always sets exactly k distinct bits, one per
slice, and no two hash functions compete for the same bits.

m must be a multiple of k: a requested m is rounded DOWN to k·floor(m/k) (so the filter never uses more memory
than asked; it loses fewer than k bits) and ``.m`` is the rounded value. m < k is refused. A saved state must
already have m divisible by k.

Theory. Each slice is a one-hash filter of s = m/k bits holding n items, so a slice bit is still 0 with
probability (1 − 1/s)^n = (1 − k/m)^n, and a non-member passes when its bit in every slice is set:

    FP = (1 − (1 − k/m)^n)^k                                        (``partitioned_fp``)

which is slightly above the standard filter's (1 − (1 − 1/m)^{kn})^k, because (1 − k/m)^n < (1 − 1/m)^{kn}.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from bloomviz.hashing import schemes as hashing
from bloomviz.filters.standard import BloomFilter
from bloomviz.theory.validate import check_k, check_m
from bloomviz.filters.capabilities import Capabilities
from bloomviz.filters.common import (RemappedPositions, check_params, hash_values,
                                          hash_values_many)


def partitioned_fp(m: int, k: int, n: float) -> float:
    """(1 − (1 − k/m)^n)^k, computed as (−expm1(n·log1p(−k/m)))^k. Pass the filter's (rounded) m."""
    if n <= 0:
        return 0.0
    if k >= m:
        return 1.0  # every slice is one bit: the first insert sets them all
    return (-math.expm1(n * math.log1p(-k / m))) ** k


class PartitionedBloomFilter(RemappedPositions, BloomFilter):
    """k slices of m/k bits, one position per slice. Same API as ``BloomFilter``."""

    variant = "partitioned"
    # --- variant facts (see BloomFilter's) ---
    # its own theory (partitioned_fp)
    capabilities = Capabilities(standard_formulas=False, takes_back_inserts=True, logs_batches=True)

    def __init__(self, m: int, k: int, scheme: str = hashing.DEFAULT_SCHEME):
        m, k = check_m(m), check_k(k)
        if m < k:
            raise ValueError(f"m={m} is smaller than k={k}: a partitioned filter needs at least one bit in "
                             "each of its k slices")
        super().__init__(m - m % k, k, scheme=scheme)
        self._slice = self._m // self._k

    @property
    def slice_bits(self) -> int:
        """s = m/k, the size of each slice."""
        return self._slice

    def slice_offsets(self) -> tuple[int, ...]:
        """The first bit of every slice: slice i is [i·s, (i+1)·s)."""
        return tuple(i * self._slice for i in range(self._k))

    def slice_fills(self) -> tuple[float, ...]:
        s = self._slice
        return tuple(self._bits.count(1, i * s, (i + 1) * s) / s for i in range(self._k))

    @property
    def estimated_count(self) -> float:
        # Every slice gets exactly one bit per item: fill = 1 − (1 − 1/s)^n, so n = ln(1 − X/m) / ln(1 − 1/s).
        if self._bits_set >= self._m:
            return math.inf
        if self._bits_set == 0:
            return 0.0
        return math.log1p(-self._bits_set / self._m) / math.log1p(-1 / self._slice)

    @property
    def expected_fp(self) -> float:
        """A fresh item passes when its bit in every slice is set: the product of the slice fill ratios."""
        return math.prod(self.slice_fills())

    def _map_one(self, data: bytes) -> tuple[int, ...]:
        s = self._slice
        return tuple(i * s + h % s for i, h in enumerate(hash_values(self._scheme, data, self._k)))

    def _map_many(self, datas: Sequence[bytes]) -> np.ndarray:
        s = self._slice
        offsets = (hash_values_many(self._scheme, datas, self._k) % np.uint64(s)).astype(np.int64)
        return offsets + np.arange(self._k, dtype=np.int64) * s

    def __repr__(self) -> str:
        return (f"PartitionedBloomFilter(m={self._m}, k={self._k}, scheme={self.scheme!r}, "
                f"n={self._count}, bits_set={self._bits_set})")

    @classmethod
    def _from_state(cls, m, k, scheme, count, params, payload) -> "PartitionedBloomFilter":
        check_params(params, (), cls.variant)
        m, k = check_m(m), check_k(k)
        if m % k:
            raise ValueError(f"a partitioned filter's m must be a multiple of k; got m={m}, k={k}")
        out = cls(m, k, scheme=scheme)
        out._load(count, payload)
        return out

    def _theory_curve(self, n: np.ndarray, samples: int) -> np.ndarray:
        m, k = self._m, self._k
        if k >= m:
            return np.where(n > 0, 1.0, 0.0)
        return np.where(n > 0, (-np.expm1(n * math.log1p(-k / m))) ** k, 0.0)
