"""The one live measurement: a filter, a fixed probe set, and the false-positive count after every insert.

Every measured run goes through ``Measurement``: ``bloomviz simulate`` (experiment.Simulation), the Compare
tab's lanes, the explorer's measured points (studies/), and it is built so a window's model can drive it chunk
by chunk. It holds the three policies that used to be repeated in each of them:

- **probes**: a run seeded ``seed`` draws its items from ``seed`` with prefix ``i`` and its probes from
  ``seed + PROBE_SEED_OFFSET`` with prefix ``p``, so a probe is never a generated item (streams.py, whose
  names are re-exported here);
- **tracking**, chosen by the filter's class in one table (``TRACKING``): a filter with one bit array whose
  positions never move (``BloomFilter`` and its subclasses) is followed by ``FpTracker``, a filter that grows
  in stages by ``ScalableFpTracker``; both are exact after every insert. Any other filter has every probe
  tested after each step (one row per step, ``exact`` False), as has any filter when the caller asks for the
  count after each step only (``per_insert=False``: a bit array then tests its probes' positions, hashed once;
  stepwise.py). Each tracker takes a step's ``streams.Chunk`` and an ``add``'s ``Insertion`` itself;
- **checkpoints**: which rows are kept — every E-th insert and the last item of the source (``every``), given
  insert counts (``at``), and optionally the filter as it was before the first insert (``initial``).

``step(items_or_count)`` inserts the next chunk (the next ``count`` items of the source given at construction,
or the items given) and returns a ``StepRecord``: n, the false-positive count and the bits set after every
insert of the chunk, and which of those rows are checkpoints. ``add(item)`` does one insert and returns its
record with the filter's ``Insertion`` (for highlighting); ``rebuild()`` re-reads the bits after a removal, a
clear or a load. ``fp_count`` is the one place the count is read.

**rows**: a curve's rows are a ``MeasuredSeries`` (below), written where the counts are known: a measurement given one
(``series``, the window's) writes each ``add``'s row and the rows ``add_rows`` is handed, with the filter's theory;
``Simulation`` adds its checkpoint rows. A row holds what was measured (n, the rate, the bits set: 24 bytes); the
other columns (``series.row_columns``) are computed for the rows read: drawn, kept or written. Computing them for
every insert cost 200-380 ns an insert, about 30 % of a measured run, although a plot draws a few rows per pixel.

Generated items (``items.generated.GeneratedItems``, and streams.DrawnItems) are hashed from numpy words, never
made into strings, when the filter's positions are a function of the item's MurmurHash3 (``filters.generated_positions``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Sequence

import numpy as np

from bloomviz.filters.scalable import ScalableBloomFilter
from bloomviz.filters.generated_positions import takes_halves
from bloomviz.filters.standard import BloomFilter
from bloomviz.items.generated import GeneratedItems
from bloomviz.measure.fp_tracker import FpTracker
from bloomviz.measure.series import COLUMNS, NONE, OWN, STANDARD, row_columns
from bloomviz.measure.stepwise import BitsAfterEachStep, ProbedAfterEachStep
from bloomviz.measure.streams import ITEM_PREFIX, PROBE_PREFIX, PROBE_SEED_OFFSET, Chunk, item_stream, probe_items
from bloomviz.measure.tracking import ScalableFpTracker
from bloomviz.theory.intervals import Z_95, wilson_interval
from bloomviz.unique_ints import index_range, sorted_unique

__all__ = ["Measurement", "StepRecord", "MeasuredSeries", "TRACKING",
           "PROBE_SEED_OFFSET", "ITEM_PREFIX", "PROBE_PREFIX", "item_stream", "probe_items"]   # from streams.py

# --- tracking: how each class of filter is followed ---------------------------------------------------------
# Per class of filter (the most specific first: the first the filter is an instance of decides), how it is
# measured after every insert and how after each step only; a filter of no class here is probed.
# Each is built as ``(flt, probes)`` and answers ``fp_count``, ``exact``, ``positions_alone``, ``insert(flt,
# chunk)``, ``after_add(flt, insertion)``, ``rebuild(flt)`` and ``prepare()``.
TRACKING: tuple[tuple[type, type, type], ...] = ((ScalableBloomFilter, ScalableFpTracker, ProbedAfterEachStep),
                                                 (BloomFilter, FpTracker, BitsAfterEachStep))


def _tracking_for(flt, probes, per_insert: bool):
    for cls, every_insert, each_step in TRACKING:
        if isinstance(flt, cls):
            return (every_insert if per_insert else each_step)(flt, probes)
    return ProbedAfterEachStep(flt, probes)


ROWS_PER_BLOCK = 1 << 16     # MeasuredSeries.rows(): computed a block at a time
_NONE_KEPT = np.zeros(0, np.int64)
_NONE_KEPT.flags.writeable = False


# --- the record of one step ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class StepRecord:
    """After every insert of a step (or after the step, when ``exact`` is False): the insert count ``n``, the
    false positives among the probes ``fp`` and the bits set; ``kept``: the indices of the checkpoint rows."""

    n: np.ndarray
    fp: np.ndarray
    bits_set: np.ndarray
    kept: np.ndarray
    exact: bool
    insertion: object = None     # the filter's Insertion, for a step of one ``add``

    def checkpoints(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(n, fp, bits_set) of the checkpoint rows alone (the record's own arrays when every row is one: a
        step of ``every=1`` copied its three columns for nothing, fresh memory each chunk)."""
        k = self.kept
        if k.size == self.n.size:    # (kept: ascending distinct indices into the rows, so all of them)
            return self.n, self.fp, self.bits_set
        return self.n[k], self.fp[k], self.bits_set[k]


def _whole_number(value, name: str, lo: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < lo:
        raise ValueError(f"{name} must be a whole number >= {lo}, got {value!r}")
    return int(value)


class Measurement:
    """``flt`` measured over ``probes`` as items go in (see the module's note).

    ``items``: the source ``step(count)`` takes the next items from (any sequence; a ``GeneratedItems`` is
    hashed without strings). ``every``: keep a checkpoint every E inserts and at the source's last item (None:
    no periodic checkpoints). ``at``: insert counts to keep. ``initial``: keep the row before any insert.
    ``store``: hold the checkpoints in ``checkpoints`` (False when the caller keeps what it needs itself).
    ``per_insert=False``: the count after each step is enough (one row per step; a bit array then skips the
    tracker's bookkeeping: the explorer's k sweep reads only the last count). ``series``: the curve's rows
    (a ``MeasuredSeries``, the window's): ``add`` writes its row there, and ``add_rows`` the rows of a step
    that its caller keeps (the window keeps fewer past a million inserts).
    """

    def __init__(self, flt, probes: Sequence[object], items: Sequence[object] | None = None, *,
                 every: int | None = 1, at: Sequence[int] = (), initial: bool = False, store: bool = True,
                 per_insert: bool = True, series: "MeasuredSeries | None" = None):
        self.filter = flt
        self.series = series
        self.items = items
        self.taken = 0                     # items taken from ``items`` so far
        self.n = len(flt)
        self.every = every
        # sorted() rather than np.unique: numpy's unique imports numpy.ma (~12 ms) and this runs before the window's
        # first paint
        self._at = np.asarray(sorted({_whole_number(a, "a checkpoint's n", 0) for a in at}), np.int64)
        self._last = self.n + len(items) if items is not None else None
        self._store = store
        self._kept: list[list[np.ndarray]] = [[], [], []]
        self._tracking = _tracking_for(flt, probes, per_insert)
        self.probes = probes if isinstance(probes, list) else list(probes)
        if initial or self.n in self._at:
            self._keep_rows(np.array([self.n], np.int64), np.array([self.fp_count], np.int64),
                            np.array([flt.bits_set], np.int64), np.zeros(1, np.int64))

    @property
    def every(self) -> int | None:
        return self._every

    @every.setter
    def every(self, every: int | None) -> None:
        """Keep a checkpoint every E inserts from now on (None: none but ``at`` and ``initial``)."""
        self._every = None if every is None else _whole_number(every, "every", 1)

    # --- reading ------------------------------------------------------------------------------------------
    @property
    def fp_count(self) -> int:
        return int(self._tracking.fp_count)

    @property
    def probe_count(self) -> int:
        return len(self.probes)

    @property
    def rate(self) -> float:
        return self.fp_count / len(self.probes) if self.probes else 0.0

    def interval(self, z: float = Z_95) -> tuple[float, float]:
        return wilson_interval(self.fp_count, len(self.probes), z)

    @property
    def exact(self) -> bool:
        """Measured after every insert (True) or only after every step (False)."""
        return self._tracking.exact

    @property
    def tracker(self):
        """The exact tracker (``FpTracker`` or ``ScalableFpTracker``), or None when probes are tested."""
        return self._tracking if self._tracking.exact else None

    def false_positive_probes(self) -> list:
        """The probes the filter passes now."""
        if self.tracker is not None:
            return self.tracker.false_positive_probes()
        hit = self.filter.contains_many(self.probes) if self.probes else ()
        return [p for p, h in zip(self.probes, hit) if h]

    @property
    def remaining(self) -> int:
        """Items of the source not inserted yet (0 without a source)."""
        return len(self.items) - self.taken if self.items is not None else 0

    @property
    def checkpoints(self) -> dict[str, np.ndarray]:
        """The rows kept so far: n, fp, bits_set (int64 arrays)."""
        for column in self._kept:
            if len(column) > 1:
                column[:] = [np.concatenate(column)]
        n, fp, bits = (c[0] if c else np.zeros(0, np.int64) for c in self._kept)
        return {"n": n, "fp": fp, "bits_set": bits}

    # --- inserting ----------------------------------------------------------------------------------------
    def step(self, items_or_count, positions: np.ndarray | None = None,
             halves: tuple[np.ndarray, np.ndarray] | None = None) -> StepRecord:
        """Insert the next ``count`` items of the source, or the items given; the record of every insert.
        ``positions``: the given items' rows of positions (``filter.positions_many``), when the caller needs them
        too (the window keeps them as its truth), or of the source's next items, hashed by the caller. ``halves``:
        their (h1, h2 forced odd), for a filter that ``generated_positions.takes_halves`` (others refuse them)."""
        if halves is not None and not takes_halves(self.filter):      # (it would get other bits than its own items')
            raise ValueError("hash halves are taken only by a plain murmur3-mix filter, not this one")
        if isinstance(items_or_count, (int, np.integer)) and not isinstance(items_or_count, bool):
            if self.items is None:
                raise ValueError("this measurement has no item source: give the items to insert")
            count = _whole_number(items_or_count, "the item count", 0)
            start = self.taken
            stop = min(start + count, len(self.items))
            if halves is not None:
                chunk = Chunk.of_halves(halves, stop - start)
            elif positions is not None:
                if len(positions) != stop - start:
                    raise ValueError(f"{len(positions)} rows of positions for {stop - start} items")
                chunk = Chunk(None, positions=positions)
            elif isinstance(self.items, GeneratedItems):
                chunk = Chunk(self.items, start, stop)
            else:
                chunk = Chunk(self.items[start:stop])
            self.taken = stop
        else:
            chunk = Chunk(items_or_count, positions=positions, halves=halves)
        size = len(chunk)
        if size == 0:
            empty = np.zeros(0, np.int64)
            return StepRecord(empty, empty, empty, empty, self.exact)
        flt = self.filter
        fp, bits = self._tracking.insert(flt, chunk)
        if self._tracking.exact:
            n = np.arange(self.n + 1, self.n + size + 1, dtype=np.int64)
        else:
            n = np.array([self.n + size], np.int64)
        self.n += size
        return self._record(n, np.asarray(fp, np.int64), np.asarray(bits, np.int64))

    @property
    def takes_positions(self) -> bool:
        """Whether a batch can be measured from its rows of positions alone (``step_positions``)."""
        return self._tracking.positions_alone

    def step_positions(self, positions: np.ndarray) -> StepRecord:
        """Insert a batch given only by its rows of positions (``filter.positions_many`` of items that exist
        only as numbers); for a measurement that ``takes_positions``."""
        if not self.takes_positions:
            raise ValueError("this filter's measurement needs the items themselves, not only their positions")
        return self.step(None, positions=np.asarray(positions, dtype=np.int64))

    def add(self, item) -> StepRecord:
        """Insert one item with ``filter.add``; the record holds its ``Insertion`` as well."""
        return self.added(self.filter.add(item))

    def added(self, ins) -> StepRecord:
        """``add`` after its ``filter.add`` gave ``ins`` (the window's model holds ``ins``, to take it back)."""
        fp = self._tracking.after_add(self.filter, ins)
        self.n += 1
        n, fp, bits = np.array([self.n], np.int64), np.array([fp], np.int64), np.array([self.filter.bits_set], np.int64)
        if self.series is not None:
            self.add_rows(n, fp, bits)
        return StepRecord(n, fp, bits, _NONE_KEPT if self._every is None and not self._at.size    # (the window's)
                          else self._record(n, fp, bits).kept, True, ins)

    def add_rows(self, n, fp, bits_set) -> None:
        """Append rows of counts (n, false positives, bits set) to ``series``. Their theory is computed when a row
        is read: the standard filter's formulas, or, for a filter whose formulas are not those (slices, blocks,
        stages), its own exact rate, with the standard rates, which would describe a different filter, nan (not
        drawn). A counting filter is a standard filter to a lookup (a counter above 0 is a set bit)."""
        flt = self.filter
        own = None if flt.capabilities.standard_formulas else flt.theory_fp(np.asarray(n, dtype=float))
        self.series.add(n, fp, bits_set, m=flt.m, k=flt.k, probes=len(self.probes),
                        theory=STANDARD if own is None else OWN, own=own)

    def prepare(self) -> None:
        """Build what measuring the next batch needs (the exact tracker's probe-bit map) now rather than in it:
        a long job's first step (workbench.jobs)."""
        self._tracking.prepare()

    def rebuild(self) -> int:
        """Re-read the filter's bits (after a removal, a clear, a load); returns the count."""
        self._tracking.rebuild(self.filter)
        self.n = len(self.filter)
        return self.fp_count

    # --- checkpoints --------------------------------------------------------------------------------------
    def _record(self, n: np.ndarray, fp: np.ndarray, bits: np.ndarray) -> StepRecord:
        lo, size = int(n[0]), n.size
        if size > 1 and int(n[-1]) - lo == size - 1:
            # consecutive inserts (an exact step): the checkpoints found from the first n, not by testing
            # every row (n % every over a step of 2^18 rows took 4 of ~230 ns an item at m = 2^32)
            parts = []
            if self._every is not None:
                parts.append(index_range(size) if self._every == 1 else
                             np.arange((-lo) % self._every, size, self._every, dtype=np.int64))
                # (the last item's row, unless kept already: merging it sorted the step's rows)
                if self._last is not None and lo <= self._last < lo + size and self._last % self._every:
                    parts.append(np.array([self._last - lo], np.int64))
            if self._at.size:
                inside = self._at[(self._at >= lo) & (self._at < lo + size)]
                parts.append(inside - lo)
            kept = (parts[0] if len(parts) == 1 else
                    sorted_unique(np.concatenate(parts)) if parts else np.zeros(0, np.int64))
        else:
            keep = np.zeros(size, dtype=bool)
            if self._every is not None:
                keep |= n % self._every == 0
                if self._last is not None:
                    keep |= n == self._last
            if self._at.size:
                keep |= np.isin(n, self._at)
            kept = np.flatnonzero(keep)
        self._keep_rows(n, fp, bits, kept)
        return StepRecord(n, fp, bits, kept, self.exact)

    def _keep_rows(self, n, fp, bits, kept) -> None:
        if self._store and kept.size:
            for column, values in zip(self._kept, (n, fp, bits)):
                column.append(values[kept])


# --- the rows it writes ---------------------------------------------------------------------------------------
class MeasuredSeries:
    """One row per measured insert: the measured numbers held, the rest computed for the rows read.

    ``add(n, fp, bits_set, m=, k=, probes=)`` appends rows; ``theory`` says what their rates come from
    (``STANDARD``, ``OWN`` with ``own`` the filter's exact rate at each row, or ``NONE``). Rows added with the
    same m, k, probe count and theory share one stretch, so a column is computed per stretch.
    """

    COLUMNS = COLUMNS
    _HELD = ("n", "fp_measured", "bits_set", "own")

    def __init__(self, capacity: int = 1024):
        self._len = 0
        self._cap = max(int(capacity), 1)
        self._held = {c: np.empty(self._cap, dtype=float) for c in self._HELD if c != "own"}
        self._starts: list[int] = []        # the first row of each stretch
        self._params: list[tuple] = []      # its (m, k, probes, theory)

    def __len__(self) -> int:
        return self._len

    @property
    def nbytes(self) -> int:
        """The bytes of the rows held."""
        return self._len * 8 * len(self._held)

    def reserve(self, extra: int) -> None:
        """Room for ``extra`` more rows, made now (one copy) rather than by doublings during a long run."""
        need = self._len + int(extra)
        if need > self._cap:
            self._grow(need)

    def _grow(self, capacity: int) -> None:
        for c, arr in self._held.items():
            grown = np.empty(capacity, dtype=float)
            grown[: self._len] = arr[: self._len]
            self._held[c] = grown
        self._cap = capacity

    def add(self, n, fp, bits_set, *, m: int, k: int, probes: int, theory: str = STANDARD, own=None) -> None:
        if theory not in (STANDARD, OWN, NONE):
            raise ValueError(f"theory must be {STANDARD!r}, {OWN!r} or {NONE!r}, got {theory!r}")
        if (theory == OWN) != (own is not None):
            raise ValueError("the filter's own rates are given exactly when theory is 'own'")
        n = np.asarray(n)
        size = n.size
        if size == 0:
            return
        if self._len + size > self._cap:
            self._grow(max(self._len + size, 2 * self._cap))
        if own is not None and "own" not in self._held:
            self._held["own"] = np.full(self._cap, np.nan)
        at = slice(self._len, self._len + size)
        held = self._held
        held["n"][at] = n
        # the count is not held: the rate times the probes gives it back exactly (row_columns); a fourth column
        # written for every insert cost about 5 ns an insert of the model's auto-play (its pages faulted in)
        if probes:
            np.divide(fp, probes, out=held["fp_measured"][at], casting="unsafe")
        else:
            held["fp_measured"][at] = 0.0
        held["bits_set"][at] = bits_set
        if own is not None:
            held["own"][at] = own
        params = (int(m), int(k), int(probes), theory)
        if not self._params or self._params[-1] != params:
            self._starts.append(self._len)
            self._params.append(params)
        self._len += size

    # --- reading ------------------------------------------------------------------------------------------
    def column(self, name: str) -> np.ndarray:
        """A whole column (a view for the held ones, n and fp_measured; computed for every row otherwise)."""
        if name in ("n", "fp_measured"):
            return self._held[name][: self._len]
        return self.columns_at(None, (name,))[name]

    def columns_at(self, rows, names: Sequence[str] = COLUMNS, points: bool = False) -> dict[str, np.ndarray]:
        """The columns ``names`` at ``rows`` (indices into the series; None: every row). ``points``: the exact
        rate computed at these rows' n alone, never through a longer cached curve (a plot's few rows spread over
        10^7 inserts; theory.exact_rate.fp_exact_points), equal to the curve's within ~1e-13 relative."""
        for name in names:
            if name not in COLUMNS:
                raise KeyError(f"no column {name!r}; columns: {', '.join(COLUMNS)}")
        rows = np.arange(self._len) if rows is None else np.asarray(rows, dtype=np.int64).reshape(-1)
        if rows.size and (rows.min() < -self._len or rows.max() >= self._len):
            raise IndexError(f"row index out of range for a series of {self._len} rows")
        rows = np.where(rows < 0, rows + self._len, rows)
        out = {name: np.empty(rows.size) for name in names}
        if not rows.size:
            return out
        stretch = np.searchsorted(np.asarray(self._starts), rows, side="right") - 1
        for s in sorted_unique(stretch):
            pick = rows if len(self._starts) == 1 else rows[stretch == s]
            values = self._compute(self._params[s], pick, names, points)
            for name in names:
                if len(self._starts) == 1:
                    out[name] = values[name]
                else:
                    out[name][stretch == s] = values[name]
        return out

    def _compute(self, params: tuple, rows: np.ndarray, names: Sequence[str], points: bool) -> dict[str, np.ndarray]:
        m, k, probes, theory = params
        held = self._held
        return row_columns(names, m=m, k=k, probes=probes, n=held["n"][rows], rates=held["fp_measured"][rows],
                           bits_set=held["bits_set"][rows], theory=theory,
                           own=held["own"][rows] if theory == OWN else None, points=points)

    def row(self, i: int) -> dict[str, float]:
        values = self.columns_at([i])
        return {c: float(values[c][0]) for c in COLUMNS}

    def rows(self, every: int = 1) -> Iterator[dict[str, float]]:
        for start in range(every - 1, self._len, ROWS_PER_BLOCK * every):
            idx = np.arange(start, min(self._len, start + ROWS_PER_BLOCK * every), every)
            values = self.columns_at(idx)
            for j in range(idx.size):
                yield {c: float(values[c][j]) for c in COLUMNS}

    def truncate(self, rows: int) -> None:
        self._len = max(0, min(rows, self._len))
        while self._starts and self._starts[-1] >= self._len:
            self._starts.pop()
            self._params.pop()

    def clear(self) -> None:
        self.truncate(0)
