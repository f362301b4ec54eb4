"""A scalable filter's stages, as objects handed to those who read or fill them, so that the filter's own public
API stays set-like (scalable.py):

- ``Stages`` (``flt.stages``): the stage filters, oldest first, with each stage's size (``specs``), where its
  bits start in the concatenated grid (``offsets``), its k (``ks``) and which stage holds a grid bit;
- ``NewestStage(flt)``: the newest stage as the exact measurement fills it (measure/tracking.py): its room, the
  next stage opened, rows of positions inserted with the filter's insert count kept right. It is what
  ``FpTracker.insert_batch`` needs of a filter.
"""

from __future__ import annotations

import bisect
from typing import Sequence

import numpy as np

from bloomviz.filters.capabilities import Capabilities
from bloomviz.filters.scalable_stages import StageSpec, stage_spec


class Stages(Sequence):
    """The stages as they are when asked (a new object each time; the stage filters are live: read them, do
    not change them). Indexing, ``len`` and iteration give the stage filters."""

    def __init__(self, filters: Sequence, specs: Sequence[StageSpec], offsets: Sequence[int]):
        self._filters, self.specs, self.offsets = tuple(filters), tuple(specs), tuple(offsets)

    def __getitem__(self, index):
        return self._filters[index]

    def __len__(self) -> int:
        return len(self._filters)

    @property
    def ks(self) -> tuple[int, ...]:
        return tuple(s.k for s in self._filters)

    def of_bit(self, index: int) -> int:
        """The stage that holds grid bit ``index``."""
        m = self.offsets[-1] + self._filters[-1].m
        if not 0 <= index < m:
            raise ValueError(f"bit index must lie in [0, {m}), got {index!r}")
        return bisect.bisect_right(self.offsets, index) - 1


class NewestStage:
    """The newest stage of ``flt`` (a ``ScalableBloomFilter``), for a measurement that follows the stages."""

    # the newest stage is a plain bit array: the tracker's pass writes its bits itself and reports the count
    capabilities = Capabilities()

    def __init__(self, flt):
        self._flt = flt

    @property
    def stage(self):
        return self._flt._stages[-1]

    @property
    def bits(self):
        return self.stage.bits

    @property
    def bits_set(self) -> int:
        return self.stage.bits_set

    def check_growth(self, inserts: int) -> None:
        """Raise ValueError, changing nothing, if ``inserts`` more items would need a stage that cannot be
        made."""
        self._flt._plan(inserts)

    def room(self) -> int:
        """Inserts the newest stage takes before the next one must open (0: the next insert opens one)."""
        return max(0, self._flt._specs[-1].capacity - len(self.stage))

    def open_next(self) -> StageSpec:
        """Open the next stage now (raises ValueError, changing nothing, if it cannot be made)."""
        flt = self._flt
        spec = stage_spec(flt.initial_capacity, flt.p, flt.growth, flt.tightening, flt._specs[-1].index + 1)
        flt._open([spec])
        return spec

    def _insert_rows(self, positions: np.ndarray) -> int:
        """Insert items given by their rows of positions in the newest stage (its own, local positions); they
        must fit in its ``room()``. Returns the bits newly set."""
        positions = np.asarray(positions, dtype=np.int64)
        if positions.ndim != 2 or positions.shape[0] > self.room():
            raise ValueError(f"{positions.shape[0] if positions.ndim == 2 else positions.shape} rows do not fit "
                             f"the newest stage's room of {self.room()} inserts")
        newly = self.stage._insert_rows(positions)
        self._flt._count += positions.shape[0]
        return newly

    def _count_fresh(self, new_bits: int, rows: int) -> None:
        """``rows`` inserts (within ``room()``) the exact tracker wrote into the newest stage, ``new_bits`` new."""
        self.stage._count_fresh(new_bits, rows)
        self._flt._count += int(rows)
