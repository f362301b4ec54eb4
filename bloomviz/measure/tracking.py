"""Exact false-positive measurement for a scalable filter, stage by stage.

``FpTracker`` follows one bit array with fixed m and k. A scalable filter has several, and only the newest
changes: inserts go to the newest stage, older stages are full and frozen. A probe passes the scalable filter
when it passes ANY stage, so:

- a probe that passes a frozen stage is a false positive for good (``frozen``, a bool per probe);
- the remaining probes are followed by an ``FpTracker`` over the newest stage alone.

The count after any insert is ``frozen.sum() + tracker.fp_count``, exact, and a batch costs what
``FpTracker.insert_batch`` costs per stage. When a stage fills, the probes the tracker counts as false
positives join ``frozen`` and a new tracker starts on the next stage over the probes still negative. Testing
every probe against every stage after each chunk (the fallback this replaces) cost O(probes · stages) per
chunk; benchmarks/bench_variants.py measures the two.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from bloomviz.filters.stages import NewestStage
from bloomviz.measure.fp_tracker import FpTracker, ProbeCounts
from bloomviz.items.encoding import to_bytes_list


class ScalableFpTracker(ProbeCounts):
    """The false-positive count of a ``ScalableBloomFilter`` over fixed probes, exact after every insert; also
    how a measurement follows such a filter (``pipeline.TRACKING``, as ``FpTracker`` for one bit array)."""

    exact = True
    positions_alone = False    # a new stage hashes the items again with its own m and k

    def __init__(self, flt, probes: Sequence[object]):
        self._probes = list(probes)
        self._datas = to_bytes_list(self._probes)
        self.rebuild(flt)

    # --- state ---------------------------------------------------------------------------------------------
    def rebuild(self, flt) -> None:
        """Recompute from the filter as it is (after a load, a rollback...)."""
        self._flt = flt
        frozen = np.zeros(len(self._probes), dtype=bool)
        for stage in flt.stages[:-1]:
            if len(self._probes):
                frozen |= stage.contains_many(self._datas)
        self._frozen = frozen
        self._start_newest()

    def prepare(self) -> None:
        """What the next batch's measurement needs, built now (``FpTracker.prepare``): the newest stage's."""
        self._tracker.prepare()

    def _start_newest(self) -> None:
        self._open = np.flatnonzero(~self._frozen)    # probes the newest stage's tracker follows
        stage = self._flt.stages[-1]
        self._stage_k = stage.k
        self._tracker = FpTracker(stage, [self._datas[i] for i in self._open])

    def _freeze_newest(self) -> None:
        """The newest stage is full: its false positives stay false positives."""
        fp = self._tracker.probe_zero_counts() == 0
        self._frozen[self._open[fp]] = True

    @property
    def fp_count(self) -> int:
        return int(np.count_nonzero(self._frozen)) + self._tracker.fp_count

    def false_positive_probes(self) -> list:
        mask = self._frozen.copy()
        mask[self._open[self._tracker.probe_zero_counts() == 0]] = True
        return [self._probes[i] for i in np.flatnonzero(mask)]

    # --- updates -------------------------------------------------------------------------------------------
    def on_insertion(self, insertion) -> int:
        """Account for one ``flt.add`` that has just happened (a ``StageInsertion``); returns the new count."""
        if insertion.new_stage:
            # The stage before is full and unchanged since the tracker last saw it; the new stage already holds
            # this insert, and a fresh tracker reads it from the bits.
            self._freeze_newest()
            self._start_newest()
        else:
            local = [p for p, fresh in zip(insertion.local_positions, insertion.newly_set) if fresh]
            self._tracker.on_insert(local)
        return self.fp_count

    def after_add(self, flt, insertion) -> int:
        """A measurement's one ``flt.add`` (``on_insertion``)."""
        return self.on_insertion(insertion)

    def insert(self, flt, chunk) -> tuple[np.ndarray, np.ndarray]:
        """A measurement's step (a ``streams.Chunk``): its items inserted stage by stage (``insert_items``)."""
        return self.insert_items(to_bytes_list(chunk.items()))

    def insert_items(self, datas: Sequence[bytes]) -> tuple[np.ndarray, np.ndarray]:
        """Insert the items (bytes) into the filter stage by stage; return (fp count, bits set in all stages)
        after every insert. Raises ValueError before changing anything when a stage could not be opened."""
        flt = self._flt
        n = len(datas)
        fp = np.empty(n, dtype=np.int64)
        bits = np.empty(n, dtype=np.int64)
        newest = NewestStage(flt)
        newest.check_growth(n)  # a stage beyond the limits raises here, before any insert
        done = 0
        while done < n:
            if newest.room() == 0:
                self._freeze_newest()
                newest.open_next()
                self._start_newest()
            stage = newest.stage
            take = min(newest.room(), n - done)
            older_bits = flt.bits_set - stage.bits_set
            pos = stage.positions_many(datas[done:done + take])
            stage_fp, stage_bits = self._tracker.insert_batch(pos, newest)
            fp[done:done + take] = stage_fp + np.count_nonzero(self._frozen)
            bits[done:done + take] = stage_bits + older_bits
            done += take
        return fp, bits
