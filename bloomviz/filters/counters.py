"""A counting filter's cells: m saturating counters of c bits (1…8) and the rules for changing them.

``Counters`` is the storage a ``CountingBloomFilter`` (counting.py) holds, apart from the filter so that the
rules are stated once, next to the numbers they act on: an increment saturates at 2^c − 1, a decrement leaves a
saturated counter alone (once it overflowed, the true count is unknown: counting it down could reach 0 while
items still hash there), and a counter at 0 refuses a removal. Every change is handed the filter's "counter > 0"
bit array, keeps it in step, and returns how many of its bits changed, so the filter's own bookkeeping (the
bits set, the insert count) stays the filter's.

Memory: one numpy uint8 per counter, whatever c is; the saved payload packs each counter to c bits.
"""

from __future__ import annotations

import numpy as np
from bitarray import bitarray

from bloomviz.filters import bitstore
from bloomviz.filters.common import check_counter_bits
from bloomviz.theory.limits import COUNTER_BITS as COUNTER_BITS_RANGE

_DENSE_MAX_M = 1 << 24    # below this, batch increments go through an m-sized bincount (fast, m*8 bytes)
_PACK_CHUNK = 1 << 20     # counters packed per step (a multiple of 8, so every chunk ends on a byte)


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


def payload_bytes(m: int, counter_bits: int) -> int:
    """The size of m packed counters of ``counter_bits`` bits (ValueError for a width out of range)."""
    low, high = COUNTER_BITS_RANGE
    if not low <= counter_bits <= high:
        raise ValueError(f"counter_bits={counter_bits} is out of range {low}..{high}")
    return (m * counter_bits + 7) // 8


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


class Counters:
    """m counters of ``counter_bits`` bits held as uint8 ``values``; ``top`` = 2^c − 1 is where they saturate."""

    def __init__(self, values: np.ndarray, counter_bits: int):
        self.counter_bits = check_counter_bits(counter_bits)
        self.top = (1 << self.counter_bits) - 1
        self.values = values      # uint8, length m; adopted, not copied

    @classmethod
    def zeros(cls, m: int, counter_bits: int) -> "Counters":
        return cls(np.zeros(m, dtype=np.uint8), counter_bits)

    @classmethod
    def unpack(cls, payload: bytes, m: int, counter_bits: int) -> "Counters":
        """Counters from a .bloom payload (its length is checked before anything is allocated)."""
        return cls(unpack_counters(payload, m, check_counter_bits(counter_bits)), counter_bits)

    def pack(self) -> bytes:
        return pack_counters(self.values, self.counter_bits)

    def view(self) -> np.ndarray:
        view = self.values.view()
        view.flags.writeable = False
        return view

    @property
    def highest(self) -> int:
        return int(self.values.max()) if self.values.size else 0

    @property
    def saturated(self) -> int:
        return int(np.count_nonzero(self.values == self.top))

    def at(self, index: int) -> int:
        m = self.values.size
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or not 0 <= index < m:
            raise ValueError(f"counter index must be an integer in [0, {m}), got {index!r}")
        return int(self.values[index])

    def bits(self) -> bitarray:
        """A new bit array that is 1 exactly where a counter is above 0."""
        bits = bitarray(endian="little")
        for s in range(0, self.values.size, _PACK_CHUNK):  # chunked: no m-sized boolean temporary
            bits.frombytes(np.packbits(self.values[s:s + _PACK_CHUNK] > 0, bitorder="little").tobytes())
        del bits[self.values.size:]
        return bits

    # --- the rules, each handed the "counter > 0" bits it keeps in step ---------------------------------------
    def plan(self, positions: tuple[int, ...]) -> tuple[tuple[bool, ...], tuple[bool, ...], tuple, tuple]:
        """What one increment per position makes (a position repeated is counted twice, and removed twice),
        saturating, read without a write: which of them went from 0 to nonzero, which were incremented (a
        saturated counter is not), and every position's counter before and after (for ``write``)."""
        c, top = self.values, self.top
        now: dict[int, int] = {}
        newly, raised = [], []
        for p in positions:
            v = now[p] if p in now else int(c[p])
            newly.append(v == 0)
            raised.append(v < top)
            now[p] = v + 1 if v < top else v
        return tuple(newly), tuple(raised), tuple(int(c[p]) for p in positions), tuple(now[p] for p in positions)

    def write(self, positions: tuple[int, ...], before: tuple, after: tuple, bits: bitarray) -> None:
        """Write ``plan``'s counters ``after`` (each above 0): all of them or, whatever is raised part way (a
        Ctrl-C between two writes), none (``before`` written back)."""
        c = self.values
        try:
            for p, v in zip(positions, after):
                c[p] = v
                bits[p] = 1
        except BaseException:
            for p, v in zip(positions, before):
                c[p] = v
                bits[p] = 1 if v else 0
            raise

    def lower(self, positions: tuple[int, ...], raised: tuple[bool, ...], bits: bitarray) -> int:
        """Take back an ``increment`` (the last change made): one decrement per position it raised. Returns how
        many bits that cleared (counters back at 0)."""
        c = self.values
        cleared = 0
        for p, up in zip(positions, raised):
            if up:
                c[p] -= 1
                if not c[p]:
                    bits[p] = 0
                    cleared += 1
        return cleared

    def zero_at(self, positions: tuple[int, ...]) -> int | None:
        """The first position whose counter is 0 (the item is definitely absent: no removal), or None."""
        return next((p for p in positions if self.values[p] == 0), None)

    def decrement(self, positions: tuple[int, ...], bits: bitarray) -> int:
        """One decrement per position, except where the counter is saturated (it stays) or already 0 (an
        earlier repeat of the position took it down). Returns how many bits that cleared."""
        c, top = self.values, self.top
        cleared = 0
        for p in positions:
            v = int(c[p])
            if v == top or v == 0:
                continue
            c[p] = v - 1
            if v == 1:
                bits[p] = 0
                cleared += 1
        return cleared

    def add_rows(self, flat: np.ndarray, bits: bitarray) -> int:
        """Increment once per entry of ``flat`` (positions; ValueError, changing nothing, for one out of range),
        saturating; returns the bits newly set."""
        if not flat.size:
            return 0
        if flat.min() < 0 or flat.max() >= self.values.size:
            raise ValueError(f"positions must lie in [0, {self.values.size})")
        touched, counts = position_counts(flat, self.values.size)
        # Saturating sum: adding the increments one at a time and clamping gives min(c + total, top) too.
        self.values[touched] = np.minimum(self.values[touched] + counts, self.top).astype(np.uint8)
        return bitstore.set_bits(bits, touched)

    # --- whole arrays ----------------------------------------------------------------------------------------
    def union(self, other: "Counters") -> "Counters":
        """Elementwise sums, saturating: the counters of both insert streams together."""
        total = self.values.astype(np.uint16) + other.values
        return Counters(np.minimum(total, self.top).astype(np.uint8), self.counter_bits)

    def intersection(self, other: "Counters") -> "Counters":
        """Elementwise minimum: its "counter > 0" bits are exactly the AND of the two filters' bits."""
        return Counters(np.minimum(self.values, other.values), self.counter_bits)

    def copy(self) -> "Counters":
        return Counters(self.values.copy(), self.counter_bits)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Counters):
            return NotImplemented
        return self.counter_bits == other.counter_bits and np.array_equal(self.values, other.values)

    __hash__ = None
