"""The positions of every insert into a filter of fixed k, one row of k per insert, in insertion order.

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

from __future__ import annotations

from typing import Callable

import numpy as np

from bloomviz.items.generated import GeneratedRun

MAKE_CHUNK = 1 << 16        # deferred rows made per step (a bounded temporary, not one of the whole run)


class PositionRows:
    """A growable (n, k) integer array, some of whose rows may be generated runs' still to be made."""

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
            grown = np.empty((max(need, 2 * self._data.shape[0]), self._k), dtype=self._data.dtype)
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
