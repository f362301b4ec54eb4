"""The counting Bloom filter (Fan et al. 2000): a c-bit counter per position instead of a bit, so items can
be removed.

An insert increments the counters at its k positions, a removal decrements them; an item is (maybe) present
when all its counters are above 0. Counters saturate at 2^c − 1 and a saturated counter is never decremented
again: once it has overflowed, the filter no longer knows how many items share it (the true count could be any
value ≥ 2^c − 1), so counting it down could reach 0 while items still hash there — a false negative. Leaving it
stuck costs at most a permanent false positive instead. With c = 1 every set counter is saturated at once and
the filter is a standard Bloom filter that refuses to forget.

What a removal can and cannot check. The filter cannot tell an inserted item from a false positive: both have
all their counters above 0. ``remove`` refuses an item with a 0 counter ("definitely not in the filter") and
otherwise decrements. Removing a false positive (an item never inserted) decrements counters that belong to real
members, which may then read as absent: false negatives, the price of deletion. Only a caller that knows the
inserted set can tell the two cases apart; it passes ``force=True`` when the user insists on removing an item
it knows was never inserted. ``force`` does not change what happens to the counters (the filter has nothing
more to check); it is recorded in the returned ``Removal`` so a history can say the removal was forced, and
it leaves the count of inserted items alone (that item was never one of them).

Memory: one numpy uint8 per counter in memory (m bytes, whatever c is; m is capped at 2^31 for this variant),
plus an m-bit bitarray ``bits`` that mirrors "counter > 0" so that everything reading bits (lookups, the
false-positive tracker) works unchanged. The saved payload packs the counters to c bits each.

Set algebra: ``a | b`` adds the counters elementwise, saturating — the counting filter of both insert streams
together (an item inserted into both is counted twice and needs two removals); ``a & b`` takes the elementwise
minimum, whose "counter > 0" bits are exactly the AND of the two filters' bits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np
from bitarray import bitarray

from bloomviz.filters import bitstore
from bloomviz.theory.limits import COUNTER_BITS as COUNTER_BITS_RANGE
from bloomviz.hashing import schemes as hashing
from bloomviz.filters.standard import BATCH, BloomFilter, Insertion, Lookup
from bloomviz.items.encoding import describe, to_bytes_list
from bloomviz.theory.validate import check_k, check_m
from bloomviz.filters.capabilities import Capabilities
from bloomviz.filters.common import check_count, check_counter_bits, check_params
from bloomviz.filters.params import COUNTER_BITS, K, M

MAX_COUNTING_M = 1 << 31  # one byte per counter in memory: 2 GiB
_DENSE_MAX_M = 1 << 24    # below this, batch increments go through an m-sized bincount (fast, m*8 bytes)
_PACK_CHUNK = 1 << 20     # counters packed per step (a multiple of 8, so every chunk ends on a byte)


@dataclass(frozen=True)
class CountingInsertion(Insertion):
    """An insert: positions, which of them went from 0 to nonzero, and the counter values afterwards."""
    counters: tuple[int, ...] = ()


@dataclass(frozen=True)
class CountingLookup(Lookup):
    """A lookup: ``bits`` is 1 where the counter is above 0; ``counters`` holds the values themselves."""
    counters: tuple[int, ...] = ()


@dataclass(frozen=True)
class Removal:
    """A removal: the item's positions and the counter at each before and after it.

    ``stuck`` are the positions left alone because their counter is saturated; ``cleared`` are the positions
    whose counter reached 0 (their bit went 1 -> 0, so a false-positive tracker must be rebuilt); ``forced``
    records that the caller insisted (see the module docstring).
    """
    item: object
    positions: tuple[int, ...]
    before: tuple[int, ...]
    after: tuple[int, ...]
    forced: bool = False
    stuck: tuple[int, ...] = ()

    @property
    def cleared(self) -> tuple[int, ...]:
        return tuple(sorted({p for p, a in zip(self.positions, self.after) if a == 0}))

    @property
    def changed(self) -> bool:
        return self.before != self.after


def position_counts(flat: np.ndarray, m: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct positions of ``flat`` (sorted) and how often each occurs.

    Not ``np.unique(..., return_counts=True)``, which numpy 2.x answers through a hash table: on 7 million
    positions (a million items, k = 7) it took 0.55 s here against 0.21 s for this function
    (benchmarks/bench_variants.py). A batch dense in m takes one m-sized bincount; a sparse one a sort and a
    comparison of neighbours.
    """
    if m <= _DENSE_MAX_M and flat.size * 4 >= m:
        counts = np.bincount(flat, minlength=m)
        touched = np.flatnonzero(counts)
        return touched, counts[touched]
    ordered = np.sort(flat)
    if ordered.size == 0:
        return ordered.astype(np.int64), np.zeros(0, np.int64)
    starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
    counts = np.diff(np.append(starts, ordered.size))
    return ordered[starts], counts


def check_counting_m(m: object) -> int:
    m = check_m(m)
    if m > MAX_COUNTING_M:
        raise ValueError(f"m={m} is too large for a counting filter (one byte per counter in memory); "
                         f"the limit is 2^31 = {MAX_COUNTING_M}")
    return m


def pack_counters(counters: np.ndarray, counter_bits: int) -> bytes:
    """Counter j at bits [j·c, (j+1)·c) of the byte string, least significant bit first; zero padding."""
    if counter_bits == 8:
        return counters.tobytes()
    shifts = np.arange(counter_bits, dtype=np.uint8)
    parts = []
    for s in range(0, counters.size, _PACK_CHUNK):
        chunk = counters[s:s + _PACK_CHUNK]
        planes = (chunk[:, None] >> shifts[None, :]) & np.uint8(1)
        parts.append(np.packbits(planes.ravel(), bitorder="little").tobytes())
    return b"".join(parts)


def unpack_counters(payload: bytes, m: int, counter_bits: int) -> np.ndarray:
    expected = (m * counter_bits + 7) // 8
    if len(payload) != expected:
        raise ValueError(f"payload is {len(payload)} bytes; {m} counters of {counter_bits} bits need {expected}")
    raw = np.frombuffer(bytes(payload), dtype=np.uint8)
    if counter_bits == 8:
        return raw.copy()
    used = m * counter_bits
    if used % 8 and raw[-1] >> (used % 8):
        raise ValueError(f"padding bits after the last of the {m} counters are set")
    out = np.empty(m, dtype=np.uint8)
    weights = (np.uint8(1) << np.arange(counter_bits, dtype=np.uint8))
    step_bytes = _PACK_CHUNK * counter_bits // 8
    for j, s in enumerate(range(0, m, _PACK_CHUNK)):
        n = min(_PACK_CHUNK, m - s)
        planes = np.unpackbits(raw[j * step_bytes:(j + 1) * step_bytes], bitorder="little")
        planes = planes[:n * counter_bits].reshape(n, counter_bits)
        out[s:s + n] = (planes * weights).sum(axis=1, dtype=np.uint16).astype(np.uint8)
    return out


class CountingBloomFilter(BloomFilter):
    """m counters of ``counter_bits`` bits (1…8), k positions per item; supports ``remove``."""

    variant = "counting"
    # --- variant facts (see BloomFilter's) ---
    _stored_params = {"counter_bits": int}

    @classmethod
    def _payload_size(cls, m: int, params: dict) -> tuple[int, int]:
        c = params["counter_bits"]
        low, high = COUNTER_BITS_RANGE
        if not low <= c <= high:
            raise ValueError(f"counter_bits={c} is out of range {low}..{high}")
        n = (m * c + 7) // 8
        return n, n
    capabilities = Capabilities(parameters=(M, K, COUNTER_BITS), removable=True, counting=True)

    def __init__(self, m: int, k: int, counter_bits: int = 4, scheme: str = hashing.DEFAULT_SCHEME):
        self._setup(m, k, counter_bits, scheme)
        self._counters = np.zeros(self._m, dtype=np.uint8)

    def _setup(self, m, k, counter_bits, scheme) -> None:
        """Everything but the counters (from_state supplies its own, so it never allocates a zeroed copy)."""
        counter_bits = check_counter_bits(counter_bits)
        m = check_counting_m(m)
        BloomFilter.__init__(self, m, check_k(k), scheme=scheme)
        self._counter_bits = counter_bits
        self._top = (1 << counter_bits) - 1

    # --- description -------------------------------------------------------------------------------------
    @property
    def counter_bits(self) -> int:
        return self._counter_bits

    @property
    def max_counter(self) -> int:
        """The saturation value 2^c − 1: the top of the counters' range (a heat map's upper level)."""
        return self._top

    @property
    def highest_counter(self) -> int:
        """The largest counter value present now."""
        return int(self._counters.max()) if self._m else 0

    @property
    def saturated_count(self) -> int:
        """How many counters are stuck at the saturation value."""
        return int(np.count_nonzero(self._counters == self._top))

    @property
    def counters(self) -> np.ndarray:
        """All m counters (uint8), a read-only view."""
        view = self._counters.view()
        view.flags.writeable = False
        return view

    def counter(self, index: int) -> int:
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or not 0 <= index < self._m:
            raise ValueError(f"counter index must be an integer in [0, {self._m}), got {index!r}")
        return int(self._counters[index])

    def values_for_grid(self) -> np.ndarray:
        """The counters (uint8, 0 … max_counter), read-only; a heat map's values."""
        return self.counters

    @property
    def bits(self) -> bitarray:
        """Bit i is 1 exactly when counter i is above 0. Read it; change the filter through its methods."""
        return self._bits

    def nbytes(self) -> int:
        return self._counters.nbytes + self._bits.nbytes

    def _state_params(self) -> dict[str, int]:
        return {"counter_bits": self._counter_bits}

    def __repr__(self) -> str:
        return (f"CountingBloomFilter(m={self._m}, k={self._k}, counter_bits={self._counter_bits}, "
                f"scheme={self.scheme!r}, n={self._count}, bits_set={self._bits_set})")

    # --- single items ------------------------------------------------------------------------------------
    def add(self, item: object) -> CountingInsertion:
        pos = self.positions(item)
        c, bits, top = self._counters, self._bits, self._top
        newly = []
        for p in pos:  # one increment per hash function, so a repeated position is counted twice (and removed twice)
            v = int(c[p])
            if v == 0:
                bits[p] = 1
                self._bits_set += 1
            newly.append(v == 0)
            if v < top:
                c[p] = v + 1
        self._count += 1
        return CountingInsertion(item, pos, tuple(newly), counters=tuple(int(c[p]) for p in pos))

    def lookup(self, item: object) -> CountingLookup:
        pos = self.positions(item)
        values = tuple(int(self._counters[p]) for p in pos)
        return CountingLookup(item, pos, tuple(1 if v else 0 for v in values), counters=values)

    def remove(self, item: object, force: bool = False) -> Removal:
        """Decrement the item's k counters (saturated ones stay). Refused, changing nothing, when a counter is
        0: the item is definitely not in the filter. See the module docstring for what ``force`` means."""
        pos = self.positions(item)
        c, bits, top = self._counters, self._bits, self._top
        before = tuple(int(c[p]) for p in pos)
        zero = [p for p, v in zip(pos, before) if v == 0]
        if zero:
            raise ValueError(f"cannot remove {describe(item)!r}: the counter at position {zero[0]} is 0, so it "
                             "is definitely not in the filter (nothing was changed)")
        for p in pos:
            v = int(c[p])
            if v == top or v == 0:  # saturated: never decremented; 0: an earlier repeat of p already took it down
                continue
            c[p] = v - 1
            if v == 1:
                bits[p] = 0
                self._bits_set -= 1
        if not force:   # a forced removal takes out an item that was never inserted: the count of held items stays
            self._count = max(0, self._count - 1)
        return Removal(item, pos, before, tuple(int(c[p]) for p in pos), forced=bool(force),
                       stuck=tuple(sorted({p for p, v in zip(pos, before) if v == top})))

    # --- batches -----------------------------------------------------------------------------------------
    def _insert_rows(self, positions: np.ndarray) -> int:
        """Insert items given by their rows of positions; returns the number of counters that left 0."""
        positions = np.asarray(positions, dtype=np.int64)
        if positions.ndim != 2 or positions.shape[1] != self._k:
            raise ValueError(f"positions must be an n x {self._k} array, got shape {positions.shape}")
        if positions.size and (positions.min() < 0 or positions.max() >= self._m):
            raise ValueError(f"positions must lie in [0, {self._m})")
        flat = positions.ravel()
        before = self._bits_set
        if flat.size:
            touched, counts = position_counts(flat, self._m)
            # Saturating sum: adding the increments one at a time and clamping gives min(c + total, top) too.
            self._counters[touched] = np.minimum(self._counters[touched] + counts, self._top).astype(np.uint8)
            self._bits_set += bitstore.set_bits(self._bits, touched)
        self._count += positions.shape[0]
        return self._bits_set - before

    def update(self, items: Iterable[object]) -> int:
        datas = to_bytes_list(items)  # all encoded first: a bad item changes nothing
        newly = 0
        for s in range(0, len(datas), BATCH):
            newly += self._insert_rows(self._scheme.positions_many(datas[s:s + BATCH], self._m, self._k))
        return newly

    # --- set algebra and copies --------------------------------------------------------------------------
    def _check_compatible(self, other, op):
        other = super()._check_compatible(other, op)
        if other._counter_bits != self._counter_bits:
            raise ValueError(f"{op}: the filters differ in counter_bits "
                             f"({self._counter_bits!r} vs {other._counter_bits!r})")
        return other

    def _set_counters(self, counters: np.ndarray, count: int) -> None:
        """Adopt ``counters`` (uint8, length m, not copied) and rebuild the bits and counts from them."""
        self._counters = counters
        bits = bitarray(endian="little")
        for s in range(0, self._m, _PACK_CHUNK):  # chunked: no m-sized boolean temporary
            bits.frombytes(np.packbits(counters[s:s + _PACK_CHUNK] > 0, bitorder="little").tobytes())
        del bits[self._m:]
        self._bits = bits
        self._bits_set = bits.count()
        self._count = count

    def _with_counters(self, counters: np.ndarray, count: int) -> "CountingBloomFilter":
        out = type(self).__new__(type(self))
        out.__dict__.update(self.__dict__)
        out._set_counters(counters.astype(np.uint8), count)
        return out

    def __or__(self, other: "CountingBloomFilter") -> "CountingBloomFilter":
        other = self._check_compatible(other, "union (|)")
        total = self._counters.astype(np.uint16) + other._counters
        return self._with_counters(np.minimum(total, self._top), self._count + other._count)

    def __and__(self, other: "CountingBloomFilter") -> "CountingBloomFilter":
        other = self._check_compatible(other, "intersection (&)")
        return self._with_counters(np.minimum(self._counters, other._counters), min(self._count, other._count))

    def __eq__(self, other: object) -> bool:
        same = super().__eq__(other)
        if same is NotImplemented or not same:
            return same
        return self._counter_bits == other._counter_bits and np.array_equal(self._counters, other._counters)

    __hash__ = None

    def copy(self) -> "CountingBloomFilter":
        out = super().copy()
        out._counters = self._counters.copy()
        return out

    def clear(self) -> None:
        super().clear()
        self._counters[:] = 0

    # --- persistence -------------------------------------------------------------------------------------
    def _state_payload(self) -> bytes:
        """The m counters packed to ``counter_bits`` bits each: counter j occupies bits [j·c, (j+1)·c) of the
        payload, least significant bit first, bytes little-endian in bit order; ceil(m·c/8) bytes, padding 0."""
        return pack_counters(self._counters, self._counter_bits)

    @classmethod
    def _from_state(cls, m, k, scheme, count, params, payload) -> "CountingBloomFilter":
        check_params(params, ("counter_bits",), cls.variant)
        counter_bits = check_counter_bits(params["counter_bits"])
        m = check_counting_m(m)
        if not isinstance(payload, (bytes, bytearray, memoryview)):
            raise ValueError(f"payload must be bytes, got {type(payload).__name__}")
        count = check_count(count)
        out = cls.__new__(cls)
        out._setup(m, k, counter_bits, scheme)
        out._set_counters(unpack_counters(payload, m, counter_bits), count)  # length checked before allocating
        return out
