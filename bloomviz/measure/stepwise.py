"""Measured after each step only: the probes tested at the end of a step, one row per step (``exact`` False).

How a measurement follows a filter when no exact tracker fits it (a filter of no class in
``pipeline.TRACKING``: every probe is asked, ``ProbedAfterEachStep``), or when the caller wants the count
after each step only (``per_insert=False``: a bit array then sets the chunk's positions as they are and tests
its probes' positions, hashed once, ``BitsAfterEachStep``; the explorer's k sweep reads only the last count).
Each answers what the exact trackers answer (``fp_count``, ``insert(flt, chunk)``, ``after_add``,
``rebuild``, ``prepare``), so the measurement never asks which it holds.
"""

from __future__ import annotations

import numpy as np

from bloomviz.filters import rows as filter_rows


class BitsAfterEachStep:
    """A bit array measured only after each step: the chunk's positions set as they are, the probes' positions
    (hashed once) tested at the end of the step."""

    exact = False
    positions_alone = True

    def __init__(self, flt, probes):
        self._positions = flt.positions_many(probes) if len(probes) else None
        self.rebuild(flt)

    def rebuild(self, flt) -> None:
        hit = filter_rows.test_rows(flt, self._positions) if self._positions is not None else ()
        self.fp_count = int(np.count_nonzero(hit))

    def prepare(self) -> None:
        """Nothing to build ahead of a batch (``FpTracker.prepare``)."""

    def insert(self, flt, chunk) -> tuple[np.ndarray, np.ndarray]:
        filter_rows.insert_rows(flt, chunk.positions(flt))
        self.rebuild(flt)
        return np.array([self.fp_count], np.int64), np.array([flt.bits_set], np.int64)

    def after_add(self, flt, ins) -> int:
        self.rebuild(flt)
        return self.fp_count


class ProbedAfterEachStep:
    """No tracker fits: every probe is tested after each step (one row per step)."""

    exact = False
    positions_alone = False

    def __init__(self, flt, probes):
        self._probes = list(probes)
        self.rebuild(flt)

    def rebuild(self, flt) -> None:
        self.fp_count = int(np.count_nonzero(flt.contains_many(self._probes))) if self._probes else 0

    def prepare(self) -> None:
        """Nothing to build ahead of a batch (``FpTracker.prepare``)."""

    def insert(self, flt, chunk) -> tuple[np.ndarray, np.ndarray]:
        flt.update(chunk.items())
        self.rebuild(flt)
        return np.array([self.fp_count], np.int64), np.array([flt.bits_set], np.int64)

    def after_add(self, flt, ins) -> int:
        self.rebuild(flt)
        return self.fp_count
