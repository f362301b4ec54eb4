"""The operations on the shown filter: insert, lookup, remove, insert a batch. Each one either changes
nothing and emits ``error`` (a refusal, said in words that name what was wrong), or commits everything it
changes (filter, truth, measurement, series, history) and emits one ``Operation`` record.

``Operations`` is composed into ``Workbench`` (``model.py``), which forwards its four public methods to it.
It is handed the workbench, of which it reads the public state (``state``, ``events``, ``busy``,
``numbers()``, ``cell_values()``, ``can_remove()``), its undo steps (``undo.Undo``: what to keep before and
after an operation) and how to add a batch's plot rows (the window keeps fewer past a million inserts; a single
insert's row is written by the measurement, ``Measurement.add``). It holds no state of its own."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from bloomviz.filters import capabilities
from bloomviz.explain.operations import FALSE_NEGATIVE_LIMIT, false_negative_note
from bloomviz.filters import bitstore
from bloomviz.filters.generated_positions import halves as generated_halves
from bloomviz.filters.generated_positions import positions as generated_positions
from bloomviz.items.encoding import describe, to_bytes_list
from bloomviz.items.generated import GeneratedRun
from bloomviz.theory import limits as window_limits
from bloomviz.workbench import limits
from bloomviz.workbench.failures import ChunkFailed, failure_message, inserting, interrupted, removing
from bloomviz.workbench.measurement import has_bits
from bloomviz.workbench.state import nbytes
from bloomviz.workbench.undo import checkpoint, cut_back
from bloomviz.measure.verdicts import ForcedRemoval, classify, removal_that_cleared
from bloomviz.unique_ints import sorted_unique
from bloomviz.vocabulary import Verdict
from bloomviz.workbench.records import HistoryEntry, Operation
from bloomviz.workbench.culprits import CULPRIT_LIMIT

PROBES_REDRAWN = "That item was one of the measurement's probes; the probes were redrawn."


def _ints(values) -> tuple[int, ...]:
    return tuple(int(v) for v in values)


class Operations:
    """The operations on ``bench``'s filter; see the module's docstring for what it is handed."""

    def __init__(self, bench, *, undo, extend_series):
        self._bench = bench
        self.events = bench.events
        self._undo = undo
        self._keep = undo.keep
        self._extend_series = extend_series

    @property
    def _s(self):
        return self._bench.state     # the state now (a new filter, undo or restore replaces it)

    def _check(self, item: object) -> bytes | None:
        try:
            return limits.check_item(item)
        except limits.ItemError as exc:
            self.events.error.emit(f"Refused: {exc}. Nothing was changed.")
            return None

    def _refuse_growth(self, inserts: int, what: str, typed_bytes: int = 0, s=None) -> bool:
        """Refuse (error emitted) inserts a growing filter cannot take, or that would take what the window keeps
        past its memory budget (``limits.memory_refusal`` says what to do instead).

        What the window keeps is ``State.kept``, a running count: counted whole (``state.nbytes``: the filter,
        every insert's positions, the items, the plot rows, the history) when unknown or past half the budget,
        where a refusal can come, and otherwise the last count plus what each operation allowed since adds
        (added here, as it is allowed: an insert never walks every part of the state to be told it fits)."""
        s = s or self._s
        flt = s.flt
        sized = flt.capabilities.sized
        refusal = None if sized else limits.growth_refusal(flt, inserts)
        if refusal is None:
            more = (inserts * (4 * (flt.k if sized else limits.MAX_K) + limits.KEPT_PER_INSERT) + typed_bytes
                    + limits.KEPT_PER_OPERATION)
            budget = window_limits.WINDOW_KEPT_BYTES
            if s.kept is None or s.kept + more > budget // 2:
                s.kept = nbytes(s)
            if s.kept + more > budget:
                refusal = limits.memory_refusal(s.kept, inserts, budget)
            else:
                s.kept += more
        if refusal:
            self.events.error.emit(f"Refused{what}: {refusal}. Nothing was changed.")
        return bool(refusal)

    def insert(self, item: object):
        """Insert one item; returns the core's Insertion, or None when refused (error emitted).

        The item is encoded once (the check) and its bytes handed on; the measurement's step hashes it once and
        gives the counts after it (n, false positives, bits set), writes its plot row with them, and the record
        takes them."""
        data = self._check(item)
        s = self._bench.state
        kept = s.kept
        if data is None or self._refuse_growth(1, "", len(data) + limits.KEPT_PER_TYPED_ITEM, s):
            return None
        flt = s.flt
        undo = self._undo.before_insert(s)     # its step is kept once it is done (no copy of most filters)
        # what a failure part way goes back to: the undo step's checkpoint, else one of its own (a copy of the
        # filter only for a variant that cannot take its insert back)
        cp = undo[0] if undo is not None else checkpoint(s, not flt.capabilities.takes_back_inserts)
        ins = None
        try:
            old_probes = self._replace_probes(s, (data,)) if data in s.measure.keys else None
            pipe = s.measure.pipeline
            try:
                ins = pipe.filter.add(data)
            except ValueError as exc:   # a growing filter that cannot open another stage (it changed nothing)
                self._put_back(s, kept, old_probes)
                self.events.error.emit(f"Refused: {exc}. Nothing was changed.")
                return None
            rec = self._inserted(item, data, pipe.added(ins), s)
        except BaseException as exc:
            self._failed(exc, s, cp, kept, inserting(item), insertion=ins, inserts=1)
            return None
        if undo is not None:
            self._undo.kept_insert(("insert", item), undo, ins)
        if old_probes is not None:
            self.events.notice.emit(PROBES_REDRAWN)
        self.events.operated.emit(rec)
        return ins

    def _inserted(self, item, data: bytes, step, s) -> Operation:
        """The truth, history entry and record of one insert the filter and the measurement took (``step``)."""
        ins = step.insertion
        flt = s.flt
        positions = tuple(map(int, ins.positions))
        truth, caps = s.truth, flt.capabilities      # (the class's declaration: asked once here)
        inserted, removed = truth.copies(data, positions if truth.fixed_k else None)   # before this insert
        truth.remember([item], [data], (positions,) if truth.fixed_k else None)
        grown = caps.staged and ins.new_stage
        newly = ins.newly_set
        kinds = tuple("new" if fresh else "old" for fresh in newly)
        changed = np.array(sorted(set(positions if caps.counting else
                                      [p for p, fresh in zip(positions, newly) if fresh])), dtype=np.int64)
        # the cells it set hold 1 now (no bit read back); counters and other cells are read
        values = (np.ones(len(changed), dtype=np.uint8) if caps.plain_bits and not caps.counting and not grown
                  else None)
        nums = self._bench.numbers((int(step.n[0]), int(step.bits_set[0]), int(step.fp[0])))
        return self._record("insert", Verdict.INSERTED, item, data, positions, positions, kinds, changed,
                            grown=grown, result=ins, was_member=inserted > removed, values=values, s=s, nums=nums,
                            emit=False)

    def lookup(self, item: object):
        """Look one item up; returns the core's Lookup, or None when refused. Classified against the truth."""
        data = self._check(item)
        if data is None:
            return None
        s = self._s
        self._keep(("lookup", item), s, copy_filter=False)
        look = s.flt.lookup(data)
        positions = _ints(look.positions)
        bits = _ints(look.bits)
        staged = capabilities.of(s.flt).staged   # every stage's positions, one stage after another
        in_hit = tuple(st in set(look.hit_stages) for st in look.stage_of) if staged else (True,) * len(positions)
        plain = tuple("one" if b else "zero" for b in bits)
        culprits: dict = {}
        truth = s.truth
        # The truth is asked whenever its answer can change the verdict: a "present" (true or false positive),
        # and an "absent" once a forced removal may have taken a member's counter to 0 (a false negative).
        inserted = removed = 0
        if look.maybe_present or truth.forced:
            inserted, removed = truth.copies(data, positions) if truth.fixed_k else truth.copies(data)
        verdict = classify(look.maybe_present, inserted, removed, truth.known)
        caused_by = None
        kinds = plain
        if verdict == Verdict.FALSE_POSITIVE:
            culprits = truth.culprits.items_at_bits([p for p, hit in zip(positions, in_hit) if hit], CULPRIT_LIMIT)
            kinds = tuple("culprit" if hit else k for hit, k in zip(in_hit, plain))
        elif verdict == Verdict.FALSE_NEGATIVE:
            caused_by = removal_that_cleared([p for p, b in zip(positions, bits) if not b], truth.forced)
        s.lookups += 1
        s.counts[verdict] += 1
        self._record("lookup", verdict, item, data, positions, positions, kinds, None, result=look,
                     culprits=culprits, series_grew=False, copies=(inserted, removed), caused_by=caused_by)
        return look

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
        s = self._s
        flt = s.flt
        label = describe(item, 60)
        if not self._bench.can_remove():
            self.events.error.emit(f"Refused: a {flt.variant} filter cannot remove items (its bits are shared by "
                                   "many items); choose the counting variant to remove. Nothing was changed.")
            return None
        member = s.truth.member(data)
        if not member and data not in flt:
            # A counter at 0: nothing of this item is in the filter, and no confirmation could change that.
            self.events.error.emit(f"Refused: “{label}” is definitely not in the set (one of its counters is 0): "
                                   "there is nothing to remove. Nothing was changed.")
            return None
        if not member and s.truth.known and not force:
            self.events.error.emit(f"Refused: “{label}” was never inserted. Removing it would decrement counters "
                                   "that belong to other items and could cause false negatives; confirm to force "
                                   "it. Nothing was changed.")
            return None
        cp = self._undo.before_removal(s, data)
        try:
            try:
                rem = flt.remove(data, force=bool(force) and not member)
            except ValueError as exc:
                self.events.error.emit(f"Refused: {exc}. Nothing was changed.")
                return None
            rec = self._removed(s, item, data, rem, member)
        except BaseException as exc:
            self._failed(exc, s, cp, s.kept, removing(item), inserts=0)
            return None
        self._undo.kept_batch(("remove", item), cp)
        self.events.operated.emit(rec)
        return rem

    def _removed(self, s, item, data: bytes, rem, member: bool) -> Operation:
        """After the filter took a removal out: the truth, the measurement, the plot row and the history entry;
        its record, for the caller to emit once nothing can fail any more."""
        flt = s.flt
        if member:
            s.truth.removed[data] = s.truth.removed.get(data, 0) + 1
        cleared = rem.cleared
        fp = s.measure.after_removal(cleared)
        s.measure.pipeline.add_rows(np.array([len(flt)]), np.array([fp]), np.array([flt.bits_set]))
        lost = tuple(s.truth.culprits.false_negatives(cleared))
        if rem.stuck or not member:
            if not s.truth.distorting:
                s.truth.distorted_row = len(s.series) - 1   # the row this removal just added
            s.truth.distorting += 1
        if not member:
            s.truth.forced.append(ForcedRemoval(len(s.history) + 1, item, tuple(int(p) for p in cleared)))
        positions = _ints(rem.positions)
        kinds = tuple("stuck" if p in rem.stuck else ("cleared" if a == 0 else "removed")
                      for p, a in zip(positions, rem.after))
        marks, mark_kinds = list(positions), list(kinds)
        for x in lost[:FALSE_NEGATIVE_LIMIT]:
            for p in flt.positions(x):
                if p in cleared:
                    marks.append(int(p))
                    mark_kinds.append("lost")
        verdict = Verdict.REMOVED if member else Verdict.FORCED_REMOVAL
        return self._record("remove", verdict, item, data, positions, tuple(marks),
                            tuple(mark_kinds), np.array(sorted(set(positions)), dtype=np.int64), result=rem,
                            false_negatives=lost, was_member=member, emit=False)

    def insert_batch(self, items: Sequence[object]) -> int:
        """Insert a batch now, all or nothing. Returns the number inserted (0 and error() when refused).

        ``items`` may be a ``GeneratedRun`` (auto-play's random items): when the filter is measured from
        positions alone, the run is hashed from its numbers and remembered as a run, with no string per item;
        the positions, the measurement and the truth are the same as for the run's strings inserted as a list.
        """
        if isinstance(items, GeneratedRun):
            s = self._s
            if s.flt.capabilities.sized and s.measure.takes_positions and items.items.prefix != s.measure.prefix:
                return self._insert_run(items)
            items = items.texts()    # (a probe-like prefix, another tracker: the items as strings)
        items = items if isinstance(items, list) else list(items)
        if not items:
            return 0
        try:
            datas = to_bytes_list(items)
        except TypeError as exc:
            self.events.error.emit(f"Refused: {exc}. Nothing was changed.")
            return 0
        lens = np.fromiter(map(len, datas), dtype=np.int64, count=len(datas))
        bad = np.flatnonzero((lens == 0) | (lens > limits.MAX_ITEM_BYTES))
        if bad.size:
            i = int(bad[0])
            try:
                limits.check_item(datas[i])
            except limits.ItemError as exc:
                self.events.error.emit(f"Refused a batch of {len(items):,} items: item {i + 1:,}: {exc}. "
                                       "Nothing from this batch was inserted.")
            return 0
        s = self._s
        kept = s.kept
        if self._refuse_growth(len(datas), f" a batch of {len(items):,} items",
                               int(lens.sum()) + limits.KEPT_PER_TYPED_ITEM * len(datas)):
            return 0
        cp = self._undo.before_batch(s, len(datas))
        try:
            old_probes = None if s.measure.keys.isdisjoint(datas) else self._replace_probes(s, datas)
            flt = s.flt
            m0 = flt.m
            pos = changed = None
            if flt.capabilities.sized:    # one array of fixed positions: hashed once, for truth, grid and filter
                pos = flt.positions_many(datas)
                changed = self._changed_cells(pos)
            if cp is not None and cp.log is not None:
                cp.log.note(flt, pos, datas)    # what it is about to change, before it writes
            try:
                n, fp, bits_set = s.measure.insert(datas, pos)   # the commit: nothing below can refuse
            except ValueError as exc:   # a stage beyond the limits: refused before any insert
                self._put_back(s, kept, old_probes)
                self.events.error.emit(f"Refused a batch of {len(items):,} items: {exc}. Nothing was changed.")
                return 0
            rec = self._commit_batch(items, datas, pos, (n, fp, bits_set), changed, grown=flt.m != m0)
        except BaseException as exc:
            self._failed(exc, s, cp, kept, inserting(count=len(items)), inserts=len(items))
            return 0
        self._undo.kept_batch(("insert batch", len(items)), cp)
        if old_probes is not None:
            self.events.notice.emit(PROBES_REDRAWN)
        self.events.operated.emit(rec)
        return len(items)

    def _insert_run(self, run: GeneratedRun) -> int:
        s = self._s
        kept = s.kept
        if not len(run) or self._refuse_growth(len(run), f" a run of {len(run):,} generated items"):
            return 0
        cp = self._undo.before_batch(s, len(run))
        log = cp.log if cp is not None and not cp.partial else None    # (a partial one notes nothing)
        try:
            # the truth keeps the run, not its rows: it makes them again if a scan reads them (truth.PositionRows);
            # with no changed cells wanted (a job's chunk: the grid compares the bits), no rows are made at all,
            # unless a log of what the run changes is kept (it needs the positions)
            halves = (None if self._wants_changed() or log is not None
                      else generated_halves(s.flt, run.items, run.start, run.stop))
            if halves is not None:
                rows, changed = s.measure.insert_halves(halves), None
            else:
                pos = generated_positions(s.flt, run.items, run.start, run.stop)
                changed = self._changed_cells(pos)
                if log is not None:
                    log.note(s.flt, pos)
                rows = s.measure.insert_positions(pos)
            rec = self._commit_batch(run, None, None, rows, changed, grown=False)
        except BaseException as exc:
            self._failed(exc, s, cp, kept, inserting(count=len(run)), inserts=len(run))
            return 0
        self._undo.kept_batch(("insert batch", len(run)), cp)
        self.events.operated.emit(rec)
        return len(run)

    def _changed_cells(self, pos: np.ndarray):
        """The cells a batch with these positions changes (before it is inserted); None during a job, whose
        chunks come faster than a grid redraws (the grid then compares the bits itself)."""
        flt = self._s.flt
        if not self._wants_changed():
            return None
        flat = pos.ravel()
        counting = capabilities.of(flt).counting
        return sorted_unique(flat if counting else flat[bitstore.test_bits(flt.bits, flat) == 0])

    def _wants_changed(self) -> bool:
        return not self._bench.busy and self._bench.for_grid and has_bits(self._s.flt)

    def _commit_batch(self, items, datas, pos, rows: tuple, changed, grown: bool) -> Operation:
        """After the filter and the measurement took a batch: its plot rows, truth and history entry; its record,
        for the caller to emit."""
        self._extend_series(self._s, *rows)
        self._s.truth.remember(items, datas, pos)
        return self._record("insert batch", Verdict.INSERTED, None, b"", (), (), (), changed, grown=grown,
                            count=len(items), first=describe(items[0], 24), emit=False)

    # --- failures part way (failures.py) ---------------------------------------------------------------------
    def _failed(self, exc: BaseException, s, cp, kept: int | None, what: str, *, insertion=None,
                inserts: int = 1) -> None:
        """``exc`` was raised part way through an operation on the state ``s``, which had checkpoint ``cp`` (None:
        a job's chunk, put back by its job): everything goes back as it was, the filter the same object (the views
        were told nothing and hold it) put back from the checkpoint's copy or log (a ``partial`` one has neither:
        the rest goes back, and the message says the batch may be partly in the filter); then the message, and an
        interruption is raised again. A job's chunk with a checkpoint of its own is put back alone, and its job
        told (``ChunkFailed``, ``put_back``) so that it ends with the chunks before it kept."""
        if cp is not None:
            cut_back(s, cp, insertion, in_place=True)
            s.kept = kept
        flt = s.flt
        partly = cp is not None and cp.partial
        new_bits = 0
        try:    # (the sizes a growing filter's next stages need; a filter left half-changed may not answer)
            if isinstance(exc, MemoryError) and not flt.capabilities.sized:
                new_bits = max(0, limits.scalable_m_after(flt, inserts) - flt.m)
            message = failure_message(exc, what, flt, kept if kept is not None else s.kept, new_bits, partly)
        except Exception:
            message = failure_message(exc, what, partly=partly)
        if cp is None or self._undo.in_job:
            raise ChunkFailed(message, exc, put_back=cp is not None and not partly) from exc
        self.events.error.emit(message)
        if interrupted(exc):
            raise exc

    # --- bookkeeping -----------------------------------------------------------------------------------------
    @staticmethod
    def _replace_probes(s, extra) -> tuple:
        """Draw probes that exclude ``extra`` (items about to be inserted); returns the set replaced, for
        ``_put_back`` should the insert be refused after all (the notice is the caller's, once it is done)."""
        old = s.measure.kept()
        s.measure.redraw_excluding(s.truth.items, extra)
        return old

    @staticmethod
    def _put_back(s, kept: int | None, old_probes: tuple | None) -> None:
        """An insert refused by the filter after the window's checks had let it through: what those checks
        and the probe redraw changed goes back (the byte count they raised, the probe set they replaced), so
        that "Nothing was changed" is true."""
        s.kept = kept
        if old_probes is not None:
            s.measure.put_back(old_probes)

    def _record(self, op: str, verdict, item, data: bytes, positions: tuple, highlight: tuple, kinds: tuple,
                changed, *, grown: bool = False, result=None, was_member: bool = False, culprits=None,
                false_negatives: tuple = (), count: int = 1, first: str = "",
                series_grew: bool = True, copies: tuple = (0, 0), caused_by=None, values=None, s=None,
                nums=None, emit: bool = True) -> Operation:
        """Append the history entry and emit the one record of this operation (``values``: the changed cells'
        values when the operation knows them, else they are read from the filter; ``nums``: the numbers after
        it, when the operation made them from its own counts; ``emit=False``: returned, for the caller to emit
        once nothing can fail any more)."""
        s = s or self._s
        nums = nums or self._bench.numbers()    # the counts now; the formulas' numbers when first read
        note = false_negative_note(false_negatives) if false_negatives else ""
        counts = s.counts
        entry = HistoryEntry(index=len(s.history) + 1, op=op, first=first, verdict=verdict,
                             positions=positions if item is not None else (), count=count, n=nums.n,
                             lookups=s.lookups, true_positives=counts[Verdict.TRUE_POSITIVE],
                             true_negatives=counts[Verdict.TRUE_NEGATIVE],
                             false_positives=counts[Verdict.FALSE_POSITIVE],
                             fill=nums.fill, fp_measured=nums.fp_measured, item=item, note=note,
                             false_negatives=tuple(false_negatives),
                             false_negative_lookups=counts[Verdict.FALSE_NEGATIVE])
        s.history.append(entry)
        if positions:
            s.last_positions = positions
        if values is None and changed is not None and not grown:
            values = self._bench.cell_values(changed)
        rec = Operation(op=op, verdict=verdict, item=item, data=data, count=count, positions=positions,
                        highlight=highlight, kinds=kinds, changed=changed, values=values, grown=grown,
                        series_grew=series_grew,
                        numbers=nums, history=entry, result=result, was_member=was_member,
                        culprits=culprits or {}, false_negatives=tuple(false_negatives),
                        truth_known=s.truth.known, inserted=copies[0], removed=copies[1], caused_by=caused_by)
        s.last = rec
        if emit:
            self.events.operated.emit(rec)
        return rec
