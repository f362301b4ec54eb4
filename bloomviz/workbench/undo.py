"""Undo: the states before the last operations, newest last, within a memory budget.

Before an insert, a lookup, a removal or a batch the model keeps a ``Checkpoint`` (a copy of the filter and the
lengths of everything else); before the filter is replaced or emptied, a ``Snapshot`` (the whole state kept
aside). Undo puts the newest back. Each entry costs about one copy of the filter, so the stack keeps at most
``DEPTH`` entries and drops the oldest past ``BUDGET`` bytes: a 10^7-counter filter keeps a few steps, a
lecture's 64-bit filter keeps fifty. A job's chunks are not separate steps: undo goes back to before the job.
"""

from __future__ import annotations

from dataclasses import dataclass

from bloomviz.workbench.state import Snapshot, nbytes

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
