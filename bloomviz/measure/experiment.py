"""``Simulation``: n items into a fresh filter, the false-positive rate measured on its probes after every insert.

A thin user of the one measurement (pipeline.Measurement): it picks the items and probes of a seeded run, keeps
a row every E inserts, and holds the rows for the columns a plot draws and ``bloomviz simulate`` writes
(pipeline.MeasuredSeries: the counts held, the theory computed for the rows read, when they are written).
"""

from __future__ import annotations

from typing import Callable, Iterator, Sequence

import numpy as np

from bloomviz.filters.generated_positions import halves as generated_halves
from bloomviz.filters.generated_positions import takes_halves
from bloomviz.filters.registry import make_filter
from bloomviz.hashing import schemes as hashing
from bloomviz.items.generated import GeneratedItems
from bloomviz.measure.counter_halves import CounterHalves
from bloomviz.measure.fp_tracker import FpTracker
from bloomviz.measure.given_items import GivenItems
from bloomviz.measure.pipeline import MeasuredSeries, Measurement
from bloomviz.measure.series import NONE, STANDARD, Series
from bloomviz.measure.streams import item_stream, probe_items

__all__ = ["Simulation", "Cancelled", "STEP", "BIG_STEP"]

STEP = 65_536
HALVES_STEP = 1 << 17
BIG_STEP = 1 << 18


class Cancelled(Exception):
    """Raised inside a run when its cancel callback says stop."""


class Simulation:
    """Insert n items into a fresh filter, measuring the false-positive rate exactly after every insert.

    Items are generated (streams.item_stream: seeded, prefix ``i``, distinct by construction, made and hashed
    in numpy chunk by chunk, never all held) unless given; probes are generated with prefix ``p``, so they can
    never equal a generated item. Given items are excluded from the probes explicitly; a list is hashed and
    held as given (given_items.GivenItems: copied only when the run reads the items themselves); either way a
    change to it after the Simulation is made changes nothing of its run.
    Any filter can be measured (``flt``, or ``variant`` and its parameters): a scalable filter stage by stage.
    ``run(every=E)`` keeps a row every E inserts and the last one (24 bytes a row), so the memory of a run
    does not grow with n beyond its rows. A filter whose m and k are not its parameters (``sized`` False: a
    scalable filter) has no standard theory at one m and k: those columns are nan.
    """

    def __init__(self, m: int | None = None, k: int | None = None, n: int | None = None,
                 scheme: str = hashing.DEFAULT_SCHEME, probes: int = 10_000, seed: int = 0,
                 items: Sequence[object] | None = None, variant: str | None = None, flt=None, **params):
        if flt is None:
            flt = make_filter(variant or "standard", m=m, k=k, scheme=scheme, **params)
        self.filter = flt
        self._given = None
        if items is None:
            if n is None:
                raise ValueError("give n (how many random items) or items")
            self.items = item_stream(n, seed)
            probe_list = probe_items(probes, seed)
        else:
            # hashed once (a list of str or bytes): the probes are checked against the hashes, and the steps
            # take their positions from them (given_items.py); the list is copied only for a run that reads it
            self._given = GivenItems(items)
            probe_list = probe_items(probes, seed, exclude=self._given.exclusion())
        self.measurement = Measurement(flt, probe_list, self.items if items is None else self._given, store=False)
        if self._given is not None:
            if not (self.measurement.takes_positions and self._given.serves(flt)):
                self._given.hold_copy()
            self.items = self._given.items
        self.series = MeasuredSeries(capacity=min(len(self.items), 1 << 16) + 1)

    @property
    def tracker(self):
        """The exact tracker (FpTracker, or ScalableFpTracker for a scalable filter)."""
        return self.measurement.tracker

    def run(self, every: int = 1, chunk: int | None = None,
            progress: Callable[[int, int], None] | None = None,
            cancel: Callable[[], bool] | None = None) -> Series:
        """Insert every item, ``chunk`` at a time (None: ``step_size()``); the series gets the rows at
        n = every, 2·every, … and the last n."""
        if isinstance(every, bool) or not isinstance(every, (int, np.integer)) or every < 1:
            raise ValueError(f"every must be a positive integer, got {every!r}")
        chunk = self.step_size() if chunk is None else chunk
        measurement = self.measurement
        measurement.every = every
        flt = self.filter
        total = len(measurement.items)
        # every row it will keep, made room for at once: doubling copied the rows kept so far (4 copies and
        # 0.5 s of a 10^6-row run on a machine whose memory was busy with other work)
        self.series.reserve(-(-measurement.remaining // every) + 1)
        while measurement.remaining:
            if cancel is not None and cancel():
                raise Cancelled(f"cancelled after {measurement.taken} of {total} items")
            n, fp, bits = self._step(chunk).checkpoints()
            # the kept rows' counts; their theory and intervals are computed when they are read (written)
            self.series.add(n, fp, bits, m=flt.m, k=flt.k, probes=measurement.probe_count,
                            theory=STANDARD if flt.capabilities.sized else NONE)
            if progress is not None:
                progress(measurement.taken, total)
        return self.series

    def _step(self, chunk: int):
        measurement = self.measurement
        if not measurement.takes_positions:
            return measurement.step(chunk)
        start = measurement.taken
        stop = min(start + chunk, len(measurement.items))
        # by their hash halves into a plain murmur3-mix filter of any size: the positions computed in the pass
        # that sets them (no n x k array; fp_tracker.insert_halves). The window's auto-play takes them so only
        # above 2^26 bits (FpTracker.HALVES_MIN_M): below, its passes are those the native kernel cache holds.
        if self._given is None:
            # plain generated items: hashed in the tracker's setting pass from their counter (counter_flips.py)
            halves = CounterHalves.of(self.filter, self.items, start, stop)
            if halves is None:
                halves = generated_halves(self.filter, self.items, start, stop)
        else:
            halves = self._given.halves_for(self.filter, start, stop)
        if halves is not None:
            return measurement.step(chunk, halves=halves)
        rows = None if self._given is None else self._given.positions(self.filter, start, stop)
        if rows is not None:
            return measurement.step(chunk, positions=rows)
        return measurement.step(chunk)

    def step_size(self) -> int:
        """Items a step of ``run``: ``STEP``; ``HALVES_STEP`` for items by their hash halves into a plain filter
        of at most 2^26 bits; ``BIG_STEP`` for generated items into a plain filter of more than 2^26 bits (its
        exact tracker takes their hash halves and holds no n x k array: about 60 MiB of work arrays at 2^18 items
        and k = 20). Once a step that tracker reads its probe bits not yet set, each
        a cache miss in so big a filter, and its entries: at m = 2^32, k = 20 with 10^4 probes, steps of
        2^16 items spent 30 of 276 ns an item on them with the filter a fifth full, steps of 2^18 10 of 233."""
        if type(self.tracker) is not FpTracker or not takes_halves(self.filter):
            return STEP
        if self.filter.m < FpTracker.HALVES_MIN_M and (self._given is None or self._given.halves is not None):
            # by halves into a smaller filter (_step): half as many steps, each reading the probe bits not yet
            # set once (9.6 x 10^6 bits, k = 7, 10^6 given str items: 79.7 -> 77.3 ns an item)
            return HALVES_STEP
        return BIG_STEP if isinstance(self.items, GeneratedItems) else STEP

    def __iter__(self) -> Iterator[dict[str, float]]:
        if len(self.series) < len(self.measurement.items):
            self.run()
        return self.series.rows()
