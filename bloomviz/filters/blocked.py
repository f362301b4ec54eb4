"""The blocked Bloom filter (Putze, Sanders & Singler 2007): all k positions of an item lie in one block.

The filter is m/B blocks of B bits (B = ``block_bits``, 512 by default: one 64-byte cache line), so a lookup
touches one cache line instead of k. The hash scheme gives k + 1 hash values (64-bit, scrambled:
``variant_common.hash_values``): value 0 picks the block (``h_0 mod b`` of the b = m/B blocks) and values
1…k, reduced modulo B, are the offsets inside it (``block·B + h_i mod B``). The offsets are not double hashing
modulo B: that leaves only about B²/2 distinct patterns per block, and measured with murmur3-km at 16 bits per
item it gave 2.3x the rate theory predicts; scrambled full-width values match theory. Two offsets of one item
may coincide, as two independent hash functions may.

m is rounded UP to a multiple of B (at most B − 1 extra bits; ``.m`` is the rounded value). Since the largest
m, 2^34, is itself a multiple of every allowed B, rounding never leaves the valid range.

Theory. Blocks are not equally loaded: the number of items in a given block is Binomial(n, 1/b) with b = m/B
blocks, and a block with i items is a B-bit standard filter holding i items. A non-member lands in a uniformly
chosen block, so

    FP = Σ_i P(i items in its block) · f(B, k, i)                        (``blocked_fp``)

Putze et al. write the load as Poisson(λ = n·B/m), the limit for many blocks; ``blocked_fp(..., poisson=True)``
gives that form. The uneven load is why a blocked filter's rate stands above the standard filter's at the same
m and k (the overloaded blocks dominate).

f(B, k, i) is the rate of a B-bit filter after k·i independent uniform positions. The classic
(1 − (1 − 1/B)^{k·i})^k treats the bits as independent and so underestimates (Bose et al. 2008); for a block as
small as 64 bits the gap was 5 % here, as large as the measurement's noise. So f is the exact rate E[(X/B)^k]
of ``exact_rate`` (a cached curve per (B, k)), at every load.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from bloomviz.filters import bitstore

from bloomviz.hashing import schemes as hashing
from bloomviz.theory.exact_rate import fp_exact_at
from bloomviz.filters.standard import BloomFilter
from bloomviz.items.encoding import to_bytes
from bloomviz.theory.validate import check_k, check_m
from bloomviz.filters.params import BLOCK_BITS, K, M
from bloomviz.filters.capabilities import Capabilities
from bloomviz.filters.common import (RemappedPositions, check_block_bits, check_params,
                                          hash_values, hash_values_many)

DEFAULT_BLOCK_BITS = 512


def _fp_inner(block_bits: int, k: int, load: np.ndarray) -> np.ndarray:
    """The exact rate of a B-bit filter holding ``load`` items (``exact_rate``, any load)."""
    return fp_exact_at(block_bits, k, np.asarray(load, dtype=np.int64))


def _load_distribution(n: int, blocks: int, poisson: bool) -> tuple[np.ndarray, np.ndarray]:
    """Loads i and their probabilities, over a window wide enough that the mass left out is negligible.

    Weights come from the pmf ratio P(i+1)/P(i), summed in log space from the window's start and normalised
    over the window, so no factorial of a large n is ever formed.
    """
    if poisson:
        mean = n / blocks
        sd = math.sqrt(mean)
    else:
        q = 1.0 / blocks
        mean, sd = n * q, math.sqrt(n * q * (1 - q))
    lo = max(0, math.floor(mean - 12 * sd - 10))
    hi = math.ceil(mean + 12 * sd + 10)
    if not poisson:
        hi = min(n, hi)
    i = np.arange(lo, hi + 1, dtype=np.float64)
    if poisson:
        log_ratio = math.log(mean) - np.log(i[:-1] + 1)
    else:
        log_ratio = np.log(n - i[:-1]) - np.log(i[:-1] + 1) + math.log(q) - math.log1p(-q)
    logw = np.concatenate(([0.0], np.cumsum(log_ratio)))
    w = np.exp(logw - logw.max())
    return i, w / w.sum()


def blocked_fp(m: int, k: int, n: float, block_bits: int = DEFAULT_BLOCK_BITS, poisson: bool = False) -> float:
    """False-positive rate of a blocked filter of m bits (a multiple of ``block_bits``) after n inserts.

    The sum over the load of the probe's block, Binomial(n, B/m) (or Putze et al.'s Poisson(n·B/m) with
    ``poisson=True``), truncated to mean ± (12 standard deviations + 10).
    """
    n = int(round(n))
    if n <= 0:
        return 0.0
    blocks = m // block_bits
    if blocks < 1 or m % block_bits:
        raise ValueError(f"m={m} is not a positive multiple of block_bits={block_bits}")
    if blocks == 1 and not poisson:
        return float(_fp_inner(block_bits, k, np.array([float(n)]))[0])  # one block: a B-bit filter
    load, prob = _load_distribution(n, blocks, poisson)
    return float(np.dot(prob, _fp_inner(block_bits, k, load)))


def blocked_fp_curve(m: int, k: int, n_values, block_bits: int = DEFAULT_BLOCK_BITS,
                     samples: int = 2000) -> np.ndarray:
    """``blocked_fp`` for an array of n (for plotting). With more than ``samples`` distinct n it is computed
    exactly at ``samples`` evenly spaced n and interpolated linearly between them (the curve is smooth)."""
    n_values = np.asarray(n_values, dtype=np.float64)
    distinct = np.unique(np.round(n_values))
    if distinct.size > samples:
        distinct = np.unique(np.round(np.linspace(distinct[0], distinct[-1], samples)))
    values = np.array([blocked_fp(m, k, x, block_bits) for x in distinct])
    return np.interp(n_values, distinct, values)


def _popcount_bytes(view: np.ndarray) -> np.ndarray:
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(view)
    return np.unpackbits(view[:, None], axis=1).sum(axis=1).astype(np.uint8)  # pragma: no cover


class BlockedBloomFilter(RemappedPositions, BloomFilter):
    """m bits in blocks of ``block_bits``; an item's k positions all lie in the one block its hash picks."""

    variant = "blocked"
    # --- variant facts (see BloomFilter's) ---
    _stored_params = {"block_bits": int}
    capabilities = Capabilities(parameters=(M, K, BLOCK_BITS), standard_formulas=False,
                                takes_back_inserts=True, logs_batches=True)   # theory: blocked_fp

    def __init__(self, m: int, k: int, block_bits: int = DEFAULT_BLOCK_BITS,
                 scheme: str = hashing.DEFAULT_SCHEME):
        block_bits = check_block_bits(block_bits)
        m, k = check_m(m), check_k(k)
        super().__init__(-(-m // block_bits) * block_bits, k, scheme=scheme)
        self._block_bits = block_bits

    @property
    def block_bits(self) -> int:
        return self._block_bits

    @property
    def blocks(self) -> int:
        return self._m // self._block_bits

    def block_of(self, item: object) -> int:
        """The index of the block that holds the item's positions."""
        return hash_values(self._scheme, to_bytes(item), 1)[0] % self.blocks

    def block_counts(self) -> np.ndarray:
        """Bits set in every block (int64 array of length m/B)."""
        view = bitstore.byte_view(self._bits).reshape(self.blocks, self._block_bits // 8)
        return _popcount_bytes(view).sum(axis=1, dtype=np.int64)

    def _state_params(self) -> dict[str, int]:
        return {"block_bits": self._block_bits}

    @property
    def estimated_count(self) -> float:
        """The standard estimate applied to every block and summed: Σ −(B/k)·ln(1 − X_b/B)."""
        counts = self.block_counts()
        if (counts >= self._block_bits).any():
            return math.inf
        b = self._block_bits
        return float(-(b / self._k) * np.log1p(-counts / b).sum())

    @property
    def expected_fp(self) -> float:
        """A fresh item picks a block uniformly: the mean over blocks of (X_b/B)^k."""
        return float(np.mean((self.block_counts() / self._block_bits) ** self._k))

    def _map_one(self, data: bytes) -> tuple[int, ...]:
        b = self._block_bits
        h = hash_values(self._scheme, data, self._k + 1)
        base = (h[0] % self.blocks) * b
        return tuple(base + (x & (b - 1)) for x in h[1:])

    def _map_many(self, datas: Sequence[bytes]) -> np.ndarray:
        b = self._block_bits
        h = hash_values_many(self._scheme, datas, self._k + 1)
        base = (h[:, :1] % np.uint64(self.blocks)).astype(np.int64) * b
        return base + (h[:, 1:] & np.uint64(b - 1)).astype(np.int64)

    def __repr__(self) -> str:
        return (f"BlockedBloomFilter(m={self._m}, k={self._k}, block_bits={self._block_bits}, "
                f"scheme={self.scheme!r}, n={self._count}, bits_set={self._bits_set})")

    @classmethod
    def _from_state(cls, m, k, scheme, count, params, payload) -> "BlockedBloomFilter":
        check_params(params, ("block_bits",), cls.variant)
        block_bits = check_block_bits(params["block_bits"])
        m = check_m(m)
        if m % block_bits:
            raise ValueError(f"a blocked filter's m must be a multiple of block_bits={block_bits}; got m={m}")
        out = cls(m, k, block_bits=block_bits, scheme=scheme)
        out._load(count, payload)
        return out

    def _theory_curve(self, n: np.ndarray, samples: int) -> np.ndarray:
        if n.size <= 64:
            return np.array([blocked_fp(self._m, self._k, float(x), self._block_bits) for x in n], dtype=float)
        # the curve is smooth: ``samples`` exact points, interpolated between (a window's chunk of rows spans a
        # short stretch, where 64 are plenty)
        return blocked_fp_curve(self._m, self._k, n, self._block_bits, samples=samples)
