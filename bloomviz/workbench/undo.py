"""Undo: the states before the last operations, newest last, within a memory budget.

Before an insert, a lookup, a removal or a batch the model keeps a ``Checkpoint`` (a copy of the filter and the
lengths of everything else); before the filter is replaced or emptied, a ``Snapshot`` (the whole state kept
aside). Undo puts the newest back. Each entry costs about one copy of the filter, so the stack keeps at most
``DEPTH`` entries and drops the oldest past ``BUDGET`` bytes: a 10^7-counter filter keeps a few steps, a
lecture's 64-bit filter keeps fifty. A job's chunks are not separate steps: undo goes back to before the job.
"""

from __future__ import annotations

from dataclasses import dataclass

from bloomviz.workbench.state import Snapshot, checkpoint, nbytes, revive, snapshot

DEPTH = 50
BUDGET = 96 * 1024 * 1024


@dataclass(frozen=True)
class Step:
    label: tuple         # what undo would take back: (op, item), e.g. ("insert", "apple"), ("new filter", None)
    saved: object        # a state.Checkpoint or a state.Snapshot
    cost: int            # bytes held


def cost_of(saved) -> int:
    """Bytes an entry keeps alive: a copy of the filter for a checkpoint; a whole state for a snapshot (its
    filter, truth and plot rows, which nothing else holds once another filter is shown)."""
    if isinstance(saved, Snapshot):
        return nbytes(saved.state)
    return int(saved.flt.nbytes())


class UndoStack:
    def __init__(self, depth: int = DEPTH, budget: int = BUDGET):
        self.depth, self.budget = depth, budget
        self._steps: list[Step] = []
        self._held = 0           # bytes held by the steps

    def push(self, label: tuple, saved) -> None:
        cost = cost_of(saved)
        if cost > self.budget:       # one copy alone is over the budget: this step cannot be undone
            self.cut(0)
            return
        self._steps.append(Step(label, saved, cost))
        self._held += cost
        while len(self._steps) > self.depth or self._held > self.budget:
            self._held -= self._steps.pop(0).cost

    def pop(self) -> Step | None:
        if not self._steps:
            return None
        step = self._steps.pop()
        self._held -= step.cost
        return step

    def cut(self, depth: int) -> None:
        """Forget the steps after the first ``depth`` (a kept state was put back: they belonged to another)."""
        for step in self._steps[depth:]:
            self._held -= step.cost
        del self._steps[depth:]

    def drop(self, saved) -> None:
        """Forget the newest step if it holds ``saved`` (a job that was rolled back left nothing to undo)."""
        if self._steps and self._steps[-1].saved is saved:
            self.pop()

    @property
    def label(self) -> tuple | None:
        """What the next undo takes back, or None."""
        return self._steps[-1].label if self._steps else None

    def __len__(self) -> int:
        return len(self._steps)


class Undo:
    """Mixed into ``Workbench``: what it keeps before each change, and ``undo``."""

    def _keep(self, what: tuple) -> None:
        """Before an operation: its state, so that ``undo`` can put it back (``what``: (op, item))."""
        if self._job is None and not self._quiet:
            self.undo_stack.push(what, checkpoint(self._s))

    def _unkeep(self) -> None:
        """The operation was refused after all: its step holds nothing to undo."""
        if self._job is None and not self._quiet:
            self.undo_stack.pop()

    def _keep_state(self, what: tuple) -> None:
        """Before the filter is replaced or emptied: the whole state."""
        if not self._quiet:
            self.undo_stack.push(what, snapshot(self._s, len(self.undo_stack)))

    @property
    def undo_what(self) -> tuple | None:
        """(op, item) of what ``undo`` would take back, or None when there is nothing to undo."""
        return self.undo_stack.label

    def undo(self) -> bool:
        """Put back the state before the last operation (or before the filter was replaced)."""
        step = self.undo_stack.pop()
        if step is None:
            self._emit(self.events.notice, "Nothing to undo.")
            return False
        self.cancel()
        if isinstance(step.saved, Snapshot):
            self._emit(self.events.about_to_reset)
            self._s = revive(step.saved)
            self._probe_count = self._s.measure.count
            self._emit(self.events.reset, self._s.last)
        else:
            self.rollback(step.saved)
        return True
