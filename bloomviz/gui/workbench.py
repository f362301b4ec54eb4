"""The one Qt-facing model of the window: the filter, the truth set, the live measurement and the history.

Widgets never touch a filter. They call the workbench (``insert``, ``lookup``, ``configure`` ...) and redraw
when it says what changed:

- ``filterReset()``                 a new or cleared filter: redraw everything (grid, plot, history);
- ``bitsChanged(positions)``        the grid cells whose value changed (a numpy array), or ``None`` = all;
- ``highlighted(positions, kinds)`` the cells the last operation touched and what each one was
                                    (``new`` / ``old`` on insert, ``zero`` / ``one`` on lookup, ``culprit``
                                    for the positions of a false positive);
- ``seriesChanged()``               rows were appended to ``series`` (one row per insert);
- ``seriesReplaced()``              ``series`` is a new, larger object holding the same rows;
- ``historyAppended(entry)``        a ``HistoryEntry``;
- ``operationExplained(expl)``      an ``Explanation`` of the last operation with the numbers plugged in;
- ``busyChanged(bool)``, ``progress(done, total)``, ``jobFinished(done, total, cancelled)`` for bulk work,
  and ``jobFrame()`` ten times a second during it: a turn of the event loop left free for redraws;
- ``error(str)``                    a refused operation (nothing was changed), ``notice(str)`` information.

Ground truth. Because the workbench knows what was really inserted, a lookup is classified exactly: true
negative, true positive, or false positive (all k bits set, item never inserted), and the inserted items that
share a bit can be named. The positions of every insert are kept (one row of k per insert, 4 bytes a
position while m < 2^32) so that "which items set bit i" is one vectorised scan, on demand.

Measurement. The false-positive rate is measured exactly after every insert with ``FpTracker`` over a fixed
set of probes (items that are not members). Filters without a plain bit array fall back to testing every
probe with ``contains_many`` after each insert or batch.

Bulk work (``insert_many`` and auto-play at full speed) runs as a job of chunks from a zero-delay QTimer, so the
event loop keeps running between chunks. Each chunk is committed whole (filter, tracker, series, truth,
history together) or not at all; a cancel lands between chunks and leaves a consistent state.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

import numpy as np
from PySide6 import QtCore

from bloomviz.filters import bitstore

from bloomviz.hashing import schemes as hashing
from bloomviz.measure.experiment import FpTracker, Series, series_rows, theory_many, wilson
from bloomviz.items.encoding import describe, random_items, to_bytes, to_bytes_list
from bloomviz.filters.registry import standard_formulas_apply
from bloomviz.filters.registry import theory_curve as variant_theory

MIN_M = 8
MAX_M = 10_000_000           # the grid's range: one byte of picture per bit
MAX_K = 64
MAX_ITEM_BYTES = 64 * 1024   # an item is a word, a key, a URL: a 10 MB paste is a mistake, said so
DEFAULT_PROBES = 10_000
DEFAULT_SEED = 0
DEFAULT_DESIGN = (200, 0.01)  # n, p: a grid of ~1,900 cells, large enough to see each bit
CULPRIT_LIMIT = 20
DEDUPE_LIMIT = 50_000

INSERTED = "inserted"
TRUE_POSITIVE = "true positive"
TRUE_NEGATIVE = "true negative"
FALSE_POSITIVE = "false positive"
MAYBE_PRESENT = "probably present"   # a loaded filter whose items are unknown
REMOVED = "removed"                  # a counting filter's removal of an inserted item
FORCED_REMOVAL = "forced removal"    # the removal of an item never inserted, insisted on
VERDICTS = (INSERTED, TRUE_POSITIVE, TRUE_NEGATIVE, FALSE_POSITIVE, MAYBE_PRESENT, REMOVED, FORCED_REMOVAL)
FALSE_NEGATIVE_LIMIT = 20


# --- records the workbench hands out ------------------------------------------------------------------------
@dataclass(frozen=True)
class HistoryEntry:
    index: int                    # 1-based operation number since the filter was made
    op: str                       # "insert", "lookup", "insert batch"
    label: str                    # the item, printable (lone surrogates escaped), or a batch summary
    verdict: str                  # one of VERDICTS
    positions: tuple[int, ...]    # the item's k positions (empty for a batch)
    count: int                    # items in the operation
    n: int                        # inserts so far, after the operation
    lookups: int
    true_positives: int
    true_negatives: int
    false_positives: int
    fill: float
    fp_measured: float
    # The item itself (str or bytes) for a single operation, so a session can replay it; None for a batch,
    # whose items are ``Workbench.items[n - count:n]``.
    item: object = None
    # What else the operation did, in words (a removal's false negatives, a scalable filter's new stage).
    note: str = ""
    # Inserted items that test negative after this operation (a forced removal in a counting filter).
    false_negatives: tuple = ()


@dataclass(frozen=True)
class Numbers:
    """The filter's state as the formulas need it."""
    m: int
    k: int
    n: int
    bits_set: int
    p_zero: float          # (1 − 1/m)^{kn}
    fp_exact: float        # E[(X/m)^k]: the exact rate (theory.fp_exact)
    fp_now: float          # (X/m)^k from the bits actually set
    fp_count: int
    probes: int
    fp_low: float
    fp_high: float
    n_estimated: float     # −(m/k)·ln(1 − X/m)
    fp_classic: float = 0.0  # (1 − (1 − 1/m)^{kn})^k: Bloom's formula, below the exact rate for k ≥ 2

    @property
    def fill(self) -> float:
        return self.bits_set / self.m if self.m else 0.0

    @property
    def fp_measured(self) -> float:
        return self.fp_count / self.probes if self.probes else 0.0


@dataclass(frozen=True)
class Explanation:
    op: str                                   # "insert", "lookup", "insert batch", "new filter", "reset"
    label: str                                # printable item or summary
    verdict: str                              # one of VERDICTS, or "" for non-item operations
    verdict_text: str                         # the verdict in words
    data_hex: str = ""                        # the item's bytes in hex (truncated)
    data_len: int = 0
    hash_rows: tuple[tuple[str, str], ...] = ()
    positions: tuple[int, ...] = ()
    kinds: tuple[str, ...] = ()
    culprits: dict = field(default_factory=dict)   # position -> (items, total) for a false positive
    scheme_title: str = ""
    numbers: Numbers | None = None
    count: int = 1
    # What the variant did with this item and its own theory, as (label, value) rows: the counters changed,
    # the stage chosen, the slice or block used. Empty for the standard filter.
    variant_title: str = ""
    variant_rows: tuple[tuple[str, str], ...] = ()


class ItemError(ValueError):
    """An item the window refuses (empty, too large, not text)."""


def check_item(item: object) -> bytes:
    """The item's bytes, or ItemError naming what is wrong. Lone surrogates are accepted (surrogatepass)."""
    try:
        data = to_bytes(item)
    except TypeError as exc:
        raise ItemError(str(exc)) from None
    if not data:
        raise ItemError("the item is empty: type a word, a number, anything, then insert or look it up")
    if len(data) > MAX_ITEM_BYTES:
        raise ItemError(f"the item is {len(data):,} bytes of UTF-8, over the limit of {MAX_ITEM_BYTES:,} bytes "
                        f"(64 KiB); an item is one word, key or line, not a whole document")
    return data


def check_m(m: object) -> int:
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)):
        raise ValueError(f"m (bits) must be a whole number, got {m!r}")
    if not MIN_M <= int(m) <= MAX_M:
        raise ValueError(f"m (bits) must be between {MIN_M} and {MAX_M:,} in the window, got {int(m):,}")
    return int(m)


def check_k(k: object) -> int:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise ValueError(f"k (hash functions) must be a whole number, got {k!r}")
    if not 1 <= int(k) <= MAX_K:
        raise ValueError(f"k (hash functions) must be between 1 and {MAX_K}, got {int(k)}")
    return int(k)


def check_scheme(scheme: object) -> str:
    if not isinstance(scheme, str) or scheme not in hashing.SCHEMES:
        raise ValueError(f"unknown hash scheme {scheme!r}; known schemes: {', '.join(hashing.SCHEMES)}")
    return scheme


def design_params(n: object, p: object) -> tuple[int, int]:
    """(m, k) for n items at false-positive rate p: k = ceil(log2(1/p)), m = ceil(−n·ln p / (ln 2)²).

    Refused with a message when n or p is out of range or the design needs more bits than the grid shows.
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or int(n) < 1:
        raise ValueError(f"n (items to hold) must be a positive whole number, got {n!r}")
    if isinstance(p, bool) or not isinstance(p, (int, float, np.floating)) or not math.isfinite(p) \
            or not 0 < p < 1:
        raise ValueError(f"p (false-positive rate) must be a number strictly between 0 and 1, got {p!r}")
    try:
        from bloomviz.theory.rates import optimal_params
        k, m = optimal_params(int(n), float(p))
    except ImportError:  # pragma: no cover - the formulas of the docstring, should theory be missing
        k = math.ceil(-math.log2(p))
        m = math.ceil(-int(n) * math.log(p) / math.log(2) ** 2)
    k = min(int(k), MAX_K)
    m = int(m)
    if m > MAX_M:
        raise ValueError(f"{int(n):,} items at p = {p:g} need m = {m:,} bits, more than the window's "
                         f"{MAX_M:,}; ask for fewer items or a larger p")
    return max(m, MIN_M), k


def sorted_unique(values: np.ndarray) -> np.ndarray:
    """np.unique for int arrays by sorting: numpy 2.3's hash-based np.unique is ~40x slower on 10^5 positions."""
    out = np.sort(np.asarray(values, dtype=np.int64))
    if out.size > 1:
        out = out[np.concatenate(([True], out[1:] != out[:-1]))]
    return out


def flt_counter_bits(flt) -> int:
    return int(getattr(flt, "counter_bits", 1))


def hex_preview(data: bytes, limit: int = 24) -> str:
    shown = " ".join(f"{b:02x}" for b in data[:limit])
    return shown + (f" … ({len(data):,} bytes in all)" if len(data) > limit else "")


# --- growable storage ---------------------------------------------------------------------------------------
class _Rows:
    """A growable (n, k) integer array: the positions of every insert, in insertion order."""

    def __init__(self, k: int, dtype):
        self._k = k
        self._data = np.empty((1024, k), dtype=dtype)
        self._len = 0

    def __len__(self) -> int:
        return self._len

    def reserve(self, extra: int) -> None:
        need = self._len + extra
        if need > self._data.shape[0]:
            grown = np.empty((max(need, 2 * self._data.shape[0]), self._k), dtype=self._data.dtype)
            grown[: self._len] = self._data[: self._len]
            self._data = grown

    def extend(self, rows: np.ndarray) -> None:
        rows = np.asarray(rows).reshape(-1, self._k)
        self.reserve(rows.shape[0])
        need = self._len + rows.shape[0]
        self._data[self._len: need] = rows
        self._len = need

    def view(self) -> np.ndarray:
        return self._data[: self._len]

    def truncate(self, rows: int) -> None:
        self._len = min(self._len, rows)


# --- the job that feeds chunks from the event loop ----------------------------------------------------------
class _Job:
    def __init__(self, source: Callable[[int], Sequence[object]], total: int, label: str,
                 checkpoint: "Checkpoint | None" = None, progress_of: Callable[[], tuple[int, int]] | None = None):
        self.checkpoint = checkpoint  # all-or-nothing jobs go back here on a cancel or a failure
        # A job whose length is not known up front (a file's lines, never counted first) reports its own
        # (done, estimated total); ``total`` is then only an upper bound.
        self.progress_of = progress_of
        # A job of any operations (a session's replay): step(count) makes up to count of them and returns how
        # many it made (0: done). Its operations cost far more than an insert, so it starts with small steps.
        self.step: Callable[[int], int] | None = None
        self.min_chunk = MIN_CHUNK
        self.source = source        # source(count) -> the next items (fewer at the end; empty = done)
        self.total = total
        self.done = 0
        self.label = label
        self.chunk = 4_096          # adapted after every tick to keep a tick near TARGET_TICK_S
        self.per_item: float | None = None
        self.started = time.perf_counter()
        self.last_frame = self.started


@dataclass
class Checkpoint:
    """Everything an operation can change, as it was: ``Workbench.rollback`` puts it back."""
    flt: object
    capacity: int | None
    items: int
    positions: int
    truth: set | None
    series: int
    history: int
    counts: dict
    lookups: int
    probes: list
    probe_keys: set
    seed: int
    fp_now: int
    last: object
    removed: dict = field(default_factory=dict)


TARGET_TICK_S = 0.030
FRAME_INTERVAL_S = 0.100
MIN_CHUNK, MAX_CHUNK = 512, 200_000


class Workbench(QtCore.QObject):
    # Emitted just before the history, series and filter are replaced or cut back, and always followed by
    # filterReset: item models begin their reset here, so that no repaint in between (a progress bar repaints
    # synchronously) reads rows that no longer exist.
    aboutToReset = QtCore.Signal()
    filterReset = QtCore.Signal()
    # A scalable filter opened a stage: same filter, same history, a larger grid. Not a reset: auto-play, the
    # history and the unsaved-changes state carry on (a reset here stopped auto-play at the first new stage).
    filterGrown = QtCore.Signal()
    bitsChanged = QtCore.Signal(object)
    highlighted = QtCore.Signal(object, object)
    seriesChanged = QtCore.Signal()
    seriesReplaced = QtCore.Signal()      # ``series`` is a new object (same rows, more room): re-attach views
    historyAppended = QtCore.Signal(object)
    operationExplained = QtCore.Signal(object)
    busyChanged = QtCore.Signal(bool)
    # object, not int: Qt's int is 32 bits, and a job's bound (a file's size in bytes) may pass 2^31
    progress = QtCore.Signal(object, object)
    jobFinished = QtCore.Signal(object, object, bool)
    jobFrame = QtCore.Signal()            # bulk work pauses for this turn of the loop: redraw now
    error = QtCore.Signal(str)
    notice = QtCore.Signal(str)

    def __init__(self, parent=None, *, probes: int = DEFAULT_PROBES, seed: int = DEFAULT_SEED):
        super().__init__(parent)
        self._probe_count = int(probes)
        self._seed = int(seed)
        self._job: _Job | None = None
        self._timer = QtCore.QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._job_tick)
        self._capacity: int | None = None
        self._variant = "standard"
        m, k = design_params(*DEFAULT_DESIGN)
        self._install(self._build("standard", {"m": m, "k": k, "scheme": hashing.DEFAULT_SCHEME}),
                      capacity=DEFAULT_DESIGN[0], announce=False)

    # --- configuration -----------------------------------------------------------------------------------
    @staticmethod
    def _build(variant: str, params: dict):
        if variant == "standard":
            from bloomviz.filters.standard import BloomFilter
            return BloomFilter(check_m(params["m"]), check_k(params["k"]), scheme=check_scheme(params["scheme"]))
        from bloomviz.filters.registry import PARAMETERS, check_variant, make_filter
        variant = check_variant(variant)
        if "m" in PARAMETERS[variant]:
            check_m(params.get("m"))
            check_k(params.get("k"))
        if variant == "scalable":   # its first stage's m follows from the capacity: checked before allocating
            from bloomviz.gui.window_limits import check_scalable
            check_scalable(params)
        accepted = {name: value for name, value in params.items() if name in PARAMETERS[variant]}
        return make_filter(variant, **accepted)

    @staticmethod
    def validate_config(m, k, scheme=hashing.DEFAULT_SCHEME, variant="standard", **params) -> str | None:
        """The message configure() would give, or None when the parameters are acceptable."""
        try:
            Workbench._build(variant, {"m": m, "k": k, "scheme": scheme, **params})
        except (ValueError, TypeError) as exc:
            return str(exc)
        return None

    def configure(self, m=None, k=None, scheme=hashing.DEFAULT_SCHEME, variant="standard",
                  capacity: int | None = None, **params) -> bool:
        """Replace the filter with a new, empty one. On bad parameters: error(message), nothing changes."""
        try:
            flt = self._build(variant, {"m": m, "k": k, "scheme": scheme, **params})
            if capacity is not None:
                capacity = int(capacity)
        except (ValueError, TypeError) as exc:
            self.error.emit(str(exc))
            return False
        self.cancel()
        self._install(flt, capacity=capacity)
        return True

    def design(self, n, p, scheme=hashing.DEFAULT_SCHEME) -> tuple[int, int] | None:
        """A new filter sized for n items at rate p (its capacity marks the plot). Returns (m, k)."""
        try:
            m, k = design_params(n, p)
        except ValueError as exc:
            self.error.emit(str(exc))
            return None
        return (m, k) if self.configure(m, k, scheme, capacity=int(n)) else None

    def _install(self, flt, capacity: int | None, announce: bool = True) -> None:
        self.aboutToReset.emit()
        self._flt = flt
        self._variant = getattr(flt, "variant", "standard")
        self._capacity = capacity
        k = flt.k
        self._fixed_k = self._variant != "scalable"
        dtype = np.uint32 if flt.m <= 1 << 32 else np.int64
        self._positions = _Rows(k, dtype) if self._fixed_k else None
        self._items: list = []
        # Without stored positions (a scalable filter) membership needs a set of the items' bytes.
        self._truth: set[bytes] | None = None if self._positions is not None else set()
        self._series = Series()
        self._history: list[HistoryEntry] = []
        self._counts = {TRUE_POSITIVE: 0, TRUE_NEGATIVE: 0, FALSE_POSITIVE: 0, MAYBE_PRESENT: 0}
        self._lookups = 0
        self._last: Explanation | None = None
        self._truth_known = True
        self._removed: dict[bytes, int] = {}          # removals of inserted items, per item (counting)
        self._last_block: int | None = None           # blocked: the block of the last operation
        self._stage_rows: dict[int, np.ndarray] = {}  # scalable: positions of each stage's items, on demand
        self._new_probes()
        if announce:
            self.filterReset.emit()
            self._explain_state("new filter", self._describe_filter())

    def _new_probes(self) -> None:
        probes = random_items(self._probe_count, seed=self._seed, prefix="p", exclude=self._items)
        self._probe_keys = set(to_bytes_list(probes))
        self._probes = probes
        self._tracker = self._make_tracker(self._flt, probes)
        self._fp_now = self._brute_fp() if self._tracker is None else self._tracker.fp_count

    @classmethod
    def _make_tracker(cls, flt, probes):
        """The exact measurement for this filter: FpTracker over one bit array, the stage-wise tracker for a
        scalable filter, or None (then every probe is tested after each operation)."""
        if getattr(flt, "variant", "standard") == "scalable":
            from bloomviz.measure.tracking import ScalableFpTracker
            return ScalableFpTracker(flt, probes)
        return FpTracker(flt, probes) if cls._has_bits(flt) else None

    @staticmethod
    def _has_bits(flt) -> bool:
        try:
            return flt.bits is not None and hasattr(flt, "insert_positions")
        except AttributeError:
            return False

    def _brute_fp(self) -> int:
        return int(np.count_nonzero(self._flt.contains_many(self._probes))) if self._probes else 0

    def set_probe_count(self, probes: int) -> bool:
        """Measure with a different number of probes (re-measures the current filter from its bits)."""
        from bloomviz.gui.window_limits import check_probes
        try:
            check_probes(int(probes) if isinstance(probes, np.integer) else probes)
        except ValueError as exc:
            self.error.emit(f"Refused: {exc}. Nothing was changed.")
            return False
        self._probe_count = int(probes)
        self._new_probes()
        self.notice.emit(f"measuring with {probes:,} probes from now on")
        return True

    def reset(self) -> None:
        """Empty the filter (same m, k, scheme): the bits, the truth set, the plot and the history."""
        self.cancel()
        self._flt.clear()
        self._install(self._flt, capacity=self._capacity)

    def install_filter(self, flt, capacity: int | None = None, items: Sequence[object] | None = None,
                       note: str = "") -> bool:
        """Show a filter made elsewhere (a loaded file). ``items``: what was inserted, when known.

        Without ``items`` the ground truth is unknown: a lookup that passes is "probably in the set" and cannot
        be called a true or a false positive. The measurement starts from the filter's bits either way.
        """
        if items is not None:
            try:
                datas = to_bytes_list(items)
            except TypeError as exc:
                self.error.emit(f"Refused: {exc}. Nothing was changed.")
                return False
        self.cancel()
        self._install(flt, capacity=capacity, announce=False)
        if items is not None:
            self._remember(list(items), datas, flt.positions_many(datas) if self._fixed_k else None)
        self._truth_known = items is not None
        if len(flt):
            # The path that led here is unknown: the plot starts with one point, the filter as it is now.
            fp = self._tracker.fp_count if self._tracker is not None else self._fp_now
            self._series.extend(**self._rows(np.array([len(flt)]), np.array([fp]), np.array([flt.bits_set])))
        self.filterReset.emit()
        self._explain_state("loaded filter", note or self._describe_filter())
        return True

    @property
    def truth_known(self) -> bool:
        """False for a filter loaded without its items: false positives cannot be told from true ones."""
        return self._truth_known

    def explain_note(self, title: str, text: str) -> None:
        """Show a text of the caller's (a scenario's story, an import's report) in the explain panel."""
        self._explain_state(str(title), str(text))

    def checkpoint(self) -> Checkpoint:
        """The current state, to go back to with ``rollback`` (the filter is copied, the rest are lengths)."""
        return Checkpoint(flt=self._flt.copy(), capacity=self._capacity, items=len(self._items),
                          positions=len(self._positions) if self._positions is not None else 0,
                          truth=set(self._truth) if self._truth is not None else None,
                          series=len(self._series), history=len(self._history), counts=dict(self._counts),
                          lookups=self._lookups, probes=self._probes, probe_keys=self._probe_keys,
                          seed=self._seed, fp_now=self._fp_now, last=self._last, removed=dict(self._removed))

    def snapshot(self):
        """The whole state, to put back with ``restore`` after another filter was shown (see workbench_snapshot)."""
        from bloomviz.gui import workbench_snapshot
        return workbench_snapshot.take(self)

    def restore(self, snap) -> None:
        from bloomviz.gui import workbench_snapshot
        workbench_snapshot.restore(self, snap)

    def rollback(self, cp: Checkpoint) -> None:
        """Put back the state of ``cp``: filter, truth, measurement, plot rows and history."""
        if self._job is not None and self._job.checkpoint is not cp:
            self.cancel()
        self.aboutToReset.emit()
        self._flt = cp.flt.copy()
        self._capacity = cp.capacity
        del self._items[cp.items:]
        if self._positions is not None:
            self._positions.truncate(cp.positions)
        if cp.truth is not None:
            self._truth = set(cp.truth)
        self._series.truncate(cp.series)
        del self._history[cp.history:]
        self._counts = dict(cp.counts)
        self._lookups = cp.lookups
        self._removed = dict(cp.removed)
        self._stage_rows = {}
        self._probes, self._probe_keys, self._seed = cp.probes, cp.probe_keys, cp.seed
        self._tracker = self._make_tracker(self._flt, self._probes)
        self._fp_now = self._brute_fp() if self._tracker is None else self._tracker.fp_count
        self._last = cp.last
        self.filterReset.emit()
        if self._last is not None:
            self.operationExplained.emit(self._last)

    # --- reading ---------------------------------------------------------------------------------------------
    @property
    def filter(self):
        """The filter itself, to read. Change it only through the workbench."""
        return self._flt

    @property
    def series(self) -> Series:
        return self._series

    @property
    def history(self) -> list[HistoryEntry]:
        return self._history

    @property
    def items(self) -> list:
        """Every insert, in order (an item inserted twice appears twice)."""
        return self._items

    @property
    def tracker(self) -> FpTracker | None:
        return self._tracker

    @property
    def probes(self) -> list:
        return self._probes

    @property
    def capacity(self) -> int | None:
        return self._capacity

    @property
    def busy(self) -> bool:
        return self._job is not None

    @property
    def last_explanation(self) -> Explanation | None:
        return self._last

    @property
    def variant(self) -> str:
        return self._variant

    def is_member(self, item: object) -> bool:
        return self._member(to_bytes(item))

    def _member(self, data: bytes, positions=None) -> bool:
        """Was ``data`` inserted? The stored rows of positions narrow it to a few candidates, compared exactly.

        (A Python set of a million items would cost ~100 MB and stall the event loop for ~50 ms each time it
        grows; a scan of the positions costs a few milliseconds per lookup.)"""
        if self._truth is not None:
            return data in self._truth
        if not len(self._positions):
            return False
        rows = self._positions.view()
        pos = np.asarray(positions if positions is not None else self._flt.positions(data), dtype=rows.dtype)
        candidates = np.flatnonzero((rows == pos).all(axis=1))
        inserted = sum(1 for i in candidates if to_bytes(self._items[i]) == data)
        return inserted > self._removed.get(data, 0)   # a counting filter's removals take inserts back

    def max_value(self) -> int:
        return int(getattr(self._flt, "max_counter", 1))

    def grid_values(self) -> np.ndarray:
        """One uint8 per cell: the bits (0/1) or, for a counting filter, the counters."""
        if hasattr(self._flt, "values_for_grid"):
            return np.asarray(self._flt.values_for_grid(), dtype=np.uint8)
        return bitstore.unpack(self._flt.bits)

    def cell_values(self, positions) -> np.ndarray:
        positions = np.asarray(positions, dtype=np.int64)
        counters = getattr(self._flt, "counters", None)
        if counters is not None:
            return np.asarray(counters)[positions].astype(np.uint8)
        if self._has_bits(self._flt):
            return bitstore.test_bits(self._flt.bits, positions).astype(np.uint8)
        return self.grid_values()[positions]

    def items_at_bit(self, index: int, limit: int = CULPRIT_LIMIT) -> tuple[list, int]:
        """The distinct inserted items whose positions include ``index`` (the first ``limit``) and their number.

        Past DEDUPE_LIMIT matching inserts (a tiny filter holding a huge stream) the count is of inserts, not of
        distinct items: telling repeats apart would cost a second per hover.
        """
        if self._variant == "scalable" and 0 <= index < self._flt.m:
            stage = self._flt.stage_of_bit(index)
            local = index - self._flt.stage_offsets()[stage]
            idx = np.flatnonzero((self._scalable_rows(stage) == local).any(axis=1))
            idx = idx + self._flt.stage_specs()[stage].start
        elif self._positions is None or not len(self._positions):
            return [], 0
        else:
            rows = self._positions.view()
            idx = np.flatnonzero((rows == index).any(axis=1))
        items = self._items
        first: dict[bytes, object] = {}   # an item inserted twice is named once
        for i in idx[:DEDUPE_LIMIT].tolist():
            data = to_bytes(items[i])
            if self._removed and data not in first and not self._member(data):
                continue   # removed since: it no longer holds this bit
            first.setdefault(data, items[i])
        names = list(first.values())
        total = len(names) if idx.size <= DEDUPE_LIMIT else int(idx.size)
        return names[:limit], total

    def hover_text(self, index: int) -> str:
        if not 0 <= index < self._flt.m:
            return ""
        value = int(self.cell_values([index])[0])
        name = "counter" if hasattr(self._flt, "counters") else "bit"
        where = self._where(index)
        items, total = self.items_at_bit(index)
        if not total:
            return f"{name} {index:,} = {value}{where}; no inserted item maps here"
        shown = ", ".join(describe(x, 30) for x in items)
        more = f", … (+{total - len(items):,} more)" if total > len(items) else ""
        return f"{name} {index:,} = {value}{where}; set by: {shown}{more}"

    def numbers(self) -> Numbers:
        flt = self._flt
        m, k, n = flt.m, flt.k, len(flt)
        x = flt.bits_set
        th = theory_many(m, k, np.array([n], dtype=float))
        fp_count = self._tracker.fp_count if self._tracker is not None else self._fp_now
        probes = len(self._probes)
        low, high = wilson(fp_count, probes)
        return Numbers(m=m, k=k, n=n, bits_set=x, p_zero=float(1.0 - th["fill_expected"][0]),
                       fp_exact=float(th["fp_exact"][0]), fp_now=(x / m) ** k if m else 0.0,
                       fp_count=fp_count, probes=probes, fp_low=low, fp_high=high,
                       n_estimated=float(flt.estimated_count), fp_classic=float(th["fp_classic"][0]))

    def status(self) -> dict:
        nums = self.numbers()
        scheme = self._flt.scheme
        return {"m": nums.m, "k": nums.k, "scheme": scheme, "scheme_title": hashing.SCHEMES[scheme].title,
                "variant": self._variant, "n": nums.n, "bits_set": nums.bits_set,
                "fill": nums.fill, "fp_measured": nums.fp_measured, "fp_low": nums.fp_low,
                "fp_high": nums.fp_high,
                # the variant's own theory (the standard formula's for the standard and counting filters)
                "fp_exact": nums.fp_exact if self._variant == "standard" else
                float(variant_theory(self._flt, [nums.n])[0]), "fp_now": nums.fp_now,
                "n_estimated": nums.n_estimated, "capacity": self._capacity, "probes": nums.probes,
                "lookups": self._lookups, "true_positives": self._counts[TRUE_POSITIVE],
                "true_negatives": self._counts[TRUE_NEGATIVE], "false_positives": self._counts[FALSE_POSITIVE],
                "busy": self.busy}

    # --- single operations -----------------------------------------------------------------------------------
    def _check(self, item: object) -> bytes | None:
        try:
            return check_item(item)
        except ItemError as exc:
            self.error.emit(f"Refused: {exc}. Nothing was changed.")
            return None

    def insert(self, item: object):
        """Insert one item; returns the core's Insertion, or None when refused (error emitted)."""
        data = self._check(item)
        if data is None:
            return None
        if self._variant == "scalable" and not self._flt.room():
            from bloomviz.gui.window_limits import growth_refusal
            refusal = growth_refusal(self._flt, 1)
            if refusal:
                self.error.emit(f"Refused: {refusal}. Nothing was changed.")
                return None
        if data in self._probe_keys:
            self._replace_probes(extra=(data,))
        was_member = self._member(data)
        flt = self._flt
        try:
            ins = flt.add(data)
        except ValueError as exc:   # a scalable filter that cannot open another stage
            self.error.emit(f"Refused: {exc}. Nothing was changed.")
            return None
        positions = tuple(int(p) for p in ins.positions)
        newly = [p for p, fresh in zip(positions, ins.newly_set) if fresh]
        new_stage = bool(getattr(ins, "new_stage", False))
        if self._variant == "scalable":
            fp = self._tracker.on_insertion(ins)
        elif self._tracker is not None:
            fp = self._tracker.on_insert(newly)
        else:
            fp = self._fp_now = self._brute_fp()
        self._series.extend(**self._rows(np.array([len(flt)]), np.array([fp]), np.array([flt.bits_set])))
        self._remember([item], [data], np.array([positions]) if self._fixed_k else None)
        kinds = tuple("new" if fresh else "old" for fresh in ins.newly_set)
        new_count = len(newly)
        label = describe(item, 60)
        text = (f"Inserted “{label}”: {new_count} of its {len(positions)} bits were 0 and are now 1"
                + (f", {len(positions) - new_count} were already 1." if new_count < len(positions) else ".")
                + (" (It was inserted before: nothing new.)" if was_member and not new_count else "")
                + self._insert_note(ins))
        self._append_history("insert", label, INSERTED, positions, 1, item)
        if new_stage:
            self.filterGrown.emit()   # the grid grew by a stage: redraw it at the new size
        else:
            changed = sorted(set(positions)) if hasattr(flt, "counters") else sorted(set(newly))
            self.bitsChanged.emit(np.array(changed, dtype=np.int64))
        self.highlighted.emit(np.array(positions, dtype=np.int64), kinds)
        self.seriesChanged.emit()
        self._explain_item("insert", item, data, INSERTED, text, positions, kinds, {},
                           variant_rows=self._variant_rows("insert", ins))
        return ins

    def lookup(self, item: object):
        """Look one item up; returns the core's Lookup, or None when refused. Classified against the truth."""
        data = self._check(item)
        if data is None:
            return None
        look = self._flt.lookup(data)
        positions = tuple(int(p) for p in look.positions)
        bits = tuple(int(b) for b in look.bits)
        label = describe(item, 60)
        k = len(positions)
        culprits: dict = {}
        staged = hasattr(look, "stage_of")   # a scalable filter: every stage's positions, one stage after another
        if staged:
            hits = set(look.hit_stages)
            in_hit = tuple(st in hits for st in look.stage_of)
            k = len(look.stages[look.hit_stages[0]].positions) if hits else k
        else:
            in_hit = (True,) * len(positions)
        if not look.maybe_present:
            verdict = TRUE_NEGATIVE
            zeros = [p for p, b in zip(positions, bits) if not b]
            others = f" (and {len(zeros) - 1} more of its bits are 0)" if len(zeros) > 1 else ""
            if staged:
                text = (f"“{label}” is definitely not in the set: every one of the {len(look.stages)} stages has a "
                        f"0 among its bits (first: bit {zeros[0]:,}). A member would have set all its bits in "
                        "the stage it went to.")
            else:
                text = (f"“{label}” is definitely not in the set: bit {zeros[0]:,} is 0{others}. "
                        "A member would have set all its bits.")
            kinds = tuple("one" if b else "zero" for b in bits)
        elif not self._truth_known and not self._member(data, positions):
            verdict = MAYBE_PRESENT
            text = (f"“{label}” is probably in the set: all k = {k} bits are set. (This filter was loaded "
                    "without its items, so whether it is a true or a false positive cannot be told.)")
            kinds = tuple("one" if b else "zero" for b in bits)
        elif self._member(data, positions):
            verdict = TRUE_POSITIVE
            text = (f"“{label}” is probably in the set: all k = {k} bits are set"
                    + (f" in stage {look.hit_stages[0]}" if staged else "")
                    + ". (It was inserted, so this is a true positive.)")
            kinds = tuple("one" if b else "zero" for b in bits)
        else:
            verdict = FALSE_POSITIVE
            for p, hit in zip(positions, in_hit):
                if hit and p not in culprits:
                    culprits[p] = self.items_at_bit(p)
            parts = []
            for p, (names, total) in culprits.items():
                shown = ", ".join(f"“{describe(x, 24)}”" for x in names[:3])
                more = f" +{total - min(total, 3):,} more" if total > 3 else ""
                parts.append(f"bit {p:,} by {shown}{more}" if total else f"bit {p:,} (no recorded item)")
            where = f" in stage {look.hit_stages[0]}" if staged else ""
            text = (f"FALSE POSITIVE: “{label}” was never inserted, yet all k = {k} bits are set{where} — "
                    + "; ".join(parts) + ".")
            kinds = tuple("culprit" if hit else ("one" if b else "zero") for hit, b in zip(in_hit, bits))
        self._lookups += 1
        self._counts[verdict] += 1
        self._append_history("lookup", label, verdict, positions, 1, item)
        self.highlighted.emit(np.array(positions, dtype=np.int64), kinds)
        self._explain_item("lookup", item, data, verdict, text, positions, kinds, culprits,
                           variant_rows=self._variant_rows("lookup", look))
        return look

    # --- batches ---------------------------------------------------------------------------------------------
    def insert_batch(self, items: Sequence[object]) -> int:
        """Insert a batch now, all or nothing. Returns the number inserted (0 and error() when refused)."""
        items = items if isinstance(items, list) else list(items)
        if not items:
            return 0
        try:
            datas = to_bytes_list(items)
        except TypeError as exc:
            self.error.emit(f"Refused: {exc}. Nothing was changed.")
            return 0
        lens = np.fromiter(map(len, datas), dtype=np.int64, count=len(datas))
        bad = np.flatnonzero((lens == 0) | (lens > MAX_ITEM_BYTES))
        if bad.size:
            i = int(bad[0])
            try:
                check_item(datas[i])
            except ItemError as exc:
                self.error.emit(f"Refused a batch of {len(items):,} items: item {i + 1:,}: {exc}. "
                                "Nothing from this batch was inserted.")
            return 0
        if self._variant == "scalable":
            from bloomviz.gui.window_limits import growth_refusal
            refusal = growth_refusal(self._flt, len(datas))
            if refusal:
                self.error.emit(f"Refused a batch of {len(items):,} items: {refusal}. Nothing was changed.")
                return 0
        if not self._probe_keys.isdisjoint(datas):
            self._replace_probes(extra=datas)
        flt = self._flt
        n0 = len(flt)
        m0 = flt.m
        if self._variant == "scalable":
            try:
                fp, bits_set = self._tracker.insert_items(datas)
            except ValueError as exc:   # a stage beyond the limits: refused before any insert
                self.error.emit(f"Refused a batch of {len(items):,} items: {exc}. Nothing was changed.")
                return 0
            pos = None
            changed = None
            n = np.arange(n0 + 1, n0 + len(datas) + 1)
            self._series.extend(**self._rows(n, fp, bits_set))
        elif self._tracker is not None:
            pos = flt.positions_many(datas)
            flat = pos.ravel()
            if self._job is not None:
                changed = None     # a job's chunks come faster than a grid redraws: say "everything"
            elif hasattr(flt, "counters"):
                changed = sorted_unique(flat)
            else:
                changed = sorted_unique(flat[bitstore.test_bits(flt.bits, flat) == 0])
            fp, bits_set = self._tracker.insert_batch(pos, flt)   # the commit: nothing below can refuse
            n = np.arange(n0 + 1, n0 + len(datas) + 1)
            self._series.extend(**self._rows(n, fp, bits_set))
        else:
            pos = flt.positions_many(datas) if self._fixed_k else None
            flt.update(datas)
            changed = None
            self._fp_now = self._brute_fp()
            self._series.extend(**self._rows(np.array([len(flt)]), np.array([self._fp_now]),
                                             np.array([flt.bits_set])))
        self._remember(items, datas, pos)
        label = f"{len(items):,} items, from “{describe(items[0], 24)}”"
        self._append_history("insert batch", label, INSERTED, (), len(items))
        if flt.m != m0:
            self.filterGrown.emit()   # a scalable filter opened stages: the grid is larger
        else:
            self.bitsChanged.emit(changed)
        self.highlighted.emit(np.zeros(0, dtype=np.int64), ())
        self.seriesChanged.emit()
        self._explain_state("insert batch", f"Inserted a batch of {len(items):,} items "
                                            f"(n = {len(flt):,} inserts in all).", count=len(items))
        return len(items)

    def insert_many(self, items: Iterable[object], label: str = "items") -> bool:
        """Start inserting ``items`` in chunks from the event loop. Returns False when work is already running."""
        items = items if isinstance(items, list) else list(items)
        pos = [0]

        def source(count: int) -> list:
            chunk = items[pos[0]: pos[0] + count]
            pos[0] += len(chunk)
            return chunk

        return self.run_job(source, len(items), label)

    def run_job(self, source: Callable[[int], Sequence[object]], total: int, label: str = "items",
                atomic: bool = False, progress_of: Callable[[], tuple[int, int]] | None = None) -> bool:
        """Insert ``total`` items drawn from ``source(count)`` in chunks, one chunk per event-loop turn.

        ``source`` may raise ``OSError``/``ValueError`` (a file gone bad mid-way): the job ends, reported by
        ``error``. With ``atomic`` a cancel, a refusal or such a failure puts everything back as it was before
        the job (an import is all or nothing); without it, the chunks committed so far stay.
        """
        if self._job is not None:
            self.error.emit("Another bulk insert is running; cancel it first.")
            return False
        self._job = _Job(source, int(total), label, self.checkpoint() if atomic else None, progress_of)
        self._reserve(int(total) if progress_of is None else 0)
        self.busyChanged.emit(True)
        self.progress.emit(*self._job_progress(self._job))
        self._timer.start()
        return True

    def run_steps(self, step: Callable[[int], int], total: int, label: str) -> bool:
        """Run ``step(count)`` from the event loop until it returns 0: each call makes up to ``count`` operations
        through the workbench and returns how many it made. Progress, Cancel and ``busy`` as for bulk inserts;
        what a cancel should undo is the caller's (``jobFinished`` says it was cancelled)."""
        if self._job is not None:
            self.error.emit("Another bulk insert is running; cancel it first.")
            return False
        job = self._job = _Job(lambda count: (), int(total), label)
        job.step, job.chunk, job.min_chunk = step, 8, 1
        self.busyChanged.emit(True)
        self.progress.emit(0, job.total)
        self._timer.start()
        return True

    def _job_tick(self) -> None:
        job = self._job
        if job is None:
            self._timer.stop()
            return
        started = time.perf_counter()
        if started - job.last_frame >= FRAME_INTERVAL_S and job.done:
            # Every so often a turn of the loop goes to the window's redraws instead of to a chunk, so that a
            # chunk and a redraw never add up in one turn.
            job.last_frame = started
            self.jobFrame.emit()
            return
        want = min(job.chunk, job.total - job.done)
        if job.step is not None:
            inserted = job.step(want) if want > 0 else 0
            if not inserted:
                self._finish_job(cancelled=False)
                return
            items = None
        else:
            try:
                items = list(job.source(want)) if want > 0 else []
            except (OSError, ValueError) as exc:
                self.error.emit(f"Bulk insert of {job.label} stopped: {exc}")
                self._finish_job(cancelled=True, reason="failed")
                return
            if not items:
                self._finish_job(cancelled=False)
                return
            inserted = self.insert_batch(items)
        if inserted == 0:
            self._finish_job(cancelled=True, reason="refused")
            return
        job.done += inserted
        per_item = (time.perf_counter() - started) / inserted
        # Smooth the estimate (one slow chunk, e.g. a garbage collection, should not halve the next one) and
        # grow the chunk gently, so that no single turn of the event loop runs long.
        job.per_item = per_item if job.per_item is None else 0.6 * job.per_item + 0.4 * per_item
        want_next = TARGET_TICK_S / max(job.per_item, 1e-9)
        job.chunk = int(min(MAX_CHUNK, job.chunk * 1.5 + 1, max(job.min_chunk, want_next)))
        self.progress.emit(*self._job_progress(job))
        # The end is announced on the next turn of the loop, not in this one: the redraws it triggers then run
        # in a turn of their own instead of adding to this chunk's.

    @staticmethod
    def _job_progress(job: _Job) -> tuple[int, int]:
        return (job.done, job.total) if job.progress_of is None else job.progress_of()

    def _finish_job(self, cancelled: bool, reason: str = "cancelled") -> None:
        job = self._job
        self._timer.stop()
        self._job = None
        elapsed = time.perf_counter() - job.started
        of = f" of {job.total:,}" if job.progress_of is None else ""
        if cancelled and job.checkpoint is not None:
            self.rollback(job.checkpoint)
            self.notice.emit(f"Bulk insert {reason} after {job.done:,}{of} {job.label}; everything "
                             "was put back as it was before it started.")
        elif cancelled:
            self.notice.emit(f"Bulk insert {reason} after {job.done:,}{of} {job.label}; the filter, "
                             f"plot and history hold exactly those {job.done:,}.")
        else:
            self.notice.emit(f"Inserted {job.done:,} {job.label} in {elapsed:.2f} s.")
        self.busyChanged.emit(False)
        self.jobFinished.emit(job.done, job.total, cancelled)

    def cancel(self) -> None:
        """Stop bulk work between chunks (everything committed so far stays, consistently)."""
        if self._job is not None:
            self._finish_job(cancelled=True)

    # --- variants --------------------------------------------------------------------------------------------
    def variant_title(self) -> str:
        from bloomviz.filters.registry import TITLES
        return TITLES.get(self._variant, self._variant)

    def can_remove(self) -> bool:
        """Whether the filter supports removal (a counting filter)."""
        return hasattr(self._flt, "remove")

    def removal_question(self, item: object) -> str | None:
        """The question to ask before ``remove(item, force=True)`` when a plain removal would be refused because
        the item was never inserted (yet all its counters are above 0); None when no question is needed."""
        try:
            data = check_item(item)
        except ItemError:
            return None
        if not self.can_remove() or self._member(data) or not self._truth_known or data not in self._flt:
            return None
        return (f"“{describe(item, 40)}” was never inserted, but all its {self._flt.k} counters are above 0 "
                "(it is a false positive). Removing it decrements counters that belong to other items, which "
                "may then test negative: false negatives. Remove it anyway?")

    def remove(self, item: object, force: bool = False):
        """Remove one item from a counting filter; returns the core's Removal, or None when refused.

        Refused (error emitted, nothing changed): a filter without removal; an item with a counter at 0
        ("definitely not in the set"); an item never inserted, unless ``force``. A forced removal decrements
        counters of other items: the inserted items that then test negative are named (history, explanation,
        grid). Saturated counters are never decremented.
        """
        data = self._check(item)
        if data is None:
            return None
        flt = self._flt
        label = describe(item, 60)
        if not self.can_remove():
            self.error.emit(f"Refused: a {self._variant} filter cannot remove items (its bits are shared by many "
                            "items); choose the counting variant to remove. Nothing was changed.")
            return None
        member = self._member(data)
        if not member and data not in flt:
            # A counter at 0: nothing of this item is in the filter, and no confirmation could change that.
            self.error.emit(f"Refused: “{label}” is definitely not in the set (one of its counters is 0): there "
                            "is nothing to remove. Nothing was changed.")
            return None
        if not member and self._truth_known and not force:
            self.error.emit(f"Refused: “{label}” was never inserted. Removing it would decrement counters that "
                            "belong to other items and could cause false negatives; confirm to force it. "
                            "Nothing was changed.")
            return None
        try:
            rem = flt.remove(data, force=bool(force) and not member)
        except ValueError as exc:
            self.error.emit(f"Refused: {exc}.")
            return None
        if member:
            self._removed[data] = self._removed.get(data, 0) + 1
        cleared = rem.cleared
        if cleared and self._tracker is not None:
            self._tracker.rebuild(flt)   # bits went 1 -> 0: probes may have stopped passing
        elif self._tracker is None:
            self._fp_now = self._brute_fp()
        fp = self._tracker.fp_count if self._tracker is not None else self._fp_now
        self._series.extend(**self._rows(np.array([len(flt)]), np.array([fp]), np.array([flt.bits_set])))
        lost = self._false_negatives(cleared)
        positions = tuple(int(p) for p in rem.positions)
        kinds = tuple("stuck" if p in rem.stuck else ("cleared" if a == 0 else "removed")
                      for p, a in zip(positions, rem.after))
        verdict = REMOVED if member else FORCED_REMOVAL
        changes = ", ".join(f"{p:,}: {b}→{a}" for p, b, a in zip(positions, rem.before, rem.after))
        text = f"Removed “{label}”: counters {changes}."
        if rem.stuck:
            text += (f" Counter{'s' if len(rem.stuck) > 1 else ''} at {', '.join(f'{p:,}' for p in rem.stuck)} "
                     f"{'are' if len(rem.stuck) > 1 else 'is'} saturated at {flt.max_counter} and never "
                     "decremented: the filter no longer knows how many items share it.")
        note = ""
        if not member:
            text = "FORCED: " + text + " It was never inserted, so these counters belonged to other items."
        if lost:
            shown = ", ".join(f"“{describe(x, 24)}”" for x in lost[:FALSE_NEGATIVE_LIMIT])
            more = f" and {len(lost) - FALSE_NEGATIVE_LIMIT:,} more" if len(lost) > FALSE_NEGATIVE_LIMIT else ""
            note = (f"{len(lost):,} FALSE NEGATIVE{'S' if len(lost) > 1 else ''}: inserted, now testing "
                    f"negative: {shown}{more}")
            text += " " + note + "."
        elif not member:
            text += " No inserted item tests negative afterwards."
        self._append_history("remove", label, verdict, positions, 1, item, note=note, false_negatives=lost)
        self.bitsChanged.emit(np.array(sorted(set(positions)), dtype=np.int64))
        marks = list(positions)
        mark_kinds = list(kinds)
        for x in lost[:FALSE_NEGATIVE_LIMIT]:
            for p in flt.positions(x):
                if p in cleared:
                    marks.append(int(p))
                    mark_kinds.append("lost")
        self.highlighted.emit(np.array(marks, dtype=np.int64), tuple(mark_kinds))
        self.seriesChanged.emit()
        rows = [("counters before → after", changes),
                ("rule", f"each of the k = {flt.k} counters goes down by one; a counter at "
                         f"2^{flt.counter_bits} − 1 = {flt.max_counter} is saturated and stays")]
        if cleared:
            rows.append(("counters now 0", ", ".join(f"{p:,}" for p in cleared)))
        self._explain_item("remove", item, data, verdict, text, positions, kinds, {}, variant_rows=rows)
        return rem

    def _false_negatives(self, cleared) -> list:
        """Inserted (and not removed) items that test negative now; only items with a position among the
        counters that just reached 0 can have changed."""
        if not cleared or self._positions is None or not len(self._positions):
            return []
        rows = self._positions.view()
        hit = np.flatnonzero(np.isin(rows, np.asarray(cleared, dtype=rows.dtype)).any(axis=1))
        if not hit.size:
            return []
        negative = ~self._flt.test_positions(rows[hit].astype(np.int64))
        out: dict[bytes, object] = {}
        for i in hit[negative].tolist():
            item = self._items[i]
            data = to_bytes(item)
            if data not in out and self._member(data):
                out[data] = item
        return list(out.values())

    def _insert_note(self, ins) -> str:
        flt = self._flt
        if self._variant == "counting":
            top = flt.max_counter
            stuck = sorted({p for p, c in zip(ins.positions, ins.counters) if c == top})
            if stuck:
                return (f" Counter{'s' if len(stuck) > 1 else ''} {', '.join(f'{p:,}' for p in stuck)} "
                        f"{'are' if len(stuck) > 1 else 'is'} saturated at {top}: never counted further, never "
                        "decremented.")
        if self._variant == "scalable" and getattr(ins, "new_stage", False):
            st = flt.stages[ins.stage]
            return (f" Stage {ins.stage - 1} was full, so this insert opened stage {ins.stage} "
                    f"(m = {st.m:,} bits, k = {st.k}): the grid grew.")
        return ""

    def _variant_rows(self, op: str, result) -> tuple[tuple[str, str], ...]:
        """What the variant did with one item, in words and numbers."""
        flt, v = self._flt, self._variant
        rows: list[tuple[str, str]] = []
        try:
            if v == "counting":
                rows.append(("counters at the k positions" + (" (after +1)" if op == "insert" else ""),
                             ", ".join(f"{p:,}: {c}" for p, c in zip(result.positions, result.counters))))
                rows.append(("saturation", f"c = {flt.counter_bits} bits per counter: at most 2^{flt.counter_bits}"
                                           f" − 1 = {flt.max_counter}; {flt.saturated_count:,} counters are "
                                           "saturated now"))
            elif v == "scalable":
                if op == "insert":
                    st, spec = flt.stages[result.stage], flt.stage_specs()[result.stage]
                    rows.append(("stage chosen", f"stage {result.stage}, the newest (inserts always go there): "
                                                 f"{len(st):,} of {spec.capacity:,} items, bits "
                                                 f"{result.offset:,}…{result.offset + st.m - 1:,}"))
                    rows.append(("grid position = stage start + position in the stage",
                                 ", ".join(f"{result.offset:,} + {p:,}" for p in result.local_positions)))
                else:
                    for i, look in enumerate(result.stages):
                        zero = look.zero_positions
                        verdict = "all bits set" if look.maybe_present else \
                            f"bit {result.offsets[i] + zero[0]:,} is 0"
                        rows.append((f"stage {i} (k = {len(look.positions)})", verdict))
            elif v == "partitioned":
                s = flt.slice_bits
                rows.append((f"slice i = [i·{s:,}, (i+1)·{s:,}): one position each",
                             ", ".join(f"slice {p // s}: {p:,}" for p in result.positions)))
            elif v == "blocked":
                b = flt.block_bits
                block = int(result.positions[0]) // b
                self._last_block = block
                rows.append(("block chosen (h_0 mod b)", f"block {block:,} of {flt.blocks:,}: bits "
                                                         f"{block * b:,}…{block * b + b - 1:,}"))
                rows.append(("offsets inside the block (h_i mod B)",
                             ", ".join(f"{p - block * b}" for p in result.positions)))
        except Exception:  # an explanation is a courtesy: never let it break an operation
            return ()
        return tuple(rows)

    def _theory_rows(self) -> tuple[tuple[str, str], ...]:
        """The variant's own theory with the current numbers plugged in (empty for the standard filter)."""
        flt, v = self._flt, self._variant
        n = len(flt)
        try:
            if v == "counting":
                # A counter sticks at its top value 2^c − 1 (15 for 4 bits): that, not 2^c, is the value whose
                # probability matters here, so Fan et al.'s bound P(count ≥ j) ≤ (e·k·n/(j·m))^j is taken at it.
                m, k, j = flt.m, flt.k, flt.max_counter
                stuck = min(1.0, (math.e * k * n / (j * m)) ** j) if n else 0.0
                return (("theory, exact (a counter above 0 is a set bit)",
                         f"E[(X/m)^k] = {float(variant_theory(flt, [n])[0]):.4g}"),
                        (f"P(a given counter reaches 2^c − 1 = {j} and sticks)",
                         f"≤ (e·k·n / (j·m))^j = (e·{k}·{n:,} / ({j}·{m:,}))^{j} = {stuck:.3g}"),
                        ("counters now", f"highest {flt.highest_counter}, saturated {flt.saturated_count:,}"))
            if v == "scalable":
                specs = flt.stage_specs()
                rows = [("stages", f"{len(specs)}; stage i holds n₀·s^i = {flt.initial_capacity:,}·{flt.growth}^i "
                                   f"items at error p₀·r^i = {flt.first_error:.3g}·{flt.tightening:g}^i"),
                        ("compound bound", f"Σ p_i = p₀/(1 − r) = {flt.first_error:.3g}/(1 − {flt.tightening:g}) "
                                           f"= {flt.p:g}"),
                        ("theory now", f"1 − Π_i (1 − FP_i) = {float(variant_theory(flt, [n])[0]):.4g}")]
                for i, (st, spec) in enumerate(list(zip(flt.stages, specs))[-6:], start=max(0, len(specs) - 6)):
                    rows.append((f"stage {i}", f"m = {st.m:,}, k = {st.k}, {len(st):,}/{spec.capacity:,} items, "
                                               f"fill {st.fill_ratio * 100:.1f}%, error ≤ {spec.error:.3g}"))
                return tuple(rows)
            if v == "partitioned":
                m, k = flt.m, flt.k
                return (("slices", f"k = {k} slices of s = m/k = {m:,}/{k} = {flt.slice_bits:,} bits"),
                        ("theory", f"(1 − (1 − k/m)^n)^k = (1 − (1 − {k}/{m:,})^{n:,})^{k} = "
                                   f"{float(variant_theory(flt, [n])[0]):.4g}"),
                        ("standard filter, same m and k", f"{float(theory_many(m, k, np.array([n], float))['fp_exact'][0]):.4g}"))
            if v == "blocked":
                m, k, b = flt.m, flt.k, flt.block_bits
                return (("blocks", f"b = m/B = {m:,}/{b} = {flt.blocks:,} blocks of B = {b} bits (one cache line "
                                   "at 512)"),
                        ("load of a block", f"Binomial(n, B/m): mean n·B/m = {n * b / m:.2f} items"),
                        ("theory", f"Σ_i P(load i)·f(B, k, i) = {float(variant_theory(flt, [n])[0]):.4g}"),
                        ("standard filter, same m and k", f"{float(theory_many(m, k, np.array([n], float))['fp_exact'][0]):.4g}"))
        except Exception:  # an explanation is a courtesy
            return ()
        return ()

    def grid_bands(self) -> list[tuple[int, int, str]]:
        """Index ranges of the grid to outline and label: a scalable filter's stages, a partitioned filter's
        slices, a blocked filter's blocks (all of them when few, else the block of the last operation)."""
        flt, v = self._flt, self._variant
        if v == "scalable":
            specs = flt.stage_specs()
            return [(off, off + st.m, f"stage {i}: {len(st):,}/{spec.capacity:,} items, fill "
                                      f"{st.fill_ratio * 100:.0f}%")
                    for i, (st, spec, off) in enumerate(zip(flt.stages, specs, flt.stage_offsets()))]
        if v == "partitioned":
            s = flt.slice_bits
            fills = flt.slice_fills()
            return [(i * s, (i + 1) * s, f"slice {i}: {fills[i] * 100:.0f}%") for i in range(flt.k)]
        if v == "blocked":
            b = flt.block_bits
            if flt.blocks <= 16:
                counts = flt.block_counts()
                return [(i * b, (i + 1) * b, f"block {i}: {counts[i] / b * 100:.0f}%") for i in range(flt.blocks)]
            block = getattr(self, "_last_block", None)
            if block is not None and block < flt.blocks:
                return [(block * b, (block + 1) * b, f"block {block:,} of {flt.blocks:,}")]
        return []

    def bound_line(self) -> tuple[float, str] | None:
        """A horizontal reference for the rate plot: a scalable filter's compound bound p = p₀/(1 − r)."""
        flt = self._flt
        if self._variant == "scalable":
            return flt.p, f"bound p₀/(1 − r) = {flt.first_error:.3g}/(1 − {flt.tightening:g}) = {flt.p:g}"
        return None

    def _where(self, index: int) -> str:
        """Where a cell lies in the variant's layout (stage, slice, block), for the hover."""
        flt, v = self._flt, self._variant
        if v == "scalable":
            i = flt.stage_of_bit(index)
            return f" (stage {i}, its bit {index - flt.stage_offsets()[i]:,})"
        if v == "partitioned":
            return f" (slice {index // flt.slice_bits})"
        if v == "blocked":
            return f" (block {index // flt.block_bits:,})"
        if v == "counting":
            value = int(self.cell_values([index])[0])
            return f" (of at most {flt.max_counter}: saturated, never decremented)" if value == flt.max_counter \
                else f" (of at most {flt.max_counter})"
        return ""

    def _scalable_rows(self, stage: int) -> np.ndarray:
        """Positions (the stage's own) of the items inserted into one stage, computed once per stage."""
        flt = self._flt
        spec, st = flt.stage_specs()[stage], flt.stages[stage]
        rows = self._stage_rows.get(stage)
        have = 0 if rows is None else rows.shape[0]
        if have < len(st):
            fresh = st.positions_many(self._items[spec.start + have: spec.start + len(st)])
            rows = fresh if rows is None else np.concatenate([rows, fresh])
            self._stage_rows[stage] = rows
        # An empty stage has no rows yet: an empty table, not None (hovering an empty filter raised).
        return rows if rows is not None else np.zeros((0, st.k), dtype=np.int64)

    # --- bookkeeping -----------------------------------------------------------------------------------------
    def _reserve(self, extra: int) -> None:
        # Growing arrays double when full, and one doubling of a million-row series copies ~80 MB in one chunk:
        # a visible stall. Make room for a whole job before it starts instead.
        if self._positions is not None:
            self._positions.reserve(extra)
        if extra > 10_000:
            old = self._series
            grown = Series(capacity=len(old) + extra)
            if len(old):
                grown.extend(**{c: old.column(c) for c in Series.COLUMNS})
            self._series = grown
            self.seriesReplaced.emit()

    def _rows(self, n: np.ndarray, fp: np.ndarray, bits_set: np.ndarray) -> dict:
        flt = self._flt
        rows = series_rows(flt.m, flt.k, n, fp, len(self._probes), bits_set)
        if self._variant != "standard":
            # Variants have their own theory; only the exact column is theirs. A counting filter is a standard
            # filter to a lookup (a counter > 0 is a set bit), so the standard formulas stay beside it; for the
            # others they would describe a different filter (the standard "bound" sat below a blocked filter's
            # rate): NaN, not drawn.
            rows["fp_exact"] = variant_theory(flt, n)
            if not standard_formulas_apply(flt):
                for key in ("fp_classic", "fp_approx", "fp_bound"):
                    rows[key] = np.full(len(n), np.nan)
        return rows

    def _remember(self, items: Sequence[object], datas: Sequence[bytes], positions) -> None:
        if self._truth is not None:
            self._truth.update(datas)
        self._items.extend(items)
        if positions is not None and self._positions is not None:
            self._positions.extend(positions)

    def _replace_probes(self, extra: Iterable[bytes]) -> None:
        # A probe that becomes a member is no longer a fair probe: draw a new probe set that excludes the truth and
        # the items about to be inserted, and measure it against the current bits.
        self._seed += 1
        exclude = itertools.chain(self._items, extra)
        probes = random_items(self._probe_count, seed=self._seed, prefix="p", exclude=exclude)
        self._probes = probes
        self._probe_keys = set(to_bytes_list(probes))
        self._tracker = self._make_tracker(self._flt, probes)
        self._fp_now = self._brute_fp() if self._tracker is None else self._tracker.fp_count
        self.notice.emit("That item was one of the measurement's probes; the probes were redrawn.")

    def _append_history(self, op: str, label: str, verdict: str, positions: tuple, count: int,
                        item: object = None, note: str = "", false_negatives: tuple = ()) -> None:
        nums_fp = self._tracker.fp_count if self._tracker is not None else self._fp_now
        probes = len(self._probes)
        entry = HistoryEntry(index=len(self._history) + 1, op=op, label=label, verdict=verdict,
                             positions=positions, count=count, n=len(self._flt), lookups=self._lookups,
                             true_positives=self._counts[TRUE_POSITIVE],
                             true_negatives=self._counts[TRUE_NEGATIVE],
                             false_positives=self._counts[FALSE_POSITIVE], fill=self._flt.fill_ratio,
                             fp_measured=nums_fp / probes if probes else 0.0, item=item, note=note,
                             false_negatives=tuple(false_negatives))
        self._history.append(entry)
        self.historyAppended.emit(entry)

    def _hash_rows(self, item: object, data: bytes) -> tuple:
        flt = self._flt
        try:
            rows = flt.explain(data) if hasattr(flt, "explain") else flt.scheme_obj.explain(data, flt.m, flt.k)
        except Exception:  # an explanation is a courtesy: never let it break an operation
            rows = []
        return tuple((str(a), str(b)) for a, b in rows)

    def _explain_item(self, op, item, data, verdict, text, positions, kinds, culprits,
                      variant_rows: Sequence[tuple[str, str]] = ()) -> None:
        flt = self._flt
        rows = tuple(variant_rows) + self._theory_rows()
        self._last = Explanation(op=op, label=describe(item, 80), verdict=verdict, verdict_text=text,
                                 data_hex=hex_preview(data), data_len=len(data),
                                 hash_rows=self._hash_rows(item, data), positions=positions, kinds=kinds,
                                 culprits=culprits, scheme_title=flt.scheme_obj.title, numbers=self.numbers(),
                                 variant_title=self.variant_title() if rows else "", variant_rows=rows)
        self.operationExplained.emit(self._last)

    def _explain_state(self, op: str, text: str, count: int = 0) -> None:
        rows = self._theory_rows()
        self._last = Explanation(op=op, label="", verdict="", verdict_text=text,
                                 scheme_title=self._flt.scheme_obj.title, numbers=self.numbers(), count=count,
                                 variant_title=self.variant_title() if rows else "", variant_rows=rows)
        self.operationExplained.emit(self._last)

    def _describe_filter(self) -> str:
        flt = self._flt
        cap = f", designed for n = {self._capacity:,}" if self._capacity else ""
        if self._variant == "scalable":
            return (f"A new empty scalable filter: stage 0 of m = {flt.m:,} bits, k = {flt.k}, holding "
                    f"{flt.initial_capacity:,} items; the rate stays under p = {flt.p:g} as stages are added "
                    f"(growth {flt.growth}, tightening {flt.tightening:g}); scheme {flt.scheme_obj.title}.")
        kind = {"standard": "filter", "counting": f"counting filter ({flt_counter_bits(flt)}-bit counters)",
                "partitioned": f"partitioned filter ({flt.k} slices)",
                "blocked": f"blocked filter ({getattr(flt, 'blocks', 0):,} blocks of "
                           f"{getattr(flt, 'block_bits', 0)} bits)"}.get(self._variant, f"{self._variant} filter")
        return (f"A new empty {kind}: m = {flt.m:,} {'counters' if self._variant == 'counting' else 'bits'}, "
                f"k = {flt.k} hash functions, scheme {flt.scheme_obj.title}{cap}.")
