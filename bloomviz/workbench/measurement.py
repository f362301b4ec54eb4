"""The live measurement of the shown filter: its probes, and the one measurement pipeline following them.

Probes are items that are not members; the rate measured after every insert is the share of them the filter
passes. The counting itself is ``bloomviz.measure.pipeline.Measurement`` — the same pipeline ``simulate``, the
Compare tab and the explorer use, which picks the exact tracker for the filter's class (``FpTracker`` over one
bit array, the stage-wise tracker over a growing filter) or tests every probe after each operation. This
wrapper adds what only the window needs: the probe set's seed, its bytes (to notice an insert of a probe), and
redrawing the probes when one becomes a member. ``fp_count`` is the one place the count is read; a single insert
goes to the ``pipeline`` itself (``pipeline.add``: the filter's ``Insertion`` and the counts after it, its plot
row written to ``series``, which every measurement of this probe set writes to).
"""

from __future__ import annotations

import itertools
from typing import Iterable

import numpy as np

from bloomviz.filters import capabilities
from bloomviz.hashing.seed_schemes import HAND_SET_ID
from bloomviz.items.encoding import random_items, to_bytes_list
from bloomviz.measure import pipeline
from bloomviz.workbench.truth import ItemLog

DEFAULT_PROBES = 10_000
DEFAULT_SEED = 0
PROBE_PREFIX = "p"       # a probe is this letter and 16 hex digits


def could_be_probes(items: Iterable[object], prefix: str = PROBE_PREFIX) -> Iterable[object]:
    """The inserted items a probe might equal: a generated run of another prefix never can, so an ``ItemLog``
    gives its typed items only (drawing probes past ten million auto-played items made each one a string)."""
    if not isinstance(items, ItemLog):
        return items
    return itertools.chain(items.typed(), *(r for r in items.runs() if r.items.prefix == prefix))


def has_bits(flt) -> bool:
    return capabilities.of(flt).plain_bits


class ProbeSet:
    def __init__(self, flt, count: int = DEFAULT_PROBES, seed: int = DEFAULT_SEED,
                 exclude: Iterable[object] = (), prefix: str = PROBE_PREFIX):
        self.series = pipeline.MeasuredSeries()    # the plot's rows (the state's ``series``)
        self.count = int(count)
        self.seed = int(seed)
        self.prefix = prefix     # a lesson's probes are "probe:" and 16 hex digits (its stated rates are theirs)
        self.draw(flt, exclude)

    def draw(self, flt, exclude: Iterable[object] = ()) -> None:
        """A fresh probe set from ``seed`` (excluding ``exclude``), measured against ``flt`` as it is now."""
        # hand-set positions exist only for the items typed in: a stranger has none, so nothing is measured
        count = 0 if flt.scheme == HAND_SET_ID else self.count
        self.probes = random_items(count, seed=self.seed, prefix=self.prefix,
                                   exclude=could_be_probes(exclude, self.prefix))
        self.keys = set(to_bytes_list(self.probes))
        self.attach(flt)

    def attach(self, flt) -> None:
        """Measure the same probes on ``flt`` (a new filter object, or one whose bits went back)."""
        self.flt = flt
        # the window's rows are the series (its checkpoints none): a single insert writes its row, a batch the
        # rows the model keeps (model.thin_mask)
        self.pipeline = pipeline.Measurement(flt, self.probes, every=None, store=False, series=self.series)

    def prepare(self) -> None:
        """Build what measuring the next batch needs now (``Measurement.prepare``)."""
        self.pipeline.prepare()

    def redraw_excluding(self, items: Iterable[object], extra: Iterable[bytes]) -> None:
        # A probe that becomes a member is no longer a fair probe: draw a new probe set that excludes the truth
        # and the items about to be inserted, and measure it against the current bits.
        self.seed += 1
        self.draw(self.flt, itertools.chain(could_be_probes(items, self.prefix), extra))

    def kept(self) -> tuple:
        """The probe set and its measurement as they are, for ``put_back``."""
        return self.probes, self.keys, self.seed, self.flt, self.pipeline

    def put_back(self, kept: tuple) -> None:
        """The probe set of ``kept()`` again, with its measurement (valid while the filter is as it was then:
        an insert refused before it changed anything)."""
        self.probes, self.keys, self.seed, self.flt, self.pipeline = kept

    @property
    def tracker(self):
        """The exact tracker, or None when the probes are tested after each operation."""
        return self.pipeline.tracker

    @property
    def fp_count(self) -> int:
        return self.pipeline.fp_count

    @property
    def rate(self) -> float:
        return self.pipeline.rate

    # --- following the filter ----------------------------------------------------------------------------
    def insert(self, datas, positions: np.ndarray | None = None):
        """Insert a batch (``positions``: its rows, when the caller hashed it already); (n, fp, bits_set)
        after every insert, or after the batch for a filter whose probes are tested."""
        record = self.pipeline.step(datas, positions=positions)
        return record.n, record.fp, record.bits_set

    @property
    def takes_positions(self) -> bool:
        """Whether a batch can be measured from its positions alone (the exact tracker of one bit array)."""
        return self.pipeline.takes_positions

    def insert_positions(self, positions: np.ndarray):
        """Insert a batch given only its rows of positions (``takes_positions``): (n, fp, bits_set) as ``insert``."""
        record = self.pipeline.step_positions(positions)
        return record.n, record.fp, record.bits_set

    def insert_halves(self, halves: tuple[np.ndarray, np.ndarray]):
        """``insert_positions`` for a filter that ``generated_positions.takes_halves``, given the batch's hash
        halves (h1, h2 forced odd): no n x k array of positions is made (the exact tracker computes them in its
        passes); the same numbers."""
        if not self.takes_positions:
            raise ValueError("this filter's measurement needs the items themselves, not only their hash halves")
        record = self.pipeline.step(None, halves=halves)
        return record.n, record.fp, record.bits_set

    def after_removal(self, cleared) -> int:
        """The count after a removal (``cleared``: the counters that fell to 0, so bits went 1 -> 0)."""
        if cleared or self.tracker is None:
            self.pipeline.rebuild()
        self.pipeline.n = len(self.flt)   # a removal takes an insert back even when no counter reached 0
        return self.fp_count
