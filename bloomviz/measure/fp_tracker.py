"""The exact false-positive count of one bit array over a fixed probe set, after every insert.

A fixed set of probes (items known not to be members) is kept. For each probe the tracker knows how many of its
distinct k positions are still 0, and an inverted index bit -> probes. When an insert turns a bit from 0 to 1,
the probes on that bit lose one zero; a probe with no zero left has become a false positive. The measured rate
after every insert is therefore exact for the probe set, at a total cost of O(k * (n + probes)).

The batch path gets the same numbers vectorised: for each bit, the insert at which it first turns 1; a probe
becomes a false positive at the latest such time among its positions; a cumulative count of those times gives
the false-positive count after every insert (first_flips.py finds those times).
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from bloomviz.filters import capabilities
from bloomviz.filters import rows as filter_rows
from bloomviz.filters import bitstore
from bloomviz.hashing import cold_paths, native_kernels
from bloomviz.measure import cold_flips
from bloomviz.measure.counter_halves import CounterHalves
from bloomviz.theory.intervals import wilson_interval


class ProbeCounts:
    """What every tracker answers the same way from its probes and its ``fp_count``."""

    _probes: list

    @property
    def probes(self) -> list:
        return self._probes

    @property
    def probe_count(self) -> int:
        return len(self._probes)

    @property
    def rate(self) -> float:
        return self.fp_count / len(self._probes) if self._probes else 0.0

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        return wilson_interval(self.fp_count, len(self._probes), z)


class FpTracker(ProbeCounts):
    """The exact count over one bit array (the module's note); also how a measurement follows such a filter
    (``pipeline.TRACKING``): ``insert(flt, chunk)`` for a step, ``after_add(flt, insertion)`` for one ``add``."""

    exact = True               # a row after every insert
    positions_alone = True     # a batch is measured from its rows of positions (items that exist only as numbers)

    def __init__(self, flt, probes: Sequence[object]):
        self._probes = list(probes)
        self._k = flt.k
        self._positions = flt.positions_many(self._probes)  # (P, k), fixed for the filter's m, k, scheme
        self.rebuild(flt)

    # --- state ---------------------------------------------------------------------------------------------
    def rebuild(self, flt) -> None:
        """Recompute every probe's zero count from the filter's bits (after a load, a clear, a removal...)."""
        count = len(self._probes)
        positions = np.asarray(self._positions, dtype=np.int64)
        # The inverted index bit -> probes, one entry per (bit still 0, probe), sorted by bit, then by probe.
        # As one sort of bit * P + probe, which also brings a probe's repeated positions together to be dropped
        # (a stable argsort of the bits took 22 against 6 ms for 10^4 probes at k = 7; sorting each probe's
        # row first, 10^4 sorts of 7, took as long as this whole sort)
        if positions.size and (len(flt.bits) + 1) * max(count, 1) < 1 << 62:
            key = (positions * np.int64(count) + np.arange(positions.shape[0], dtype=np.int64)[:, None]).ravel()
            key.sort()
            if key.size > 1:
                key = key[np.concatenate(([True], key[1:] != key[:-1]))]
            entry_pos = key // count
            entry_probe = key - entry_pos * count
        else:
            pos = np.sort(positions, axis=1)
            distinct = np.ones(pos.shape, dtype=bool)
            distinct[:, 1:] = pos[:, 1:] != pos[:, :-1]
            probe_ids = np.broadcast_to(np.arange(pos.shape[0])[:, None], pos.shape)[distinct]
            order = np.argsort(pos[distinct], kind="stable")
            entry_pos, entry_probe = pos[distinct][order], probe_ids[order]
        # (an empty filter's bits are not read: a new filter's pages are not yet in memory, and reading them
        # faulted each one in before the first batch faulted it again to write, ~1-10 ms a new window filter)
        if flt.bits_set and entry_pos.size:
            zero = bitstore.test_bits(flt.bits, entry_pos) == 0
            entry_pos, entry_probe = entry_pos[zero], entry_probe[zero]
        self._entry_pos = entry_pos.astype(np.int64, copy=False)    # one type for the compiled pass
        self._entry_probe = entry_probe.astype(np.int64, copy=False)
        self._zeros = np.bincount(self._entry_probe, minlength=count).astype(np.int64)
        # The probe bits (slots of the flip pass) and each one's entries, start[s] to start[s + 1]: the entries
        # stay until the next rebuild, and a bit once seen set is no longer followed (``_live``). The pass's map
        # is built by compiled code (numba), so it is built on the first batch: a window that has made no
        # batch insert yet (its first paint) never loads numba for it.
        first = np.ones(self._entry_pos.size, dtype=bool)
        first[1:] = self._entry_pos[1:] != self._entry_pos[:-1]
        self._probe_distinct = self._entry_pos[first]
        self._slot_start = np.append(np.flatnonzero(first), self._entry_pos.size).astype(np.int64)
        self._live = np.ones(self._probe_distinct.size, dtype=bool)
        self._latest = np.full(count, -1, dtype=np.int64)      # the accounting's scratch, one per probe
        self._touched = np.empty(count, dtype=np.int64)
        self._probe_m = len(flt.bits)
        self._probe_bits = None
        self._probe_slots = None        # the probe -> probe bits index (_by_probe), made when first needed
        self._stale = False             # bits a single insert set: on_insert counted them, no pass may again
        self._fp = int(np.count_nonzero(self._zeros == 0))

    @property
    def fp_count(self) -> int:
        return self._fp

    def false_positive_probes(self) -> list:
        return [self._probes[i] for i in np.flatnonzero(self._zeros == 0)]

    def probe_zero_counts(self) -> np.ndarray:
        return self._zeros.copy()

    # --- updates -------------------------------------------------------------------------------------------
    def on_insert(self, newly_set: Iterable[int]) -> int:
        """Account for bits that one insert turned from 0 to 1 (each such bit exactly once)."""
        self._stale = True
        for p in newly_set:
            lo = np.searchsorted(self._entry_pos, p, "left")
            hi = np.searchsorted(self._entry_pos, p, "right")
            if lo == hi:
                continue
            hit = self._entry_probe[lo:hi]
            self._zeros[hit] -= 1
            self._fp += int(np.count_nonzero(self._zeros[hit] == 0))
        return self._fp

    def after_add(self, flt, insertion) -> int:
        """A measurement's one ``flt.add`` that has just happened: its fresh bits accounted for; the new count."""
        return self.on_insert([p for p, fresh in zip(insertion.positions, insertion.newly_set) if fresh])

    def insert(self, flt, chunk) -> tuple[np.ndarray, np.ndarray]:
        """A measurement's step (a ``streams.Chunk``) inserted into ``flt``: (fp count, bits set) after every
        insert. Items given by their hash halves go by them, and so do a big filter's generated items (no
        n x k array); others by positions."""
        halves = chunk.given_halves
        if halves is None and flt.m >= self.HALVES_MIN_M:
            halves = chunk.halves(flt)
        if isinstance(halves, CounterHalves):
            return self.insert_halves(None, None, flt, halves)
        if halves is not None:
            return self.insert_halves(*halves, flt)
        return self.insert_batch(chunk.positions(flt), flt)

    def insert_batch(self, positions: np.ndarray, flt) -> tuple[np.ndarray, np.ndarray]:
        """Insert the rows of ``positions`` into ``flt``; return (fp count, bits set) after every row.

        Exact: the same numbers ``on_insert`` would give one insert at a time. One compiled pass over the
        positions in insertion order sets the bits, counts each row's new bits (the array is not recounted)
        and notes when each probe bit turned (first_flips.ProbeBits.flip_rows).
        """
        positions = np.ascontiguousarray(positions, dtype=np.int64)
        n = positions.shape[0]
        bits_before = flt.bits_set
        if n == 0:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        self._drop_stale(flt)
        standard = not capabilities.of(flt).counting   # a counter filter inserts its own way
        view = bitstore.byte_view(flt.bits)
        if not standard:
            # a variant inserts its own way (counting) or remaps: the flips are found on a copy of its bits
            view = view.copy()
        flips = self._flip_rows(view, positions, len(flt.bits))
        if standard:
            filter_rows.count_fresh(flt, int(flips[0].sum()), n)
        else:
            filter_rows.insert_rows(flt, positions)
        return self._account(*flips, bits_before)

    # generated items go by their halves into filters of more bits than this (first_flips: the probe bits in a
    # hashed bitmap); a smaller filter's generated items by rows (the window's auto-play: its kernels are those
    # the native kernel cache holds)
    HALVES_MIN_M = (1 << 26) + 1

    def insert_halves(self, h1: np.ndarray | None, h2: np.ndarray | None, flt,
                      counter=None) -> tuple[np.ndarray, np.ndarray]:
        """``insert_batch`` for a plain filter of the murmur3-mix scheme, given its items' hash halves (h2
        forced odd): the positions are computed in the passes that use them (first_flips.flip_halves), never
        held as an n x k array. The same numbers. ``counter``: plain generated items (counter_halves.CounterHalves)
        instead of h1 and h2, hashed in the setting pass."""
        bits_before = flt.bits_set
        size = h1.size if counter is None else counter.count
        if size == 0:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        self._drop_stale(flt)
        view = bitstore.byte_view(flt.bits)
        if counter is not None and cold_paths.use_cold_path(size, *native_kernels.FLIP_HALVES,
                                                            native_kernels.SET_COUNTER):
            (h1, h2), counter = counter.arrays(), None
        if counter is None and cold_paths.use_cold_path(size, *native_kernels.FLIP_HALVES):   # rows, in numpy
            flips = self._flip_rows(view, cold_paths.mixed_rows(h1, h2, flt.m, flt.k), flt.m)
        else:
            probe_bits = self._flips()
            if probe_bits.exact:    # rows for the bits of the probes the batch completed alone (completions.py)
                new_per_row, turned = probe_bits.set_halves(view, h1, h2, flt.m, flt.k, counter)
                filter_rows.count_fresh(flt, int(new_per_row.sum()), size)
                return self._account_completed(probe_bits, new_per_row, turned, bits_before)
            flips = (*probe_bits.flip_halves(view, h1, h2, flt.m, flt.k, counter), probe_bits.turned)
        filter_rows.count_fresh(flt, int(flips[0].sum()), size)
        return self._account(*flips, bits_before)

    def _account_completed(self, probe_bits, new_per_row: np.ndarray, turned: np.ndarray, bits_before: int):
        """``_account`` after ``set_halves``: the turned bits taken off the probes' zero counts first, and the
        rows found only for the bits that turned of the probes left with none (a few a batch; finding a row
        for each of the ~3,000 probe bits a batch of 2^16 items turned at 9.6 x 10^6 bits cost ~10 ns an item)."""
        from bloomviz.measure.completions import complete, completion_rows, running_counts
        start, slots = self._by_probe()
        wanted = np.empty(turned.size, dtype=np.int64)
        counts = np.zeros(2, dtype=np.int64)
        complete(turned, self._slot_start, self._entry_probe, self._live, self._zeros, start, slots, self._mark,
                 self._completed, wanted, counts)
        done, count = int(counts[0]), int(counts[1])
        rows = np.empty(done, dtype=np.int64)
        if done:
            bit_time = probe_bits.rows_of(np.sort(wanted[:count]), new_per_row)
            completion_rows(self._completed[:done], start, slots, bit_time, rows)
            rows.sort()
        fp_after = np.empty(new_per_row.size, dtype=np.int64)
        running_counts(new_per_row, bits_before, rows, self._fp, fp_after)    # new_per_row: now the bits set
        self._fp = int(fp_after[-1])
        return fp_after, new_per_row

    def _by_probe(self) -> tuple[np.ndarray, np.ndarray]:
        """Each probe's slots (the probe bits it follows): probe p's are ``slots[start[p]:start[p + 1]]``."""
        if self._probe_slots is None:
            from bloomviz.measure.completions import by_probe
            start = np.zeros(len(self._probes) + 1, dtype=np.int64)
            np.cumsum(np.bincount(self._entry_probe, minlength=len(self._probes)), out=start[1:])
            slots = np.empty(self._entry_probe.size, dtype=np.int64)
            by_probe(self._slot_start, self._entry_probe, start[:-1].copy(), slots)
            self._probe_slots = (start, slots)
            self._mark = np.zeros(self._probe_distinct.size, dtype=np.uint8)     # complete()'s scratch
            self._completed = np.empty(len(self._probes), dtype=np.int64)
        return self._probe_slots

    def _drop_stale(self, flt) -> None:
        # Bits a single insert set are stale (on_insert accounted for them): they are followed no more, so
        # every followed bit a batch turns was 0 before it.
        if self._stale:
            followed = np.flatnonzero(self._live)
            self._live[followed[bitstore.test_bits(flt.bits, self._probe_distinct[followed]) != 0]] = False
        self._stale = False

    def _flip_rows(self, view: np.ndarray, positions: np.ndarray, m: int):
        """(bits each row turned, each probe bit's flip row, the probe bits holding one)."""
        # (first_flips.EXACT_MAX_M: the flips noted in the setting pass; above, in a second one)
        native = native_kernels.FLIPS if m <= (1 << 26) else (*native_kernels.FLIPS, native_kernels.FIRST_ROWS)
        if cold_paths.use_cold_path(positions.shape[0], *native):   # not waiting for the compiled code to load
            new_per_row, bit_time = cold_flips.flip_rows(view, positions, m, self._probe_distinct)
            return new_per_row, bit_time, np.flatnonzero(bit_time >= 0)
        probe_bits = self._flips()
        return (*probe_bits.flip_rows(view, positions, m), probe_bits.turned)

    @property
    def prepared(self) -> bool:
        """Whether the flip passes' probe-bit map is built (by ``prepare`` or by a batch since the last rebuild)."""
        return self._probe_bits is not None

    def prepare(self) -> None:
        """Build the probe bits' map for the flip passes now (``first_flips.ProbeBits``: 5-15 ms of CPU at 10^4
        probes) instead of inside the next batch, when a batch would take the compiled passes: a job does it in
        a step of its own, so that its first chunk's turn is not that much longer than the others."""
        native = native_kernels.FLIPS if self._probe_m <= (1 << 26) else (*native_kernels.FLIPS,
                                                                           native_kernels.FIRST_ROWS)
        if not cold_paths.use_cold_path(1, *native):
            self._flips()

    def _flips(self):
        if self._probe_bits is None:
            from bloomviz.measure.first_flips import ProbeBits     # compiled (numba): imported when first needed
            self._probe_bits = ProbeBits(self._probe_distinct, self._probe_m)
        return self._probe_bits

    def _account(self, new_per_row: np.ndarray, bit_time: np.ndarray, turned: np.ndarray, bits_before: int):
        """(fp count, bits set) after every row of a flip pass, from each row's new bits and the flip row of
        each probe bit that turned."""
        n = new_per_row.size
        # in place: the flip pass's arrays are this batch's own, and each n-sized temporary of a chunk is
        # fresh memory to fault in (a chunk of the window's auto-play made four more of them here)
        new_bits = np.cumsum(new_per_row, out=new_per_row)
        new_bits += bits_before

        if cold_paths.use_cold_path(n, native_kernels.ACCOUNT):
            account_turned = cold_flips.account_turned
        else:
            from bloomviz.measure.first_flips import account_turned
        becomes_fp = np.zeros(n, dtype=np.int64)
        account_turned(turned, bit_time, self._slot_start, self._entry_probe, self._live, self._zeros,
                       self._latest, self._touched, becomes_fp)
        fp_after = np.cumsum(becomes_fp, out=becomes_fp)
        fp_after += self._fp
        self._fp = int(fp_after[-1])
        return fp_after, new_bits

