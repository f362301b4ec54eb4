"""The bits a batch of inserts turns from 0 to 1, each at the insert that turns it, for the exact tracker.

Compiled passes (numba) over the batch's positions in insertion order. The setting pass sets each bit and,
when the bit was still 0, counts it for its insert (row). A probe bit's flip is then found one of two ways:

- a filter of at most 2^26 bits keeps a map of the probes' bits, one bit per filter bit, and the setting pass
  itself notes the row that turns one (both arrays stay in the cache);
- a larger filter gets a second pass that finds the first row holding each probe bit (for a probe bit that
  was 0 before the batch, the only ones the tracker follows, that row turned it), checking each position
  against a small bitmap of the probes' bits (two hashed bits each, ~1 % pass by chance): in the setting
  pass every random access into the big array evicted that bitmap.

Either way a candidate is looked up in a hashed table of the probe bits (open addressing, load <= 1/4).
This replaced numpy code that needed a batch-sized hashed table with several contest rounds, a second read
of every position and a sort (41 ns a position at m = 2^32, against ~16 + 5 here; benchmarks/bench_scale.py).
"""

from __future__ import annotations

import threading

import numpy as np

from bloomviz.hashing.lazy_jit import njit
from bloomviz.filters.bit_kernels import PREFETCH_AHEAD, checked_rows, prefetch
from bloomviz.hashing.mixed_kernel import _ahead, _checked_view, _fill_ring, _mode, ring_for
from bloomviz.measure.fresh_rows import MAP_MAX_BITS, fresh_rows, map_bits, table_size

# An odd 64-bit multiplier (splitmix64's golden ratio), as a signed int64: slot = (bit * C) >> shift, masked.
_MULTIPLIER = np.int64(0x9E3779B97F4A7C15 - (1 << 64))
_BITMAP_EXTRA_BITS = 4   # bitmap: 2^(bits of the distinct count + 4) bits, at least 2^12
_TABLE_EXTRA_BITS = 2    # table: 2^(bits of the distinct count + 2) slots
EXACT_MAX_M = 1 << 26    # up to here the bitmap is one bit per filter bit (8 MiB at most)


@njit(cache=True, inline="always")
def _bitmap_bits(mixed, b_shift, b_mask):
    """A probe bit's two bits in the hashed bitmap: the top bits of its product and the bits 32 places below."""
    return (mixed >> b_shift) & b_mask, (mixed >> (b_shift - 32)) & b_mask


@njit(cache=True, nogil=True)
def _set_rows(view, flat, k, new_per_row, noting, probe_map, keys, values, t_shift, t_mask, bit_time, turned):
    """Set the rows' bits and count each row's new ones. ``noting``: also note the row turning each probe bit
    (in ``bit_time``, its slot appended to ``turned``; returns how many were noted), for a filter whose
    probe map (one bit per filter bit) is small enough to stay in the cache beside it: one pass instead of two (a flip of a probe bit is rare, so its branch is predicted). The map's byte is
    fetched ahead like the array's: without it the pass took 52 against 38 ns an item at m = 9,585,059, k = 7
    and 150-170 against 64-81 at m = 6 * 10^7 (a plain setting pass with the row counts: 22 and 35-39)."""
    # Branch-free otherwise: whether a bit was 0 is a coin toss the processor cannot predict, and a
    # mispredicted branch per position cost more than the memory access.
    # the rows come flat (n·k positions, k a row): numba's ravel calls a helper of numba's runtime, which the
    # native cache (hashing/native_kernels.py) cannot link without numba
    n = new_per_row.size
    last = flat.size - PREFETCH_AHEAD
    count = 0
    i = 0
    for r in range(n):
        fresh = 0
        for _ in range(k):
            if i < last:
                ahead = flat[i + PREFETCH_AHEAD] >> 3
                prefetch(view, ahead)
                if noting:      # the probe map is as big as the array: its line is a miss of its own
                    prefetch(probe_map, ahead)
            p = flat[i]
            b = p >> 3
            shift_in = p & 7
            v = view[b]
            was_zero = ((v >> shift_in) & 1) ^ 1
            fresh += was_zero
            view[b] = v | (1 << shift_in)
            if noting and was_zero & (probe_map[b] >> shift_in):
                slot = ((p * _MULTIPLIER) >> t_shift) & t_mask
                while keys[slot] >= 0:
                    if keys[slot] == p:
                        bit_time[values[slot]] = r
                        turned[count] = values[slot]
                        count += 1
                        break
                    slot = (slot + 1) & t_mask
            i += 1
        new_per_row[r] = fresh
    return count


@njit(cache=True, nogil=True)
def _first_rows(rows, bitmap, b_shift, b_mask, keys, values, t_shift, t_mask, bit_time, turned, count):
    # A pass of its own, after the bits are set: it reads the positions in order and the bitmap, which stays
    # in the cache here, while in the setting pass every random access into a big array evicted it (34.7
    # against 15.6 + ~3 ns a position at m = 2^32). The hashed bitmap takes two bits per probe bit, so few
    # positions go on to the table (~1 %, against ~5 % with one): each costs a cache miss or two.
    n, k = rows.shape
    for r in range(n):
        for c in range(k):
            p = rows[r, c]
            mixed = p * _MULTIPLIER
            h1, h2 = _bitmap_bits(mixed, b_shift, b_mask)
            if (bitmap[h1 >> 3] >> (h1 & 7)) & (bitmap[h2 >> 3] >> (h2 & 7)) & 1:
                slot = (mixed >> t_shift) & t_mask
                while keys[slot] >= 0:
                    if keys[slot] == p:
                        at = values[slot]
                        if bit_time[at] < 0:
                            bit_time[at] = r
                            turned[count] = at
                            count += 1
                        break
                    slot = (slot + 1) & t_mask
    return count


@njit(cache=True, inline="always")
def _set_halves_in(view, h1, h2, m, mode, k, ahead, new_per_row, fresh, ring):
    mm = np.uint64(m)
    mask = np.uint64(m - 1)
    n = h1.size
    last = ring.shape[0] - 1
    total = 0
    for j in range(-ahead, n):
        if j + ahead < n:
            _fill_ring(h1, h2, j + ahead, mode, mm, mask, k, view, ring, (j + ahead) & last)
        if j < 0:
            continue
        at = j & last
        before = total
        for i in range(k):
            # unsigned indices: a signed one is checked for a negative (wrap-around) value at every use, five
            # more instructions a position (m = 9.6e6, k = 7: 33.3 -> 28.1 ns an item; m = 2^32, k = 20: -3.6 %)
            p = ring[at, i]
            b = p >> np.uint64(3)
            shift_in = np.uint8(p & np.uint64(7))
            v = view[b]
            fresh[np.uint64(total)] = np.int64(p)
            total += np.int64(((v >> shift_in) & np.uint8(1)) ^ np.uint8(1))
            view[b] = v | (np.uint8(1) << shift_in)
        new_per_row[j] = total - before
    return total


def _set_halves(view, h1, h2, m, mode, k, ahead, new_per_row, fresh):
    """``_set_halves_at`` with its ring of positions (made here: see mixed_kernel.ring_for)."""
    return _set_halves_at(view, h1, h2, m, mode, k, ahead, new_per_row, fresh, ring_for(ahead, k))


@njit(cache=True, nogil=True)
def _set_halves_at(view, h1, h2, m, mode, k, ahead, new_per_row, fresh, ring):
    """``_set_rows`` for items given by their murmur3-mix halves: each position computed ``ahead`` items early
    and its cache line asked for (mixed_kernel's ring); no n x k array is written, range-checked and read.
    The positions whose bit turns are written in order to ``fresh`` (branch-free: the slot is overwritten
    when the bit was already set), each row's count to ``new_per_row``; returns their number.

    Only those positions can be a probe bit's flip, so ``_first_fresh`` checks them alone: a third of all
    positions over a Brainflayer run, none once the filter is full. Noting flips in this pass instead
    measured worse (m = 2^32, k = 20, ns an item, the filter empty / half full: 211 / 223 without noting,
    409 / 395 reading the probe bitmap at every position, 392 / 456 at the new bits only). Storing only
    the bits that were 0 (a branch, or a select of the address) measured no better either.

    One copy of the loop per way of scaling a position (``mode``, a constant in each): with ``mode`` read in
    the loop the pass took 205 against 192 ns an item at m = 2^32, k = 20 (a plain numpy scatter: 150)."""
    if mode == 1:
        return _set_halves_in(view, h1, h2, m, 1, k, ahead, new_per_row, fresh, ring)
    if mode == 0:
        return _set_halves_in(view, h1, h2, m, 0, k, ahead, new_per_row, fresh, ring)
    return _set_halves_in(view, h1, h2, m, 2, k, ahead, new_per_row, fresh, ring)


def _turned(view, distinct, candidates, turned) -> tuple[int, int]:
    """Split ``candidates`` (indices into ``distinct``, probe bits not yet seen set) in place: those whose bit
    is set now go to ``turned``; returns (how many stay candidates, how many turned)."""
    kept = int(_turned_split(view, distinct, candidates, turned))
    return kept, candidates.size - kept


@njit(cache=True, nogil=True)
def _turned_split(view, distinct, candidates, turned):
    """``_turned``, returning how many stay candidates (one number: a kernel of the native kernel cache returns
    at most one; every other candidate went to ``turned``). Each candidate's byte is a cache miss of its own
    (up to 2 x 10^5 of them a batch at m = 2^32): its line is asked for PREFETCH_AHEAD candidates early, so
    that many are in flight at once."""
    kept = 0
    count = 0
    last = candidates.size - PREFETCH_AHEAD
    for i in range(candidates.size):
        if i < last:
            prefetch(view, distinct[candidates[i + PREFETCH_AHEAD]] >> 3)
        c = candidates[i]
        p = distinct[c]
        if (view[p >> 3] >> (p & 7)) & 1:
            turned[count] = c
            count += 1
        else:
            candidates[kept] = c
            kept += 1
    return kept


_SMALL_MAP_BITS = 16        # the turned probe bits' map: 8 KiB, in the first-level cache
_BLOCK = 64                 # positions checked before one branch on whether any of them hit


def _first_fresh(fresh, new_per_row, turned_bits, turned_slots, bit_time) -> None:
    """``_first_fresh_in``, its arrays made here (an array made inside a kernel needs numba's runtime, which
    the native kernel cache's kernels cannot call)."""
    _first_fresh_in(fresh, np.cumsum(new_per_row), turned_bits, turned_slots, bit_time,
                    np.zeros(1 << (_SMALL_MAP_BITS - 3), dtype=np.uint8))


@njit(cache=True, nogil=True)
def _first_fresh_in(fresh, ends, turned_bits, turned_slots, bit_time, small):
    """The row at which each of ``turned_bits`` (sorted, with their slots in ``distinct``) turned: the
    positions ``_set_halves`` found turning (row r's are the next new_per_row[r]) are checked in blocks of
    ``_BLOCK`` against a small map of those few bits (a position's low bits: positions are uniform), a block
    with a hit read again, each hit confirmed by a binary search and its row found by another in the rows'
    running ends. A branch a block, not a position, and no loop a row (whose exit mispredicted at every row):
    at m = 2^32, k = 20, the filter a fifth full, 26 ns an item a row at a time, 18.5 in one plain loop;
    on rows of 15 new bits each, 18.7 ns a row in the plain loop, 16.5 in blocks. ``ends``: the running sum of
    each row's new bits; ``small``: 2^_SMALL_MAP_BITS bits, all 0."""
    low = (1 << _SMALL_MAP_BITS) - 1
    for b in turned_bits:
        h = b & low
        small[h >> 3] |= np.uint8(1 << (h & 7))
    total = ends[-1] if ends.size else 0
    for start in range(0, total, _BLOCK):
        stop = min(start + _BLOCK, total)
        hit = 0
        for i in range(start, stop):
            h = fresh[i] & low
            hit |= small[h >> 3] >> (h & 7)
        if hit & 1:
            for i in range(start, stop):
                p = fresh[i]
                h = p & low
                if (small[h >> 3] >> (h & 7)) & 1:
                    at = np.searchsorted(turned_bits, p)
                    if at < turned_bits.size and turned_bits[at] == p:
                        bit_time[turned_slots[at]] = np.searchsorted(ends, i, side="right")


@njit(cache=True, nogil=True)
def _build(distinct, exact, bitmap, b_shift, b_mask, keys, values, t_shift, t_mask):
    for i in range(distinct.size):
        mixed = distinct[i] * _MULTIPLIER
        if exact:
            p = distinct[i]
            bitmap[p >> 3] |= np.uint8(1 << (p & 7))
        else:
            h1, h2 = _bitmap_bits(mixed, b_shift, b_mask)
            bitmap[h1 >> 3] |= np.uint8(1 << (h1 & 7))
            bitmap[h2 >> 3] |= np.uint8(1 << (h2 & 7))
        slot = (mixed >> t_shift) & t_mask
        while keys[slot] >= 0:
            slot = (slot + 1) & t_mask
        keys[slot] = distinct[i]
        values[slot] = i


@njit(cache=True, nogil=True)
def account_turned(turned, bit_time, slot_start, entry_probe, live, zeros, latest, touched, per_row):
    """The tracker's bookkeeping after a flip pass, in the probe bits the pass saw turn (``turned``, slots into
    ``distinct``) alone: a followed bit (``live``) that turned at row ``bit_time`` takes one zero off each
    probe on it (its entries, ``slot_start[s]`` to ``slot_start[s + 1]``) and is followed no more; a probe left
    with no zero became a false positive at its latest such row, counted in ``per_row``. ``latest`` (-1 for
    every probe) and ``touched`` are scratch, left as found. Returns how many probes became false positives.

    Proportional to the bits that turned, not to the entries: the pass over every entry and probe that did
    this before cost ~0.15 ms a batch at 10^4 probes, k = 7 (a third of a small auto-play chunk's own cost)
    and most of it found nothing once the filter had filled."""
    count = 0
    for j in range(turned.size):
        s = turned[j]
        t = bit_time[s]
        if t < 0 or not live[s]:
            continue
        live[s] = False
        for e in range(slot_start[s], slot_start[s + 1]):
            probe = entry_probe[e]
            zeros[probe] -= 1
            if latest[probe] < 0:
                touched[count] = probe
                count += 1
            if t > latest[probe]:
                latest[probe] = t
    became = 0
    for j in range(count):
        probe = touched[j]
        if zeros[probe] == 0:
            per_row[latest[probe]] += 1
            became += 1
        latest[probe] = -1
    return became


SHORT_RING_MAX_M = 1 << 25   # filters of at most this many bits keep fewer positions in flight in set_halves
SHORT_RING_POSITIONS = 20


def _halves_ahead(m: int, k: int) -> int:
    """Items whose positions ``_set_halves`` computes ahead. A filter of at most 4 MiB (cache and TLB misses
    answered sooner) does better with ~20 positions in flight than with mixed_kernel's 32 (k = 7, ns an item:
    9.6 x 10^6 bits 35.2 -> 32.4, 2^25 bits 40.9 -> 37.2; 10^6 and 4 x 10^6 bits equal); 2^26 bits not
    (49.3 against 53.2)."""
    if m <= SHORT_RING_MAX_M:
        return max(1, -(-SHORT_RING_POSITIONS // max(k, 1)))
    return max(1, _ahead(m, k))


# set_halves' turned positions, read back by rows_of in the same insert: one buffer per thread, kept from one
# tracker to the next up to FRESH_KEPT entries (a run's new tracker wrote 7.3 MB of new memory, ~1,800 page
# faults, for steps of 2^17 items at k = 7: ~2-7 us a fault on a loaded machine, ~5 ns an item of 10^6)
FRESH_KEPT = 1 << 21
_kept = threading.local()


def _fresh_buffer(size: int) -> np.ndarray:
    if size > FRESH_KEPT:
        return np.empty(size, dtype=np.int64)
    buffer = getattr(_kept, "fresh", None)
    if buffer is None or buffer.size < size:
        buffer = _kept.fresh = np.empty(max(size, 1 << 16), dtype=np.int64)
    return buffer


class ProbeBits:
    """A fixed set of probe bits, for the flip pass: ``distinct`` (sorted, unique) and, for every entry of
    the ``bits`` it was built from, ``slot`` (its index in ``distinct``), so a caller that drops entries
    keeps their slots beside them."""

    def __init__(self, bits: np.ndarray, m: int):
        bits = np.asarray(bits, dtype=np.int64)
        if bits.size and np.all(bits[1:] > bits[:-1]):    # already sorted and distinct (the tracker's)
            self.distinct, self.slot = bits, np.arange(bits.size)
        else:
            self.distinct, self.slot = np.unique(bits, return_inverse=True)
        size = int(self.distinct.size).bit_length()
        # the bitmap's two hashes are the top bits of the product and the bits 32 places below them; a
        # filter of at most EXACT_MAX_M bits gets a bitmap of its own size instead, one bit per filter bit
        b_bits = min(32, max(12, size + _BITMAP_EXTRA_BITS))
        self._m = m
        self._exact = m <= EXACT_MAX_M
        if self._exact:
            b_bits = max(3, (m - 1).bit_length())
        t_bits = max(4, size + _TABLE_EXTRA_BITS)
        self._b = (np.int64(64 - b_bits), np.int64((1 << b_bits) - 1))
        self._t = (np.int64(64 - t_bits), np.int64((1 << t_bits) - 1))
        self._bitmap = np.zeros(1 << (b_bits - 3), dtype=np.uint8)
        self._keys = np.full(1 << t_bits, -1, dtype=np.int64)
        self._values = np.zeros(1 << t_bits, dtype=np.int32)
        self._fresh = np.empty(0, dtype=np.int64)      # flip_halves' positions whose bit turned
        # the flip row of each probe bit, the one array every pass answers in, and the bits the last pass noted:
        # a pass puts back -1 where the one before it wrote (a fresh array a batch was 8 bytes a probe bit of
        # new memory to fault in, 0.5 MiB a chunk at 10^4 probes, k = 7; refilling it whole, a pass over it)
        self._bit_time = np.full(self.distinct.size, -1, dtype=np.int64)
        self._turned = np.empty(self.distinct.size, dtype=np.int64)
        self._noted = 0
        self._candidates = np.arange(self.distinct.size, dtype=np.int64)   # probe bits flip_halves has not seen set
        # fresh_rows' scratch (flip_halves of a filter of at most EXACT_MAX_M bits), made when first needed
        self._small = self._slot_keys = self._slot_values = np.zeros(0, dtype=np.int64)
        _build(self.distinct, self._exact, self._bitmap, *self._b, self._keys, self._values, *self._t)

    def flip_rows(self, view: np.ndarray, rows: np.ndarray, m: int) -> tuple[np.ndarray, np.ndarray]:
        """Set the bits of ``rows`` (n x k positions, in insertion order) in the little-endian byte array
        ``view`` of m bits. Returns (bits each row turned from 0 to 1, and for each of ``distinct`` the first
        row holding it, or -1): for a bit that was 0 before the batch, the row that turned it; callers read
        it only for such bits. The second array is this object's own, answered anew by its next pass, and
        ``turned`` names the bits it holds a row for. Positions outside [0, m) are refused before any write."""
        if m != self._m:      # the exact map is read at every position's byte: it must be this filter's size
            raise ValueError(f"these probe bits were mapped for m = {self._m}, not {m}")
        rows = checked_rows(rows, m, view)
        new_per_row = np.empty(rows.shape[0], dtype=np.int64)
        bit_time = self._fresh_times()
        self._noted = _set_rows(view, rows.ravel(), rows.shape[1], new_per_row, self._exact, self._bitmap,
                                self._keys, self._values, *self._t, bit_time, self._turned)
        if not self._exact:
            self._noted = _first_rows(rows, self._bitmap, *self._b, self._keys, self._values, *self._t, bit_time,
                                      self._turned, self._noted)
        return new_per_row, bit_time

    @property
    def exact(self) -> bool:
        """Whether the probe map is one bit per filter bit (a filter of at most EXACT_MAX_M bits)."""
        return self._exact

    @property
    def turned(self) -> np.ndarray:
        """The slots (indices into ``distinct``) the last pass gave a row in its second array; -1 elsewhere."""
        return self._turned[:self._noted]

    def _fresh_times(self) -> np.ndarray:
        self._bit_time[self._turned[:self._noted]] = -1
        self._noted = 0
        return self._bit_time

    def flip_halves(self, view: np.ndarray, h1: np.ndarray, h2: np.ndarray, m: int, k: int, counter=None):
        """``flip_rows`` for n items of the murmur3-mix scheme given by their hash halves (h2 forced odd): the
        same answers, the positions computed in each pass (every one lies in [0, m)) instead of held as an
        n x k array."""
        new_per_row, slots = self.set_halves(view, h1, h2, m, k, counter)
        return new_per_row, self.rows_of(slots, new_per_row)

    def set_halves(self, view: np.ndarray, h1: np.ndarray, h2: np.ndarray, m: int, k: int, counter=None):
        """The setting pass of ``flip_halves``: (bits each item turned, the slots of the probe bits the batch
        turned, sorted). ``rows_of`` then finds the rows that turned those of them a caller needs. The probe
        map of a filter of at most EXACT_MAX_M bits is not read: in this pass it cost as much as the filter's
        own bits (a second random access a position; fresh_rows.py). ``counter``: plain generated items
        (counter_halves.CounterHalves; h1 and h2 unused), each hashed in the pass (counter_flips.py)."""
        if m != self._m:
            raise ValueError(f"these probe bits were mapped for m = {self._m}, not {m}")
        if counter is None:
            h1 = np.ascontiguousarray(h1, dtype=np.uint64)
            h2 = np.ascontiguousarray(h2, dtype=np.uint64)
        n = h1.size if counter is None else counter.count
        new_per_row = np.empty(n, dtype=np.int64)
        if self._fresh.size < n * k + 1:      # kept between batches: a new one would fault its pages in
            self._fresh = _fresh_buffer(n * k + 1)
        view = _checked_view(view, m)
        if counter is None:
            _set_halves(view, h1, h2, m, _mode(m), k, _halves_ahead(m, k), new_per_row, self._fresh)
        else:
            from bloomviz.measure.counter_flips import set_counter
            set_counter(view, counter, m, _mode(m), k, _halves_ahead(m, k), new_per_row, self._fresh)
        # A probe bit can only have turned in this batch if it was 0 before it and is 1 now: the probe bits
        # not yet seen set are read once (fewer as the filter fills), and only the few that turned are looked
        # for among the positions that turned (cheaper than checking every turned position against the map
        # of all probe bits: 120 -> ~50 ns an item at m = 2^32, k = 20, the filter empty).
        turned = np.empty(self._candidates.size, dtype=np.int64)
        kept, count = _turned(view, self.distinct, self._candidates, turned)
        self._candidates = self._candidates[:kept]
        return new_per_row, np.sort(turned[:count])          # distinct is sorted: so are these bits

    def rows_of(self, slots: np.ndarray, new_per_row: np.ndarray) -> np.ndarray:
        """After ``set_halves``: the row that turned each of ``slots`` (sorted, of the bits it turned), in
        ``flip_rows``'s second array (-1 elsewhere; ``turned`` names them)."""
        bit_time = self._fresh_times()
        count = slots.size
        if count:
            if self._exact:     # many turn a batch in so small a filter (~3,000 of 2^16 items at 9.6 x 10^6 bits)
                if not self._small.size:
                    self._small = np.zeros(1 << (MAP_MAX_BITS - 3), dtype=np.uint8)
                if self._slot_keys.size < table_size(count):
                    self._slot_keys = np.full(table_size(count), -1, dtype=np.int64)
                    self._slot_values = np.empty(self._slot_keys.size, dtype=np.int64)
                fresh_rows(self._fresh, new_per_row, self.distinct[slots], slots, bit_time, self._small,
                           map_bits(count), self._slot_keys, self._slot_values)
            else:
                _first_fresh(self._fresh, new_per_row, self.distinct[slots], slots, bit_time)
            self._turned[:count] = slots
            self._noted = count
        return bit_time
