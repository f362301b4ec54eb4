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
false-positive tracker) works unchanged. The saved payload packs the counters to c bits each. The counters and
the rules above are a ``Counters`` (counters.py), which the filter holds and hands its bits to.

Set algebra: ``a | b`` adds the counters elementwise, saturating — the counting filter of both insert streams
together (an item inserted into both is counted twice and needs two removals); ``a & b`` takes the elementwise
minimum, whose "counter > 0" bits are exactly the AND of the two filters' bits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np
from bitarray import bitarray

from bloomviz.filters import batch_paths
from bloomviz.filters.counters import Counters, payload_bytes
from bloomviz.hashing import schemes as hashing
from bloomviz.filters.standard import BATCH, BloomFilter, Insertion, Lookup
from bloomviz.items.encoding import describe, to_bytes_list
from bloomviz.theory.validate import check_k, check_m
from bloomviz.filters.capabilities import Capabilities
from bloomviz.filters.common import check_count, check_counter_bits, check_params
from bloomviz.filters.params import COUNTER_BITS, K, M

MAX_COUNTING_M = 1 << 31  # one byte per counter in memory: 2 GiB


@dataclass(frozen=True)
class CountingInsertion(Insertion):
    """An insert: positions, which of them went from 0 to nonzero, and the counter values afterwards;
    ``raised``: which counters it incremented (not a saturated one), what ``capabilities.take_back`` decrements."""
    counters: tuple[int, ...] = ()
    raised: tuple[bool, ...] = ()


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


def check_counting_m(m: object) -> int:
    m = check_m(m)
    if m > MAX_COUNTING_M:
        raise ValueError(f"m={m} is too large for a counting filter (one byte per counter in memory); "
                         f"the limit is 2^31 = {MAX_COUNTING_M}")
    return m


class CountingBloomFilter(BloomFilter):
    """m counters of ``counter_bits`` bits (1…8), k positions per item; supports ``remove``.

    The counters and the rules for changing them are a ``Counters`` (counters.py) the filter holds; the filter
    keeps their "counter > 0" bits as any filter keeps its bits, so lookups, batches of lookups and the
    false-positive tracker read them unchanged."""

    variant = "counting"
    # --- variant facts (see BloomFilter's) ---
    _stored_params = {"counter_bits": int}
    capabilities = Capabilities(parameters=(M, K, COUNTER_BITS), removable=True, counting=True,
                                takes_back_inserts=True, logs_batches=True)

    @classmethod
    def _payload_size(cls, m: int, params: dict) -> tuple[int, int]:
        n = payload_bytes(m, params["counter_bits"])
        return n, n

    def __init__(self, m: int, k: int, counter_bits: int = 4, scheme: str = hashing.DEFAULT_SCHEME):
        counter_bits = check_counter_bits(counter_bits)
        BloomFilter.__init__(self, check_counting_m(m), check_k(k), scheme=scheme)
        self._cells = Counters.zeros(self._m, counter_bits)

    def _adopt(self, cells: Counters, count: int) -> None:
        """Hold ``cells`` and rebuild the bits and counts from them."""
        self._cells = cells
        self._bits = cells.bits()
        self._bits_set = self._bits.count()
        self._count = count

    # --- description -------------------------------------------------------------------------------------
    counter_bits = property(lambda self: self._cells.counter_bits)
    max_counter = property(lambda self: self._cells.top,
                           doc="The saturation value 2^c − 1: the top of the counters' range (a heat map's upper level).")
    counters = property(lambda self: self._cells.view(), doc="All m counters (uint8), a read-only view.")

    highest_counter = property(lambda self: self._cells.highest, doc="The largest counter value present now.")
    saturated_count = property(lambda self: self._cells.saturated,
                               doc="How many counters are stuck at the saturation value.")

    def counter(self, index: int) -> int:
        return self._cells.at(index)

    def values_for_grid(self) -> np.ndarray:
        """The counters (uint8, 0 … max_counter), read-only; a heat map's values."""
        return self.counters

    @property
    def bits(self) -> bitarray:
        """Bit i is 1 exactly when counter i is above 0. Read it; change the filter through its methods."""
        return self._bits

    def nbytes(self) -> int:
        return self._cells.values.nbytes + self._bits.nbytes

    def __repr__(self) -> str:
        return (f"CountingBloomFilter(m={self._m}, k={self._k}, counter_bits={self.counter_bits}, "
                f"scheme={self.scheme!r}, n={self._count}, bits_set={self._bits_set})")

    # --- single items ------------------------------------------------------------------------------------
    def add(self, item: object) -> CountingInsertion:
        # all or nothing: worked out first, written by one call that puts its counters back if stopped part way
        pos = self.positions(item)
        newly, raised, before, after = self._cells.plan(pos)
        ins, fresh = CountingInsertion(item, pos, newly, counters=after, raised=raised), sum(newly)
        self._cells.write(pos, before, after, self._bits)
        self._bits_set, self._count = self._bits_set + fresh, self._count + 1   # (no call: no Ctrl-C lands here)
        return ins

    def _take_back(self, ins: CountingInsertion) -> None:
        """Undo ``ins``, the last insert: the counters it raised (not a saturated one) go down by one."""
        self._bits_set -= self._cells.lower(ins.positions, ins.raised, self._bits)
        self._count -= 1

    def _values_at(self, positions: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(int(self._cells.values[p]) for p in positions)

    def lookup(self, item: object) -> CountingLookup:
        pos = self.positions(item)
        values = self._values_at(pos)
        return CountingLookup(item, pos, tuple(1 if v else 0 for v in values), counters=values)

    def remove(self, item: object, force: bool = False) -> Removal:
        """Decrement the item's k counters (saturated ones stay). Refused, changing nothing, when a counter is
        0: the item is definitely not in the filter. See the module docstring for what ``force`` means."""
        pos = self.positions(item)
        zero = self._cells.zero_at(pos)
        if zero is not None:
            raise ValueError(f"cannot remove {describe(item)!r}: the counter at position {zero} is 0, so it "
                             "is definitely not in the filter (nothing was changed)")
        before = self._values_at(pos)
        self._bits_set -= self._cells.decrement(pos, self._bits)
        if not force:   # a forced removal takes out an item that was never inserted: the count of held items stays
            self._count = max(0, self._count - 1)
        top = self._cells.top
        return Removal(item, pos, before, self._values_at(pos), forced=bool(force),
                       stuck=tuple(sorted({p for p, v in zip(pos, before) if v == top})))

    # --- batches -----------------------------------------------------------------------------------------
    def _insert_rows(self, positions: np.ndarray) -> int:
        """Insert items given by their rows of positions; returns the number of counters that left 0."""
        positions = np.asarray(positions, dtype=np.int64)
        if positions.ndim != 2 or positions.shape[1] != self._k:
            raise ValueError(f"positions must be an n x {self._k} array, got shape {positions.shape}")
        fresh = self._cells.add_rows(positions.ravel(), self._bits)
        self._bits_set += fresh
        self._count += positions.shape[0]
        return fresh

    def update(self, items: Iterable[object]) -> int:
        datas = to_bytes_list(items)  # all encoded first: a bad item changes nothing
        return sum(self._insert_rows(self._scheme.positions_many(chunk, self._m, self._k))
                   for chunk in batch_paths.chunks(datas, BATCH))

    # --- set algebra and copies --------------------------------------------------------------------------
    def _check_compatible(self, other, op):
        other = super()._check_compatible(other, op)
        if other.counter_bits != self.counter_bits:
            raise ValueError(f"{op}: the filters differ in counter_bits "
                             f"({self.counter_bits!r} vs {other.counter_bits!r})")
        return other

    def _with(self, cells: Counters, count: int) -> "CountingBloomFilter":
        out = type(self).__new__(type(self))
        out.__dict__.update(self.__dict__)
        out._adopt(cells, count)
        return out

    def __or__(self, other: "CountingBloomFilter") -> "CountingBloomFilter":
        other = self._check_compatible(other, "union (|)")
        return self._with(self._cells.union(other._cells), self._count + other._count)

    def __and__(self, other: "CountingBloomFilter") -> "CountingBloomFilter":
        other = self._check_compatible(other, "intersection (&)")
        return self._with(self._cells.intersection(other._cells), min(self._count, other._count))

    def __eq__(self, other: object) -> bool:
        same = super().__eq__(other)
        return same if same is NotImplemented or not same else self._cells == other._cells

    __hash__ = None

    def copy(self) -> "CountingBloomFilter":
        out = super().copy()
        out._cells = self._cells.copy()
        return out

    def clear(self) -> None:
        super().clear()
        self._cells.values[:] = 0

    # --- persistence -------------------------------------------------------------------------------------
    def _state_params(self) -> dict[str, int]:
        return {"counter_bits": self.counter_bits}

    def _state_payload(self) -> bytes:
        """The m counters packed to ``counter_bits`` bits each: counter j occupies bits [j·c, (j+1)·c) of the
        payload, least significant bit first, bytes little-endian in bit order; ceil(m·c/8) bytes, padding 0."""
        return self._cells.pack()

    @classmethod
    def _from_state(cls, m, k, scheme, count, params, payload) -> "CountingBloomFilter":
        check_params(params, ("counter_bits",), cls.variant)
        counter_bits = check_counter_bits(params["counter_bits"])
        m = check_counting_m(m)
        if not isinstance(payload, (bytes, bytearray, memoryview)):
            raise ValueError(f"payload must be bytes, got {type(payload).__name__}")
        count = check_count(count)
        out = cls.__new__(cls)
        BloomFilter.__init__(out, m, check_k(k), scheme=scheme)
        out._adopt(Counters.unpack(payload, m, counter_bits), count)  # length checked before allocating
        return out
