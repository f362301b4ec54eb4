"""Undo: the states before the last operations, newest last, within a memory budget.

Before an insert, a lookup, a removal or a batch the model keeps a ``Checkpoint`` (the lengths of everything
and, where needed, a copy of the filter); before the filter is replaced or emptied, a ``Snapshot`` (the whole
state kept aside). Undo puts the newest back. A lookup changes no filter, and a typed insert into a filter whose
variant takes back its own insert (``capabilities.takes_back_inserts``: the standard, partitioned, blocked and
counting filters) is undone by its inverse, ``capabilities.take_back(flt, insertion)``: the bits it turned on cleared, the
counters it raised lowered. Neither copies the filter, so fifty such steps cost almost nothing at any size (a
copy per typed insert was 12.5 MB at 10^8 bits, and the budget then kept only the last eight inserts). A batch
is undone from a log of what it changed (``filters/rollback.py``: the bits it turned on, the counters it
touched, the stages it opened), noted before it wrote, unless a copy of the filter is smaller; a log is what a
batch past the budget is put back from should it fail part way too (a paste into an opened 2^32-bit filter
used to copy its 512 MiB first); a removal from a counting filter, from the counters at the item's positions.
Other steps (a batch into a small filter, where a copy is the smaller, or into a variant that cannot be logged)
hold a copy, so the stack keeps at most ``DEPTH`` entries and drops the oldest past ``BUDGET`` bytes. Undo is last in, first out: a step without a copy goes back
from the filter as the steps after it left it. A job's chunks are not separate steps: undo goes back to before
the job.
"""

from __future__ import annotations

from dataclasses import dataclass

from bloomviz.filters import capabilities, rollback
from bloomviz.workbench.state import State, nbytes

DEPTH = 50
BUDGET = 96 * 1024 * 1024


# --- what is kept: a state's lengths and a copy of its filter, or a whole state kept aside ------------------
@dataclass(frozen=True)
class Checkpoint:
    """The lengths of a ``State`` and a copy of its filter: ``Workbench.rollback`` cuts the state back to them."""
    state: State
    flt: object
    capacity: int | None
    items: int
    positions: int
    removed: dict
    forced: int
    distorting: int
    series: int
    history: int
    counts: dict
    lookups: int
    probes: list
    probe_keys: set
    seed: int
    last: object
    # instead of a copy: a log of what the batch after it changes in the filter (rollback.py), noted before it
    # writes; or ``partial``: neither fits the memory budget, so the filter cannot be put back
    log: object = None
    partial: bool = False


def checkpoint(s: State, copy_filter: bool = True, log=None, partial: bool = False) -> Checkpoint:
    """``copy_filter=False`` for an operation that leaves the filter as it is (a lookup): undo is last in, first
    out, so when it is undone the filter is again the one it saw, and no copy is needed."""
    t, mm = s.truth, s.measure
    items = len(t.items)
    return Checkpoint(state=s, flt=s.flt.copy() if copy_filter else None, log=log, partial=partial,
                      capacity=s.capacity, items=items,
                      positions=items if t.rows is not None else 0,     # (a row per insert)
                      removed=dict(t.removed), forced=len(t.forced), distorting=t.distorting,
                      series=len(s.series), history=len(s.history), counts=dict(s.counts), lookups=s.lookups,
                      probes=mm.probes, probe_keys=mm.keys, seed=mm.seed, last=s.last)


def cut_back(s: State, cp: Checkpoint, insertion=None, in_place: bool = False) -> None:
    """Put ``s`` back as it was at ``cp`` (the filter becomes a copy of the checkpoint's, when it kept one;
    ``insertion``: the one insert made since, which the filter takes back instead). ``in_place``: the filter
    object stays the same one, its contents those of the copy (an operation that failed part way: the views,
    told nothing, still hold it; the checkpoint is the operation's own, kept by no undo step yet, so its copy is
    taken over, not copied again)."""
    if cp.flt is not None and in_place:
        vars(s.flt).clear()
        vars(s.flt).update(vars(cp.flt))
    elif cp.flt is not None:
        s.flt = cp.flt.copy()
    elif cp.log is not None:
        cp.log.put_back(s.flt)
    elif insertion is not None:
        capabilities.take_back(s.flt, insertion)
    s.capacity = cp.capacity
    s.truth.flt = s.flt
    s.truth.cut(cp.items, cp.positions, cp.removed, cp.forced, cp.distorting)
    s.series.truncate(cp.series)
    del s.history[cp.history:]
    s.counts = dict(cp.counts)
    s.lookups = cp.lookups
    if len(cp.probes) == s.measure.count:   # (a probe count changed since is a setting, not undone here)
        s.measure.probes, s.measure.keys, s.measure.seed = cp.probes, cp.probe_keys, cp.seed
    s.measure.attach(s.flt)
    s.last = cp.last
    s.kept = None


@dataclass(frozen=True)
class Snapshot:
    """A whole state kept aside while another filter is shown (only the filter is copied: ``reset`` clears a
    filter in place before showing it again)."""
    state: State
    flt: object
    probes: list
    probe_keys: set
    probe_count: int
    seed: int
    undo_serial: int = 0   # the undo steps taken before it have lower serial numbers (undo.UndoStack)

    @property
    def inserts(self) -> int:
        return len(self.flt)


def snapshot(s: State, undo_serial: int = 0, copy_filter: bool = True) -> Snapshot:
    """``copy_filter=False``: the state's own filter is kept (one that is replaced, never changed again)."""
    mm = s.measure
    return Snapshot(state=s, flt=s.flt.copy() if copy_filter else s.flt, probes=mm.probes, probe_keys=mm.keys,
                    probe_count=mm.count,
                    seed=mm.seed, undo_serial=undo_serial)


def revive(snap: Snapshot) -> State:
    """The snapshot's state, live again, measured on its own probes (its filter object becomes live: restore a
    snapshot once)."""
    s = snap.state
    s.flt = snap.flt
    s.truth.flt = s.flt
    mm = s.measure
    mm.probes, mm.keys, mm.count, mm.seed = snap.probes, snap.probe_keys, snap.probe_count, snap.seed
    mm.attach(s.flt)
    return s


# --- the steps -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class UndoEntry:
    label: tuple         # what undo would take back: (op, item), e.g. ("insert", "apple"), ("new filter", None)
    saved: object        # a Checkpoint or a Snapshot
    cost: int            # bytes held
    serial: int          # rises with every step ever pushed (the oldest steps are dropped, so not a position)
    insertion: object = None   # an insert the filter takes back (``saved`` holds no copy of the filter)


def cost_of(saved) -> int:
    """Bytes an entry keeps alive: a copy of the filter for a checkpoint; a whole state for a snapshot (its
    filter, truth and plot rows, which nothing else holds once another filter is shown)."""
    if isinstance(saved, Snapshot):
        return nbytes(saved.state)
    if saved.flt is not None:
        return int(saved.flt.nbytes())
    return saved.log.nbytes if saved.log is not None else 0


def job_checkpoint(s: State, inserts: int) -> Checkpoint | None:
    """What a job of at most ``inserts`` items goes back to (a cancel, a failure, its undo) when a copy of the
    filter is past the budget: the logs of its chunks (``rollback.JobLog``; ``Undo.before_batch`` starts one per
    chunk) when they are sure to be within it; None otherwise (the caller copies, or keeps nothing). Within the
    budget one copy is the cheaper in time: a log makes every chunk's positions (an auto-play's chunks go by hash
    halves without them) and reads their bits, a third more CPU per item."""
    flt = s.flt
    logged = rollback.log_bytes(flt, inserts)
    if logged is not None and int(flt.nbytes()) > BUDGET and logged <= BUDGET:
        return checkpoint(s, False, log=rollback.JobLog())
    return None


def batch_checkpoint(s: State, inserts: int, budget: int | None = None) -> Checkpoint:
    """What a batch of ``inserts`` items into ``s`` goes back to should it fail part way, and what its undo step
    holds: a log of what it changes (its ``note`` is the caller's, before the batch writes) when the variant
    has one and it is smaller than a copy of the filter; else a copy within ``budget``; else neither
    (``partial``: a failure can put back the items, the plot and the history, and must say that the batch may
    be partly in the filter)."""
    flt = s.flt
    budget = BUDGET if budget is None else budget
    size = int(flt.nbytes())
    logged = rollback.log_bytes(flt, inserts)
    if logged is not None and logged < size and logged <= budget:
        return checkpoint(s, False, log=rollback.batch_log(flt))
    if size <= budget:
        try:
            return checkpoint(s)
        except MemoryError:     # no room for the copy: as past the budget
            pass
    if logged is not None and logged <= budget:
        return checkpoint(s, False, log=rollback.batch_log(flt))
    return checkpoint(s, False, log=rollback.partial_log(flt), partial=True)


class UndoStack:
    def __init__(self, depth: int = DEPTH, budget: int = BUDGET):
        self.depth, self.budget = depth, budget
        self._steps: list[UndoEntry] = []
        self._held = 0           # bytes held by the steps
        self._serial = 0         # the serial number the next step gets
        # the steps the newest push pushed out, kept until another change: a job that is rolled back and drops
        # its step puts them back (a cancelled import on a full stack used to forget the oldest undo step)
        self._evicted: tuple[object, list[UndoEntry]] | None = None

    @property
    def serial(self) -> int:
        """The serial number the next step will get: steps taken from now on have this one or higher."""
        return self._serial

    def affordable(self, nbytes: int) -> bool:
        """Whether a step holding ``nbytes`` can be kept; when not, nothing before it can be undone either
        (the stack is emptied), and the caller need not make the copy at all."""
        if nbytes > self.budget:
            self.cut(0)
            return False
        return True

    def push(self, label: tuple, saved, cost: int | None = None, insertion=None) -> None:
        """``cost``: the bytes ``saved`` holds, from a caller that has asked ``affordable`` already;
        ``insertion``: the insert made after ``saved``, to be taken back by the filter (see the module's note)."""
        if cost is None:
            cost = cost_of(saved)
            if not self.affordable(cost):
                return
        self._steps.append(UndoEntry(label, saved, cost, self._serial, insertion))
        self._serial += 1
        self._held += cost
        evicted = []
        while len(self._steps) > self.depth or self._held > self.budget:
            evicted.append(self._steps.pop(0))
            self._held -= evicted[-1].cost
        self._evicted = (saved, evicted)

    def pop(self) -> UndoEntry | None:
        self._evicted = None
        if not self._steps:
            return None
        step = self._steps.pop()
        self._held -= step.cost
        return step

    def recount(self, saved) -> None:
        """The newest step holds ``saved``, which has grown since it was pushed (a job's logs): its cost is
        counted again, and the oldest steps dropped past the budget (it too, when alone past it)."""
        if self._steps and self._steps[-1].saved is saved:
            step = self._steps.pop()
            self._held -= step.cost
            self.push(step.label, saved)

    def cut(self, depth: int) -> None:
        """Forget the steps after the first ``depth``."""
        self._evicted = None
        for step in self._steps[depth:]:
            self._held -= step.cost
        del self._steps[depth:]

    def cut_from(self, serial: int) -> None:
        """Forget the steps taken from ``serial`` on (a kept state was put back: they belonged to another)."""
        self.cut(sum(1 for step in self._steps if step.serial < serial))

    def drop(self, saved) -> None:
        """Forget the newest step if it holds ``saved`` (a job that was rolled back left nothing to undo), and
        put back the older steps its push had pushed out."""
        if self._steps and self._steps[-1].saved is saved:
            evicted = self._evicted[1] if self._evicted is not None and self._evicted[0] is saved else []
            self.pop()
            self._steps[:0] = evicted
            self._held += sum(step.cost for step in evicted)

    @property
    def label(self) -> tuple | None:
        """What the next undo takes back, or None."""
        return self._steps[-1].label if self._steps else None

    def __len__(self) -> int:
        return len(self._steps)


class Undo:
    """What the workbench keeps before each change, and ``undo`` (``Workbench`` holds one as ``_undo`` beside its
    ``undo_stack``, and forwards ``undo`` and ``undo_what``). It is handed the workbench, of which it uses the
    public side (``state``, ``events``, ``cancel()``, ``rollback()``), the stack, and how to put a whole kept
    state back (``revive``: the workbench's own, as it also restores the probe settings). While the workbench is
    quiet (its events blocked: a replay) or a job runs (``in_job``, set by ``Jobs``) no operation keeps a step."""

    def __init__(self, bench, stack: UndoStack, *, revive):
        self._bench, self.stack, self._revive = bench, stack, revive
        self._events = bench.events
        self.in_job = False     # a job runs (Jobs says so as it starts and ends): its step is the whole job
        # the running job has nothing to go back to (past the budget: no step, and not all or nothing): each of
        # its chunks keeps a checkpoint of its own (a log of the bits it sets), put back alone if it fails
        self.chunks_go_back = False
        # the running job goes back through the logs of its chunks (a rollback.JobLog: job_checkpoint), which each
        # chunk's checkpoint starts the next of
        self.job_log = None

    @property
    def _single(self) -> bool:
        """Whether an operation keeps a step of its own: not while quiet nor inside a job (whose step is the whole
        job)."""
        return not self._events.blocked and not self.in_job

    def _affordable_checkpoint(self, s, copy_filter: bool) -> tuple[Checkpoint, int] | None:
        """A checkpoint of ``s`` and what it costs, when an operation keeps a step and the stack can afford it (a
        filter too large for the budget is not copied at all: the undo steps before it are forgotten)."""
        if not self._single:
            return None
        cost = s.flt.nbytes() if copy_filter else 0
        return (checkpoint(s, copy_filter), cost) if self.stack.affordable(cost) else None

    def keep(self, what: tuple, s, copy_filter: bool = True) -> Checkpoint | None:
        """Before an operation on the state ``s``: its state, so that ``undo`` can put it back (``what``: (op,
        item)); the copy's cost is the filter's size. Returns what the step holds (None: no step), for
        ``unkeep``."""
        kept = self._affordable_checkpoint(s, copy_filter)
        if kept is not None:
            self.stack.push(what, *kept)
            return kept[0]
        return None

    def before_insert(self, s) -> tuple[Checkpoint, int] | None:
        """Before a typed insert into the state ``s``: what ``kept_insert`` makes its step of, after the insert
        (None: no step). The filter is copied only when its variant cannot take back its own insert."""
        return self._affordable_checkpoint(s, not s.flt.capabilities.takes_back_inserts)

    def kept_insert(self, what: tuple, kept: tuple[Checkpoint, int], insertion) -> None:
        """The insert made after ``before_insert`` gave ``kept`` is done: its step (undone by the filter taking
        ``insertion`` back, or by the copy the checkpoint holds)."""
        cp, cost = kept
        self.stack.push(what, cp, cost, insertion if cp.flt is None else None)

    def before_batch(self, s, inserts: int) -> Checkpoint | None:
        """Before a batch into the state ``s``: what it goes back to should it fail part way, and what
        ``kept_batch`` makes its undo step of once it is done (``batch_checkpoint``); None inside a job whose
        chunks keep none (the job goes back to its own start)."""
        if self.in_job and self.job_log is not None:
            return checkpoint(s, False, log=self.job_log.chunk(s.flt))
        if self.in_job and not self.chunks_go_back:
            return None
        return batch_checkpoint(s, inserts)

    def before_removal(self, s, data: bytes) -> Checkpoint:
        """Before a removal of ``data`` from the state ``s``: what it goes back to should it fail part way, and
        what ``kept_batch`` makes its step of once it is done: the counters at the item's positions (a log, as
        for a batch), or a copy of the filter for a variant that cannot be logged."""
        log = rollback.batch_log(s.flt)
        if log is None:
            return batch_checkpoint(s, 1)
        log.note(s.flt, None, [data])
        return checkpoint(s, False, log=log)

    def kept_batch(self, what: tuple, cp: Checkpoint | None) -> None:
        """The batch (or removal) that ``before_batch`` gave ``cp`` for is done: its undo step, when operations
        keep steps (one whose filter could not be put back forgets the steps before it: they cannot be
        reached)."""
        if not self._single or cp is None:
            return
        if cp.partial:
            self.stack.cut(0)
            return
        cost = cost_of(cp)
        if self.stack.affordable(cost):
            self.stack.push(what, cp, cost)

    def unkeep(self, saved) -> None:
        """The operation that ``keep`` gave ``saved`` for was refused after all: its step goes, and the older
        steps its push had pushed out of a full stack come back (a pop left the stack one step short)."""
        if saved is not None:
            self.stack.drop(saved)

    def keep_state(self, what: tuple, copy_filter: bool = True) -> None:
        """Before the filter is replaced or emptied: the whole state (also while quiet: undo after Open brings
        the filter before it back, not a few operations of the one it replaced). ``copy_filter=False``: the
        filter is replaced, not emptied in place, so the state keeps it as it is. Its cost is asked before any
        copy: a filter past the budget was copied whole (512 MiB for an opened 2^32-bit one) for a step the
        stack then refused."""
        s = self._bench.state
        cost = nbytes(s)
        if self.stack.affordable(cost):
            self.stack.push(what, snapshot(s, self.stack.serial, copy_filter), cost)

    def keep_job(self, label: str, saved=None, inserts: int = 0):
        """Before a bulk insert: one step for the whole job (``saved``: the job's own checkpoint, if it keeps
        one; else the logs of its chunks when ``job_checkpoint`` finds them smaller than a copy for its
        ``inserts`` items). Returns what the step holds, or None when none was kept (quiet, or a filter past the
        budget with a job too long to log)."""
        if self._events.blocked:
            return None
        if saved is None:
            saved = job_checkpoint(self._bench.state, inserts) if inserts else None
        if saved is None:
            # asked before the copy: a filter past the budget (10^8 counters, 100 MB) was copied whole at every
            # job's start (auto-play's too) for a step the stack then refused
            if not self.stack.affordable(self._bench.state.flt.nbytes()):
                return None
            saved = checkpoint(self._bench.state)
        self.stack.push(("insert batch", label), saved)
        return saved

    def drop(self, saved) -> None:
        """The job that kept ``saved`` left nothing to undo (see ``UndoStack.drop``)."""
        self.stack.drop(saved)

    def recount(self, saved) -> None:
        """The job that kept ``saved`` (a log that grew with its chunks) is over: its step costs what it holds."""
        self.stack.recount(saved)

    @property
    def what(self) -> tuple | None:
        return self.stack.label

    def undo(self) -> bool:
        step = self.stack.pop()
        if step is None:
            self._bench.events.notice.emit("Nothing to undo.")
            return False
        self._bench.cancel()
        if isinstance(step.saved, Snapshot):
            self._revive(step.saved)
        else:
            self._bench.rollback(step.saved, step.insertion)
        return True
