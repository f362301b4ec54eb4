"""Ground truth: what was really inserted, so that every lookup is classified exactly; one insert writes here.

The truth is what an insert leaves behind besides the filter: its item, in an ``ItemLog``, and its row of k
positions, in ``PositionRows`` (4 bytes a position while m < 2^32), kept in insertion order; and how to tell a
member from a false positive (``copies``, ``member``). "Was this inserted?" is one vectorised scan of the rows
and "which items set bit i" another (``truth.culprits``, culprits.py), on demand (~10-20 ms at 10^7 inserts).

Auto-played generated items are kept as runs (generator, start, stop), in both: as items, not as strings (read
back by index when a scan names them), and as rows, made when a scan first reads them; "was this inserted?"
asks the run itself (its generator reads an item's digits back), so only "which items set bit i" makes them.
A filter whose k is not fixed (a scalable filter: each stage has its own) keeps a count of the items' bytes
instead, and the rows of each stage are computed when first asked for.
"""

from __future__ import annotations

import copy
import weakref
from bisect import bisect_right
from typing import Callable, Iterable, Iterator, Sequence

import numpy as np

from bloomviz import small_pages
from bloomviz.filters.generated_positions import positions as generated_positions
from bloomviz.items.encoding import to_bytes, to_bytes_list
from bloomviz.items.generated import GeneratedRun
from bloomviz.measure.verdicts import ForcedRemoval
from bloomviz.unique_ints import sorted_unique
from bloomviz.workbench.culprits import Culprits

MAKE_CHUNK = 1 << 16        # deferred rows made per step (a bounded temporary, not one of the whole run)


class Truth:
    """The items inserted into one filter, in order, and how to tell a member from a false positive."""

    def __init__(self, flt):
        self.flt = flt
        self.fixed_k = bool(flt.capabilities.sized)
        dtype = np.uint32 if flt.m <= 1 << 32 else np.int64
        # the rows reach back to this truth weakly (_RunRows): a bound method made a cycle, so a replaced filter
        # was freed only by the cyclic collector, which the window runs on a timer that never sees what existed
        # before its event loop started (gui/gui_thread_gc.py): a filter made then stayed for the whole session
        self.rows = PositionRows(flt.k, dtype, _RunRows(self)) if self.fixed_k else None
        self.items = ItemLog()
        # Without stored positions membership needs the items' bytes, counted: going back (undo, a failed job)
        # takes the later inserts' counts off instead of copying the whole table at every operation.
        self.keys: dict[bytes, int] | None = None if self.fixed_k else {}
        self.removed: dict[bytes, int] = {}           # removals of inserted items, per item (counting)
        self.forced: list[ForcedRemoval] = []         # forced removals, in order: what a false negative names
        # removals after which the bits are no longer those of the members inserted afresh (forced, or a
        # saturated counter left standing): the n-insert formula stops describing the filter
        self.distorting = 0
        # the plot row of the first such removal: the rows before it are still n inserts into a fresh filter
        self.distorted_row: int | None = None
        self.known = True                             # False: a filter loaded without its items
        self.stage_rows: dict[int, np.ndarray] = {}   # per stage of a growing filter, made by a scan (culprits)

    def remember(self, items: Sequence[object], datas: Sequence[bytes] | None, positions) -> None:
        """Note inserts: ``items`` (a list, or a ``GeneratedRun``), their bytes (needed only without fixed k)
        and their rows of positions (None for a run: made from it when first read)."""
        if self.keys is not None:
            keys = self.keys
            for data in datas:
                keys[data] = keys.get(data, 0) + 1
        self.items.extend(items)
        if self.rows is not None:
            if positions is not None:
                self.rows.extend(positions)
            elif isinstance(items, GeneratedRun):
                self.rows.defer(items)

    @property
    def culprits(self) -> Culprits:
        """Who set a bit, who tests negative: scans of these rows, made when asked (culprits.py). Made for each
        question, not kept: it holds the truth, and a truth that held it would be a cycle (see ``_RunRows``)."""
        return Culprits(self)

    def reserve(self, extra: int) -> None:
        if self.rows is not None:
            self.rows.reserve(extra)

    def nbytes(self) -> int:
        """About what the truth holds in memory (for the undo stack's budget)."""
        rows = self.rows.nbytes if self.rows is not None else 0
        return rows + 80 * self.items.typed_count + (100 * len(self.keys) if self.keys is not None else 0)

    def cut(self, items: int, positions: int, removed: dict, forced: int | None = None,
            distorting: int | None = None) -> None:
        """Back to an earlier length (a rollback)."""
        if self.keys is not None:
            for data in to_bytes_list(self.items[items:]):
                left = self.keys[data] - 1
                if left:
                    self.keys[data] = left
                else:
                    del self.keys[data]
        self.items.cut(items)
        if self.rows is not None:
            self.rows.truncate(positions)
        self.removed = dict(removed)
        if forced is not None:
            del self.forced[forced:]
        if distorting is not None:
            self.distorting = distorting
            if not distorting:
                self.distorted_row = None
        self.stage_rows = {}

    def member(self, data: bytes, positions=None) -> bool:
        """Was ``data`` inserted (and not removed since)?"""
        inserted, removed = self.copies(data, positions)
        return inserted > removed   # a counting filter's removals take inserts back

    def copies(self, data: bytes, positions=None) -> tuple[int, int]:
        """How often ``data`` was inserted, and how many of those inserts removals took back. The stored rows
        narrow it to a few candidates, compared exactly. (A Python set of a million items would cost ~100 MB and
        stall the event loop for ~50 ms each time it grows; a scan of the positions costs a few milliseconds per
        lookup.)"""
        removed = self.removed.get(data, 0)
        if self.keys is not None:
            return self.keys.get(data, 0), removed
        made, deferred = self.rows.rows_made()
        inserted = 0
        if made:
            dtype = made[0][1].dtype
            pos = np.asarray(positions if positions is not None else self.flt.positions(data), dtype=dtype)
            # one column first (a contiguous-enough pass), the whole row only for its few matches: 10 ms at 10^7
            # inserts where comparing every row whole took 200
            found = []
            for first, rows in made:
                candidates = np.flatnonzero(rows[:, 0] == pos[0])
                found.append(candidates[(rows[candidates] == pos).all(axis=1)] + first)
            found = np.concatenate(found)
            if found.size:     # (mostly none: a first insert of the item)
                inserted = sum(1 for item in self.items.take(found) if to_bytes(item) == data)
        for _, run in deferred:     # a run's rows not made yet: the run knows its items
            index = run.items.index_of(data)
            inserted += index is not None and run.start <= index < run.stop
        return inserted, removed


class _RunRows:
    """A run's rows of positions, as its insert computed them (filters.generated_positions), from the filter of
    the truth it is handed, held weakly (no cycle through the rows). A deep copy of the truth (a lesson keeps
    one per step) gets one over the copy: a weak reference alone would be copied as it is, to the original."""

    def __init__(self, truth: Truth):
        self._truth = weakref.ref(truth)

    def __call__(self, run: GeneratedRun) -> np.ndarray:
        return generated_positions(self._truth().flt, run.items, run.start, run.stop)

    def __deepcopy__(self, memo) -> "_RunRows":
        return _RunRows(copy.deepcopy(self._truth(), memo))    # (the truth being copied: its copy, from memo)


class ItemLog(Sequence):
    """Every insert into the filter, in order: typed items as given, generated runs as (generator, start, stop).

    A list of ten million auto-played strings cost ~80 bytes an insert and a garbage-collector pause of ~100 ms
    when it was freed; a run of generated items (``items.generated.GeneratedRun``) is three numbers however long it
    is. ``ItemLog`` reads as the list of items it stands for (indexing, slicing, iteration, ``==`` with a list):
    the strings of a run are made only when they are read.
    """

    def __init__(self) -> None:
        self._parts: list[list | GeneratedRun] = []   # a list of typed items, or a run; never two lists in a row
        self._starts: list[int] = []                  # the log index of each part's first item
        self._len = 0

    def __len__(self) -> int:
        return self._len

    # --- growing and cutting ---------------------------------------------------------------------------------
    def extend(self, items: Iterable[object]) -> None:
        last = self._parts[-1] if self._parts else None
        if isinstance(items, GeneratedRun):
            if not len(items):
                return
            if isinstance(last, GeneratedRun) and items.follows(last):
                self._parts[-1] = GeneratedRun(last.items, last.start, items.stop)
            else:
                self._starts.append(self._len)
                self._parts.append(GeneratedRun(items.items, items.start, items.stop))
            self._len += len(items)
            return
        items = list(items)
        if not items:
            return
        if isinstance(last, list):
            last.extend(items)
        else:
            self._starts.append(self._len)
            self._parts.append(items)
        self._len += len(items)

    def cut(self, length: int) -> None:
        """Keep the first ``length`` inserts (a rollback)."""
        length = max(0, min(int(length), self._len))
        while self._parts and self._starts[-1] >= length:
            self._parts.pop()
            self._starts.pop()
        if self._parts:
            keep = length - self._starts[-1]
            last = self._parts[-1]
            if isinstance(last, GeneratedRun):
                self._parts[-1] = GeneratedRun(last.items, last.start, last.start + keep)
            else:
                del last[keep:]
        self._len = length

    # --- reading ---------------------------------------------------------------------------------------------
    def runs(self) -> list[GeneratedRun]:
        """The generated runs in the log."""
        return [p for p in self._parts if isinstance(p, GeneratedRun)]

    def typed(self) -> Iterator[object]:
        """The items that are not in a generated run, in order."""
        for part in self._parts:
            if not isinstance(part, GeneratedRun):
                yield from part

    @property
    def typed_count(self) -> int:
        return sum(len(p) for p in self._parts if not isinstance(p, GeneratedRun))

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(self._len)
            if step != 1:
                return self.take(np.arange(start, stop, step, dtype=np.int64))
            out: list = []
            if stop <= start:
                return out
            part = bisect_right(self._starts, start) - 1
            while part < len(self._parts) and self._starts[part] < stop:
                first = self._starts[part]
                out.extend(self._parts[part][max(0, start - first): stop - first])
                part += 1
            return out
        index = int(index)
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError(f"insert {index} of {self._len}")
        part = bisect_right(self._starts, index) - 1
        return self._parts[part][index - self._starts[part]]

    def pieces(self, start: int, stop: int) -> list:
        """Inserts start…stop-1 as they are kept: lists of typed items, and generated runs as runs (no strings)."""
        out: list = []
        part = bisect_right(self._starts, start) - 1
        while 0 <= part < len(self._parts) and self._starts[part] < stop:
            first, src = self._starts[part], self._parts[part]
            lo, hi = max(0, start - first), min(len(src), stop - first)
            if hi > lo:
                out.append(GeneratedRun(src.items, src.start + lo, src.start + hi) if isinstance(src, GeneratedRun)
                           else list(src[lo:hi]))
            part += 1
        return out

    def take(self, indices: Sequence[int]) -> list:
        """The items at ``indices`` (log indices, in any order), each run's strings made in one numpy pass."""
        idx = np.asarray(indices, dtype=np.int64).ravel()
        if idx.size and (idx.min() < -self._len or idx.max() >= self._len):
            raise IndexError(f"insert indices must be in [0, {self._len})")
        idx = np.where(idx < 0, idx + self._len, idx)
        out: list = [None] * idx.size
        which = np.searchsorted(np.asarray(self._starts, dtype=np.int64), idx, side="right") - 1
        for part in sorted_unique(which).tolist():
            at = np.flatnonzero(which == part)
            offsets = idx[at] - self._starts[part]
            src = self._parts[part]
            got = src.texts_at(offsets) if isinstance(src, GeneratedRun) else [src[o] for o in offsets.tolist()]
            for i, item in zip(at.tolist(), got):
                out[i] = item
        return out

    def __iter__(self) -> Iterator[object]:
        for part in self._parts:
            yield from part

    def __eq__(self, other) -> bool:
        if isinstance(other, (ItemLog, list, tuple)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None   # mutable, like the list it stands for

    def __repr__(self) -> str:
        return f"ItemLog({self._len} inserts: {self.typed_count} typed, {len(self.runs())} generated runs)"


class PositionRows:
    """A growable (n, k) integer array, some of whose rows may be generated runs' still to be made: the
    positions of every insert into a filter of fixed k, one row of k per insert, in insertion order.

    A generated run's rows (auto-play's random items) are not written when the run is inserted: they are a function
    of the run (``filters.generated_positions``), so the rows keep the run in their place (``defer``) and make its
    positions when a scan first reads them (``view``): the same numbers the insert used, computed once. Auto-play
    of 10^6 items then neither writes 28 MB of rows nor faults their pages in (about 10 ns an insert of the 140 ns
    the model's auto-play takes); a person who never asks which items set a bit never pays for them, and the first
    scan pays ~45 ns per deferred row once (~45 ms at 10^6 inserts, ~0.5 s at 10^7). Membership needs none of it:
    a deferred run answers ``index_of`` by reading an item's digits back (``rows_made`` gives the rows that exist).
    The window does not leave that first scan to the first hover: once no job runs it makes them a slice per idle
    turn of its event loop (``make_some``, driven by gui/workbench.py), so a scan finds them made, or few left.
    """

    def __init__(self, k: int, dtype, make: Callable[[GeneratedRun], np.ndarray] | None = None):
        self._k = k
        self._data = np.empty((1024, k), dtype=dtype)
        self._len = 0
        self._make = make                               # a run's rows, as the insert computed them
        self._deferred: list[tuple[int, GeneratedRun]] = []   # (first row, run), in order, not yet made

    def __len__(self) -> int:
        return self._len

    @property
    def nbytes(self) -> int:
        """The bytes of every row, the deferred ones counted as made (they will be, when read)."""
        return self._len * self._k * self._data.itemsize

    def reserve(self, extra: int) -> None:
        need = self._len + extra
        if need > self._data.shape[0]:
            # small pages: the idle turns that make a run's rows write them in order, and a huge page's first
            # write (6-22 ms of CPU) fell in one of those turns every ninth (small_pages.py)
            grown = small_pages.empty((max(need, 2 * self._data.shape[0]), self._k), self._data.dtype)
            grown[: self._len] = self._data[: self._len]
            self._data = grown

    def extend(self, rows: np.ndarray) -> None:
        rows = np.asarray(rows).reshape(-1, self._k)
        need = self._len + rows.shape[0]
        if need > self._data.shape[0]:
            self.reserve(rows.shape[0])
        self._data[self._len: need] = rows
        self._len = need

    def defer(self, run: GeneratedRun) -> None:
        """The run's rows come next; they are made when first read."""
        if self._make is None:
            raise ValueError("these rows cannot make a run's positions: give them as rows")
        if not len(run):
            return
        self.reserve(len(run))
        if self._deferred:
            first, last = self._deferred[-1]
            if first + len(last) == self._len and run.follows(last):     # one run, chunk after chunk
                self._deferred[-1] = (first, GeneratedRun(last.items, last.start, run.stop))
                self._len += len(run)
                return
        self._deferred.append((self._len, run))
        self._len += len(run)

    @property
    def deferred_rows(self) -> int:
        """How many rows are still to be made."""
        return sum(len(run) for _, run in self._deferred)

    def make_some(self, rows: int = MAKE_CHUNK) -> bool:
        """Make up to ``rows`` deferred rows, the first ones first; True while some are still to be made."""
        while rows > 0 and self._deferred:
            first, run = self._deferred[0]
            take = min(rows, len(run))
            self._data[first: first + take] = self._make(GeneratedRun(run.items, run.start, run.start + take))
            if take == len(run):
                self._deferred.pop(0)
            else:
                self._deferred[0] = (first + take, GeneratedRun(run.items, run.start + take, run.stop))
            rows -= take
        return bool(self._deferred)

    def view(self) -> np.ndarray:
        """Every row (the deferred ones made now)."""
        for first, run in self._deferred:
            for a in range(0, len(run), MAKE_CHUNK):
                b = min(len(run), a + MAKE_CHUNK)
                self._data[first + a: first + b] = self._make(GeneratedRun(run.items, run.start + a, run.start + b))
        self._deferred = []
        return self._data[: self._len]

    def rows_made(self) -> tuple[list[tuple[int, np.ndarray]], list[tuple[int, GeneratedRun]]]:
        """Without making any: the stretches of rows that exist, as (first row, rows), and the deferred runs,
        as (first row, run)."""
        made, at = [], 0
        for first, run in self._deferred:
            if first > at:
                made.append((at, self._data[at:first]))
            at = first + len(run)
        if self._len > at:
            made.append((at, self._data[at:self._len]))
        return made, list(self._deferred)

    def truncate(self, rows: int) -> None:
        self._len = min(self._len, rows)
        kept = []
        for first, run in self._deferred:
            if first < self._len:
                kept.append((first, GeneratedRun(run.items, run.start, min(run.stop, run.start + self._len - first))))
        self._deferred = kept
