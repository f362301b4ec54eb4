"""The live measurement of one filter: the probes, the exact tracker and the one false-positive count.

Probes are items that are not members; the rate measured after every insert is the share of them the filter
passes. ``FpTracker`` follows it exactly and incrementally over one bit array, the stage-wise tracker over a
growing filter's stages; a filter with neither (no plain bit array) tests every probe after each operation.
Whichever is used, ``fp_count`` is the one place the count is read.
"""

from __future__ import annotations

import itertools
from typing import Iterable

import numpy as np

from bloomviz.items.encoding import random_items, to_bytes_list
from bloomviz.measure.experiment import FpTracker

DEFAULT_PROBES = 10_000
DEFAULT_SEED = 0


def has_bits(flt) -> bool:
    try:
        return flt.bits is not None and hasattr(flt, "insert_positions")
    except AttributeError:
        return False


class Measurement:
    def __init__(self, flt, count: int = DEFAULT_PROBES, seed: int = DEFAULT_SEED,
                 exclude: Iterable[object] = ()):
        self.count = int(count)
        self.seed = int(seed)
        self.draw(flt, exclude)

    def draw(self, flt, exclude: Iterable[object] = ()) -> None:
        """A fresh probe set from ``seed`` (excluding ``exclude``), measured against ``flt`` as it is now."""
        self.probes = random_items(self.count, seed=self.seed, prefix="p", exclude=exclude)
        self.keys = set(to_bytes_list(self.probes))
        self.attach(flt)

    def attach(self, flt) -> None:
        """Measure the same probes on ``flt`` (a new filter object, or one whose bits went back)."""
        self.flt = flt
        if not flt.sized:
            from bloomviz.measure.tracking import ScalableFpTracker
            self.tracker = ScalableFpTracker(flt, self.probes)
        else:
            self.tracker = FpTracker(flt, self.probes) if has_bits(flt) else None
        self._brute = self._count() if self.tracker is None else 0

    def redraw_excluding(self, items: Iterable[object], extra: Iterable[bytes]) -> None:
        # A probe that becomes a member is no longer a fair probe: draw a new probe set that excludes the truth
        # and the items about to be inserted, and measure it against the current bits.
        self.seed += 1
        self.draw(self.flt, itertools.chain(items, extra))

    def _count(self) -> int:
        return int(np.count_nonzero(self.flt.contains_many(self.probes))) if self.probes else 0

    @property
    def fp_count(self) -> int:
        return self.tracker.fp_count if self.tracker is not None else self._brute

    @property
    def rate(self) -> float:
        return self.fp_count / len(self.probes) if self.probes else 0.0

    # --- following the filter ----------------------------------------------------------------------------
    def after_insert(self, ins, newly) -> int:
        """The count after one insert (``newly``: the positions it set)."""
        if not self.flt.sized:
            return self.tracker.on_insertion(ins)
        if self.tracker is not None:
            return self.tracker.on_insert(newly)
        self._brute = self._count()
        return self._brute

    def after_removal(self, cleared) -> int:
        if self.tracker is None:
            self._brute = self._count()
        elif cleared:
            self.tracker.rebuild(self.flt)   # bits went 1 -> 0: probes may have stopped passing
        return self.fp_count

    def after_update(self) -> int:
        """The count after a batch went in without the tracker (a filter with no plain bit array)."""
        self._brute = self._count()
        return self._brute
