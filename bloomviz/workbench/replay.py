"""Replaying a session's operations through the model, at once or as a step job (``Workbench.run_steps``).

A session of a few thousand operations replays at once (well under a second). A longer one (20,000 operations
froze the window for 8.7 s) runs as a workbench step job: a few operations per turn of the event loop, with
the window's progress bar and Cancel; a cancel puts the window back as it was before Open (the caller holds a
``Workbench.snapshot``). One operation can be long work too: a batch or a generated run (an auto-play of up to
10^8 items is one ``insert generated`` line; a session holding a run of 101,000 froze the window 3.8 s on a
loaded machine). So work is counted in items (``work``): a session whose batches and runs hold more than
``SYNC_ITEMS`` replays as a job too, and the job splits such an operation into chunks of items (each chunk one
insert in the history, as an auto-play's chunks are).

The views follow the replay at its end, not after each operation: redrawing after each of thousands of
operations (a few ms each) would cost more than the replay. So the model is ``quiet`` while operations are
made, and the caller announces the result once (``Workbench.announce``).
"""

from __future__ import annotations

from typing import Sequence

from bloomviz.files import session as sessions
from bloomviz.items.generated import GeneratedRun

SYNC_OPERATIONS = 2_000   # up to this many operations replay at once
SYNC_ITEMS = 50_000       # and up to this many items in batches and generated runs


def work(op) -> int:
    """The items one operation inserts (1 for an operation on one item)."""
    if op.op == sessions.BATCH:
        return max(1, len(op.items))
    if op.op == sessions.GENERATED:
        return max(1, op.run[3] - op.run[2])
    return 1


def at_once(operations: Sequence) -> bool:
    """Whether a session's operations are few enough to replay at once (else: a step job)."""
    return len(operations) <= SYNC_OPERATIONS and sum(map(work, operations)) <= SYNC_ITEMS + len(operations)


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


def _part(op, start: int, stop: int):
    """Items ``start``..``stop`` of a batch or a generated run, as that operation would insert them."""
    if op.op == sessions.BATCH:
        return list(op.items[start:stop])
    run = op.generated()
    return GeneratedRun(run.items, run.start + start, run.start + stop)


class Stepper:
    """``step(count)`` makes the next ``count`` items' worth of operations with the model quiet (``work``); a
    batch or a generated run longer than what is left of ``count`` is made in parts."""

    def __init__(self, wb, operations: Sequence):
        self.wb = wb
        self.operations = operations
        self.position = 0
        self.offset = 0          # items of the operation at ``position`` already made
        self.mismatched = 0
        self.total = sum(map(work, operations))

    def step(self, count: int) -> int:
        made = 0
        with self.wb.quiet():   # the views follow once, at the end (``announce``)
            while made < count and self.position < len(self.operations):
                op = self.operations[self.position]
                size = work(op)
                if self.offset or size > count - made:
                    take = min(size - self.offset, max(1, count - made))
                    self.wb.insert_batch(_part(op, self.offset, self.offset + take))
                    self.offset += take
                else:
                    take = size
                    self.mismatched += apply(self.wb, op)
                    self.offset = size
                made += take
                if self.offset >= size:
                    self.position, self.offset = self.position + 1, 0
        return made

    def run_all(self) -> int:
        while self.step(1 << 62):
            pass
        return self.mismatched
