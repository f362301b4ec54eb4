"""The window's model, without Qt: the filter, the truth, the live measurement and the history.

Views never touch a filter: they call the model (``insert``, ``lookup``, ``configure`` ...) and the model tells
its listeners what happened, through the ``Event``s in ``model.events``:

- ``operated(Operation)``     one per insert, lookup, removal or batch: everything it changed, in one record;
- ``about_to_reset()``         the history, series and filter are about to be replaced or cut back;
- ``reset(note)``              a new, cleared, loaded or restored filter: redraw everything (``note``: a
                               ``StateNote`` to explain, or the last operation's record, or None);
- ``noted(StateNote)``         a text to show (a scenario's story), or a batch's summary;
- ``busy_changed(bool)``, ``progress(done, total)``, ``frame()``, ``job_finished(done, total, cancelled)``;
- ``error(str)``               a refused operation (nothing was changed); ``notice(str)`` information.

Long work is a ``Job`` advanced by ``step_job()``; whoever owns a clock calls it (the Qt adapter from a
zero-delay timer). Words about operations are built from the records by ``bloomviz.explain``.

The plot's ``series`` holds one row per insert up to ``DENSE_ROWS`` inserts; past that a batch keeps only the
rows whose n is a multiple of ``THIN_EVERY``, plus its own last row, so the newest row is always the current n.
Each kept row is the exact row (the measured count, the exact rate and the fill at that n), only fewer of them:
the plot has fewer pixels than rows anyway, and 10^7 inserts keep about 1.1 million rows (~26 MB: a row holds
its three measured numbers, and the theory and interval are computed for the rows drawn or read,
``measure.pipeline.MeasuredSeries``) instead of 10^7 (~240 MB). Single operations keep every row. Sessions replay
operations and the history keeps its own entries, so neither depends on the rows kept.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterable, Sequence

import numpy as np

from bloomviz.vocabulary import Verdict
from bloomviz.filters import capabilities
from bloomviz.filters import bitstore
from bloomviz.hashing import schemes as hashing
from bloomviz.items.encoding import to_bytes, to_bytes_list
from bloomviz.filters.registry import standard_formulas_apply
from bloomviz.workbench import jobs, limits
from bloomviz.workbench.building import build_filter
from bloomviz.workbench.events import Events
from bloomviz.workbench.measurement import DEFAULT_PROBES, DEFAULT_SEED, PROBE_PREFIX, ProbeSet, has_bits
from bloomviz.workbench.jobs import Jobs
from bloomviz.workbench.operations import Operations
from bloomviz.workbench.records import Numbers, StateNote
from bloomviz.workbench.state import State
from bloomviz.workbench.truth import Truth
from bloomviz.workbench.undo import Checkpoint, Snapshot, Undo, UndoStack, checkpoint, cut_back, revive, snapshot

DENSE_ROWS = 1_000_000   # every insert keeps its plot row up to this n
THIN_EVERY = 100         # past DENSE_ROWS, a batch keeps the rows at multiples of this n (and its last row)


class Workbench:
    def __init__(self, *, probes: int = DEFAULT_PROBES, seed: int = DEFAULT_SEED, probe_prefix: str = PROBE_PREFIX,
                 undo: bool = True, grid: bool = True, first=None):
        """``probe_prefix``: what the probes are named (a lesson's are "probe:…"); ``undo=False``: no undo step is
        kept per operation (a lesson goes back by whole steps, from its own checkpoints); ``grid=False``: a batch's
        record does not list the cells it changed (no grid redraws from it: a lesson's grid is drawn from its
        filter); ``first``: the empty filter to start with, instead of the window's default design."""
        self.events = Events()
        self.undo_stack = UndoStack() if undo else UndoStack(depth=0, budget=0)
        self._probe_prefix = probe_prefix
        self.for_grid = grid      # (read by the operations)
        self._numbers_of = self._numbers_key = self._numbers = None   # numbers(): the last answer and its counts
        self._probe_count, self._seed = int(probes), int(seed)
        # its parts, each handed what it acts on: the undo steps, the one job, the operations
        self._undo = Undo(self, self.undo_stack, revive=self._revive)
        self._jobs = Jobs(self, undo=self._undo)
        self._ops = Operations(self, undo=self._undo, extend_series=extend_series)
        if first is not None:
            self._install(first, capacity=None, announce=False)
            return
        m, k = limits.design_params(*limits.DEFAULT_DESIGN)
        self._install(build_filter("standard", {"m": m, "k": k, "scheme": hashing.DEFAULT_SCHEME}),
                      capacity=limits.DEFAULT_DESIGN[0], announce=False)

    @contextmanager
    def quiet(self):
        """Make operations without telling the listeners (a session's replay); call ``announce()`` after."""
        self.events.blocked += 1
        try:
            yield self
        finally:
            self.events.blocked -= 1

    def announce(self) -> None:
        """Tell the listeners the whole state anew: after ``quiet`` work, or for a view attached late."""
        self.events.about_to_reset.emit()
        self.events.reset.emit(self._s.last)

    # --- operations (operations.py) ------------------------------------------------------------------------
    def insert(self, item: object):
        """Insert one item; returns the core's Insertion, or None when refused (error emitted)."""
        return self._ops.insert(item)

    def lookup(self, item: object):
        """Look one item up; returns the core's Lookup, or None when refused. Classified against the truth."""
        return self._ops.lookup(item)

    def remove(self, item: object, force: bool = False):
        """Remove one item from a counting filter; returns the core's Removal, or None when refused (a filter
        without removal, an item with a counter at 0, an item never inserted unless ``force``)."""
        return self._ops.remove(item, force)

    def insert_batch(self, items: Sequence[object]) -> int:
        """Insert a batch now, all or nothing. Returns the number inserted (0 and error() when refused)."""
        return self._ops.insert_batch(items)

    # --- long work: the one job (jobs.py), advanced by ``step_job`` ------------------------------------------
    def insert_many(self, items: Iterable[object], label: str = "items") -> bool:
        """Start inserting ``items`` in chunks (advanced by ``step_job``). False when work is already running."""
        return self._jobs.insert_many(items, label)

    def run_job(self, source: Callable[[int], Sequence[object]], total: int, label: str = "items",
                atomic: bool = False, progress_of: Callable[[], tuple[int, int]] | None = None) -> bool:
        """Insert ``total`` items drawn from ``source(count)``, a chunk per ``step_job()`` (see ``Jobs.run_job``
        for a source that fails and for ``atomic``, all or nothing)."""
        return self._jobs.run_job(source, total, label, atomic, progress_of)

    def run_steps(self, step: Callable[[int], int], total: int, label: str) -> bool:
        """Run ``step(count)``, which makes up to ``count`` operations, until it returns 0 (``Jobs.run_steps``)."""
        return self._jobs.run_steps(step, total, label)

    def step_job(self) -> bool:
        """Advance the running job by one step; False when no job runs (any more)."""
        return self._jobs.step()

    def run_to_end(self) -> None:
        """Step the running job until it ends (a script's or a test's clock)."""
        while self._jobs.step():
            pass

    def cancel(self) -> None:
        """Stop bulk work between chunks: what was committed stays (an atomic job goes back to its start)."""
        self._jobs.cancel()

    # --- configuration -----------------------------------------------------------------------------------
    @staticmethod
    def validate_config(m, k, scheme=hashing.DEFAULT_SCHEME, variant="standard", **params) -> str | None:
        """The message configure() would give, or None when the parameters are acceptable."""
        try:
            build_filter(variant, {"m": m, "k": k, "scheme": scheme, **params})
        except (ValueError, TypeError) as exc:
            return str(exc)
        return None

    def configure(self, m=None, k=None, scheme=hashing.DEFAULT_SCHEME, variant="standard",
                  capacity: int | None = None, **params) -> bool:
        """Replace the filter with a new, empty one. On bad parameters: error(message), nothing changes."""
        try:
            flt = build_filter(variant, {"m": m, "k": k, "scheme": scheme, **params})
            if capacity is not None:
                capacity = int(capacity)
        except (ValueError, TypeError) as exc:
            self.events.error.emit(str(exc))
            return False
        self.cancel()
        self._undo.keep_state(("new filter", None), copy_filter=False)     # (replaced, never changed again)
        self._install(flt, capacity=capacity)
        return True

    def design(self, n, p, scheme=hashing.DEFAULT_SCHEME) -> tuple[int, int] | None:
        """A new filter sized for n items at rate p (its capacity marks the plot). Returns (m, k)."""
        try:
            m, k = limits.design_params(n, p)
        except ValueError as exc:
            self.events.error.emit(str(exc))
            return None
        return (m, k) if self.configure(m, k, scheme, capacity=int(n)) else None

    def _install(self, flt, capacity: int | None, announce: bool = True) -> None:
        self.events.about_to_reset.emit()
        truth = Truth(flt)
        measure = ProbeSet(flt, self._probe_count, self._seed, exclude=truth.items, prefix=self._probe_prefix)
        self._s = State(flt=flt, capacity=capacity, truth=truth, measure=measure, series=measure.series)
        if announce:
            self._s.last = StateNote("new filter")
            self.events.reset.emit(self._s.last)

    def set_probe_count(self, probes: int, most: int = limits.MAX_PROBES) -> bool:
        """Measure with a different number of probes (re-measures the current filter from its bits); ``most``:
        the window's limit unless the caller has its own (a lesson's)."""
        try:
            limits.check_probes(int(probes) if isinstance(probes, np.integer) else probes, most)
        except ValueError as exc:
            self.events.error.emit(f"Refused: {exc}. Nothing was changed.")
            return False
        self._probe_count = int(probes)
        self._s.measure.count = self._probe_count
        self._s.measure.draw(self._s.flt, self._s.truth.items)
        self.events.notice.emit(f"measuring with {probes:,} probes from now on")
        return True

    @property
    def probe_seed(self) -> int:
        return self._s.measure.seed

    def set_probe_seed(self, seed: int) -> None:
        """The seed the next filter's probes are drawn from (a session replays on its recorded probes)."""
        self._seed = int(seed)
        self._s.measure.seed = int(seed)

    def reset(self) -> None:
        """Empty the filter (same m, k, scheme): the bits, the truth set, the plot and the history."""
        self.cancel()
        self._undo.keep_state(("clear", None))
        self._s.flt.clear()
        self._install(self._s.flt, capacity=self._s.capacity)

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
                self.events.error.emit(f"Refused: {exc}. Nothing was changed.")
                return False
        self.cancel()
        self._undo.keep_state(("open", None), copy_filter=False)
        self._install(flt, capacity=capacity, announce=False)
        s = self._s
        if items is not None:
            s.truth.remember(list(items), datas, flt.positions_many(datas) if s.truth.fixed_k else None)
        s.truth.known = items is not None
        if len(flt):
            # The path that led here is unknown: the plot starts with one point, the filter as it is now.
            s.measure.pipeline.add_rows(np.array([len(flt)]), np.array([s.measure.fp_count]),
                                        np.array([flt.bits_set]))
        s.last = StateNote("loaded filter", note, self.numbers())
        self.events.reset.emit(s.last)
        return True

    def explain_note(self, title: str, text: str) -> None:
        """Show a text of the caller's (a scenario's story, an import's report) in the explain panel."""
        self._s.last = StateNote(str(title), str(text), self.numbers())
        self.events.noted.emit(self._s.last)

    # --- going back ----------------------------------------------------------------------------------------
    def undo(self) -> bool:
        """Put back the state before the last operation (or before the filter was replaced)."""
        return self._undo.undo()

    undo_what = property(lambda self: self._undo.what,
                         doc="(op, item) of what ``undo`` would take back, or None when there is nothing to undo.")

    def checkpoint(self) -> Checkpoint:
        """The current state, to go back to with ``rollback`` (the filter is copied, the rest are lengths)."""
        return checkpoint(self._s)

    def rollback(self, cp: Checkpoint, insertion=None) -> None:
        """Put back the state of ``cp``: filter, truth, measurement, plot rows and history (``insertion``: the
        one insert made since ``cp``, when ``cp`` holds no copy of the filter: the filter takes it back)."""
        self.cancel()   # (a job rolled back by its own end has already let go of it)
        self.events.about_to_reset.emit()
        self._s = cp.state
        cut_back(self._s, cp, insertion)
        self.events.reset.emit(self._s.last)

    def snapshot(self) -> Snapshot:
        """The whole state, to put back with ``restore`` after another filter was shown."""
        return snapshot(self._s, self.undo_stack.serial)

    def restore(self, snap: Snapshot) -> None:
        """Put back a state kept by ``snapshot`` (what was undoable then is undoable again, nothing after)."""
        self.cancel()
        self.undo_stack.cut_from(snap.undo_serial)
        self._revive(snap)

    def _revive(self, snap: Snapshot) -> None:
        self.events.about_to_reset.emit()
        self._s = revive(snap)
        self._probe_count, self._seed = snap.probe_count, snap.seed
        self.events.reset.emit(self._s.last)

    # --- reading ---------------------------------------------------------------------------------------------
    @property
    def filter(self):
        """The filter itself, to read. Change it only through the workbench."""
        return self._s.flt

    @property
    def state(self) -> State:
        """Everything known about the filter shown, to read (``bloomviz.explain`` builds its words from it)."""
        return self._s

    series = property(lambda self: self._s.series,
                      doc="The plot's rows: n, the measured and exact rates (thinned past DENSE_ROWS inserts).")
    history = property(lambda self: self._s.history)
    items = property(lambda self: self._s.truth.items,
                     doc="Every insert, in order (repeats appear twice): an ItemLog, read like a list; auto-played "
                         "generated items are kept as runs and made into strings only when read.")
    tracker = property(lambda self: self._s.measure.tracker)
    probes = property(lambda self: self._s.measure.probes)
    capacity = property(lambda self: self._s.capacity)
    busy = property(lambda self: self._jobs.job is not None)   # (asked by several views per operation)
    last_record = property(lambda self: self._s.last, doc="The last Operation or StateNote.")
    truth_known = property(lambda self: self._s.truth.known,
                           doc="False for a filter loaded without its items: false positives cannot be told.")
    variant = property(lambda self: self._s.flt.variant)

    def is_member(self, item: object) -> bool:
        return self._s.truth.member(to_bytes(item))

    def items_at_bit(self, index: int, limit: int = 20) -> tuple[list, int]:
        return self._s.truth.culprits.items_at_bit(index, limit)

    def max_value(self) -> int:
        return capabilities.max_value(self._s.flt)

    def grid_values(self) -> np.ndarray:
        """One uint8 per cell: the bits (0/1) or, for a counting filter, the counters."""
        return capabilities.grid_values(self._s.flt)

    def cell_values(self, positions) -> np.ndarray:
        positions = np.asarray(positions, dtype=np.int64)
        flt = self._s.flt
        if capabilities.of(flt).counting:
            return np.asarray(flt.counters)[positions].astype(np.uint8)
        if has_bits(flt):
            return bitstore.test_bits(flt.bits, positions).astype(np.uint8)
        return self.grid_values()[positions]

    def numbers(self, counts: tuple[int, int, int] | None = None) -> Numbers:
        """The counts now and, computed when first read, what the formulas make of them. Asked again with the
        same counts (an operation's record, then the status line, then the explanation), the same object is
        answered, so its theory and interval are computed once. ``counts``: (n, bits set, false positives),
        when the caller has them from the operation's measurement step (not read again)."""
        s = self._s
        flt, probes = s.flt, len(s.measure.probes)
        n, x, fp_count = counts if counts is not None else (len(flt), flt.bits_set, s.measure.fp_count)
        key = (n, x, fp_count, probes, s.truth.distorting, self._jobs.job is not None)
        if self._numbers_of is flt and key == self._numbers_key:
            return self._numbers
        self._numbers_of, self._numbers_key = flt, key
        own = (self._own_numbers(flt, n) if not flt.capabilities.standard_formulas
               else {"after_removals": True} if s.truth.distorting else {})
        self._numbers = Numbers(m=(m := flt.m), k=flt.k, n=n, bits_set=x, fp_count=fp_count, probes=probes,
                                n_estimated=float(flt.estimated_count), fill=x / m if m else 0.0,
                                fp_measured=fp_count / probes if probes else 0.0, **own)
        return self._numbers

    def _own_numbers(self, flt, n: int) -> dict:
        truth = self._s.truth
        out = {"after_removals": truth.distorting > 0}
        if not flt.capabilities.standard_formulas:
            out.update(own_theory=True, single_mk=bool(flt.capabilities.sized))
            # (not between a job's chunks: a blocked filter's rate from its bits reads every block, 50 ms at
            # 10^8 bits; the explanation after the job has them)
            if not self.busy:
                out.update(fp_own=flt.theory_fp(n), fp_own_now=float(flt.expected_fp))
        return out

    def formula_break(self) -> int | None:
        """The first plot row after which n inserts into a fresh filter no longer describe this one (a counting
        filter's forced removal, or a removal that left a saturated counter standing), or None while they
        describe every row. Undo back past that removal, or a new or emptied filter, gives None again."""
        return self._s.truth.distorted_row

    def status(self) -> dict:
        nums = self.numbers()
        s = self._s
        flt = s.flt
        return {"m": nums.m, "k": nums.k, "scheme": flt.scheme, "scheme_title": hashing.SCHEMES[flt.scheme].title,
                "variant": flt.variant, "n": nums.n, "bits_set": nums.bits_set,
                "fill": nums.fill, "fp_measured": nums.fp_measured, "fp_low": nums.fp_low,
                "fp_high": nums.fp_high,
                # the variant's own theory (the standard formula's for the standard filter)
                "fp_exact": nums.fp_exact if standard_formulas_apply(flt) else flt.theory_fp(nums.n),
                "fp_now": nums.fp_own_now if nums.own_theory else nums.fp_now, "n_estimated": nums.n_estimated, "capacity": s.capacity,
                "probes": nums.probes, "lookups": s.lookups, "true_positives": s.counts[Verdict.TRUE_POSITIVE],
                "true_negatives": s.counts[Verdict.TRUE_NEGATIVE], "false_positives": s.counts[Verdict.FALSE_POSITIVE],
                "false_negatives": s.counts[Verdict.FALSE_NEGATIVE], "after_removals": nums.after_removals,
                "busy": self.busy}

    def can_remove(self) -> bool:
        """Whether the filter supports removal (a counting filter)."""
        return capabilities.of(self._s.flt).removable

    def removal_needs_force(self, item: object) -> bool:
        """Whether ``remove(item)`` would be refused only because the item was never inserted (all its counters
        are above 0: a false positive), so that ``remove(item, force=True)`` is the question to ask."""
        try:
            data = limits.check_item(item)
        except limits.ItemError:
            return False
        s = self._s
        return self.can_remove() and s.truth.known and not s.truth.member(data) and data in s.flt

    # --- bookkeeping ---------------------------------------------------------------------------------------
    def prepare_measurement(self) -> None:
        """Build what measuring the next batch needs (the exact tracker's probe-bit map) now, in a step of its
        own: a long job's first step (jobs.py)."""
        self._s.measure.prepare()

    def reserve(self, extra: int) -> None:
        """Make room for ``extra`` inserts up front (a job, a lesson's generated items)."""
        # Growing arrays double when full, and one doubling of a million-row series copies ~32 MB in one chunk:
        # a visible stall. Make room for a whole job before it starts instead.
        s = self._s
        s.truth.reserve(extra)
        if extra > 10_000:
            s.series.reserve(kept_rows(len(s.flt), extra))


def extend_series(s: State, n: np.ndarray, fp: np.ndarray, bits_set: np.ndarray) -> None:
    """Append a batch's rows to ``s``'s series, thinned past DENSE_ROWS (see the module's docstring)."""
    n, fp, bits_set = np.asarray(n), np.asarray(fp), np.asarray(bits_set)
    keep = thin_mask(n)
    if keep is not None:
        n, fp, bits_set = n[keep], fp[keep], bits_set[keep]
    s.measure.pipeline.add_rows(n, fp, bits_set)    # (their theory: the measurement's, the filter's formulas)


def thin_mask(n: np.ndarray) -> np.ndarray | None:
    """Which of a batch's rows (its n values, ascending) the series keeps (mask or indices), or None: all."""
    n = np.asarray(n)
    if not len(n) or n[-1] <= DENSE_ROWS:
        return None
    lo, size = int(n[0]), n.size
    if int(n[-1]) - lo == size - 1:     # a job's chunk: found from the first n (not a mask over 2 x 10^5 rows)
        dense = min(size, max(0, DENSE_ROWS - lo + 1))             # the rows with n <= DENSE_ROWS
        first = dense + (-(lo + dense)) % THIN_EVERY                # the first multiple of THIN_EVERY past them
        return np.concatenate((np.arange(dense), np.arange(first, size - 1, THIN_EVERY), [size - 1]))
    keep = (n <= DENSE_ROWS) | (n % THIN_EVERY == 0)
    keep[-1] = True
    return keep


def kept_rows(n0: int, extra: int) -> int:
    """About how many rows ``extra`` inserts after ``n0`` add to the series (each batch's last row counted at
    one per smallest job chunk), to reserve them up front."""
    n1 = n0 + extra
    dense = max(0, min(n1, DENSE_ROWS) - n0)
    sparse = max(0, n1 - max(n0, DENSE_ROWS)) // THIN_EVERY
    return dense + sparse + extra // jobs.MIN_CHUNK + 1
