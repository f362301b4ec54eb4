"""Replaying a session's operations through the model, at once or as a step job (``Workbench.run_steps``).

A session of a few thousand operations replays at once (well under a second). A longer one (20,000 operations
froze the window for 8.7 s) runs as a workbench step job: a few operations per turn of the event loop, with
the window's progress bar and Cancel; a cancel puts the window back as it was before Open (the caller holds a
``Workbench.snapshot``).

The views follow the replay at its end, not after each operation: redrawing after each of thousands of
operations (a few ms each) would cost more than the replay. So the model is ``quiet`` while operations are
made, and the caller announces the result once (``Workbench.announce``).
"""

from __future__ import annotations

from typing import Sequence

from bloomviz.files import session as sessions

SYNC_OPERATIONS = 2_000   # up to this many operations replay at once


def apply(wb, op) -> bool:
    """Make one recorded operation; True when its verdict differs from the recorded one."""
    if op.op == sessions.BATCH:
        wb.insert_batch(list(op.items))
        return False
    if op.op == sessions.GENERATED:     # hashed as numbers, remembered as the run: no string per item
        wb.insert_batch(op.generated())
        return False
    if op.op == sessions.INSERT:
        wb.insert(op.item)
        return False
    if op.op == sessions.REMOVE:
        wb.remove(op.item, force=op.verdict == sessions.FORCED_REMOVAL)
    else:
        wb.lookup(op.item)
    return bool(op.verdict and wb.history and wb.history[-1].verdict != op.verdict)


class Stepper:
    """``step(count)`` makes the next ``count`` operations with the model quiet."""

    def __init__(self, wb, operations: Sequence):
        self.wb = wb
        self.operations = operations
        self.position = 0
        self.mismatched = 0

    def step(self, count: int) -> int:
        ops = self.operations[self.position: self.position + count]
        with self.wb.quiet():   # the views follow once, at the end (``announce``)
            for op in ops:
                self.mismatched += apply(self.wb, op)
                self.position += 1
        return len(ops)

    def run_all(self) -> int:
        while self.step(4096):
            pass
        return self.mismatched
