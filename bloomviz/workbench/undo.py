"""Undo: the states before the last operations, newest last, within a memory budget.

Before an insert, a lookup, a removal or a batch the model keeps a ``Checkpoint`` (a copy of the filter and the
lengths of everything else); before the filter is replaced or emptied, a ``Snapshot`` (the whole state kept
aside). Undo puts the newest back. Each entry costs about one copy of the filter, so the stack keeps at most
``DEPTH`` entries and drops the oldest past ``BUDGET`` bytes: a 10^7-counter filter keeps a few steps, a
lecture's 64-bit filter keeps fifty. A job's chunks are not separate steps: undo goes back to before the job.
"""

from __future__ import annotations

from dataclasses import dataclass

from bloomviz.workbench.state import Snapshot, checkpoint, nbytes, snapshot

DEPTH = 50
BUDGET = 96 * 1024 * 1024


@dataclass(frozen=True)
class UndoEntry:
    label: tuple         # what undo would take back: (op, item), e.g. ("insert", "apple"), ("new filter", None)
    saved: object        # a state.Checkpoint or a state.Snapshot
    cost: int            # bytes held
    serial: int          # rises with every step ever pushed (the oldest steps are dropped, so not a position)


def cost_of(saved) -> int:
    """Bytes an entry keeps alive: a copy of the filter for a checkpoint; a whole state for a snapshot (its
    filter, truth and plot rows, which nothing else holds once another filter is shown)."""
    if isinstance(saved, Snapshot):
        return nbytes(saved.state)
    return int(saved.flt.nbytes()) if saved.flt is not None else 0


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

    def push(self, label: tuple, saved, cost: int | None = None) -> None:
        """``cost``: the bytes ``saved`` holds, from a caller that has asked ``affordable`` already."""
        if cost is None:
            cost = cost_of(saved)
            if not self.affordable(cost):
                return
        self._steps.append(UndoEntry(label, saved, cost, self._serial))
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
    public side (``state``, ``busy``, ``events``, ``cancel()``, ``rollback()``), the stack, and how to put a
    whole kept state back (``revive``: the workbench's own, as it also restores the probe settings). While the
    workbench is quiet (its events blocked: a replay) no operation keeps a step."""

    def __init__(self, bench, stack: UndoStack, *, revive):
        self._bench, self.stack, self._revive = bench, stack, revive
        self._events = bench.events

    def keep(self, what: tuple, s, copy_filter: bool = True) -> None:
        """Before an operation on the state ``s``: its state, so that ``undo`` can put it back (``what``: (op,
        item)). Not inside a job (whose step is the whole job) nor while quiet. A filter too large for the budget
        is not copied at all (the undo steps before it are forgotten); the copy's cost is the filter's size."""
        if self._events.blocked or self._bench.busy:
            return
        cost = s.flt.nbytes() if copy_filter else 0
        if self.stack.affordable(cost):
            self.stack.push(what, checkpoint(s, copy_filter), cost)

    def unkeep(self) -> None:
        """The operation was refused after all: its step holds nothing to undo."""
        if not self._events.blocked and not self._bench.busy:
            self.stack.pop()

    def keep_state(self, what: tuple) -> None:
        """Before the filter is replaced or emptied: the whole state (also while quiet: undo after Open brings
        the filter before it back, not a few operations of the one it replaced)."""
        self.stack.push(what, snapshot(self._bench.state, self.stack.serial))

    def keep_job(self, label: str, saved=None):
        """Before a bulk insert: one step for the whole job (``saved``: the job's own checkpoint, if it keeps
        one). Returns what the step holds, or None when none was kept (quiet)."""
        if self._events.blocked:
            return None
        saved = saved or checkpoint(self._bench.state)
        self.stack.push(("insert batch", label), saved)
        return saved

    def drop(self, saved) -> None:
        """The job that kept ``saved`` left nothing to undo (see ``UndoStack.drop``)."""
        self.stack.drop(saved)

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
            self._bench.rollback(step.saved)
        return True
