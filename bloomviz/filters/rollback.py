"""What a batch of inserts is about to change in a filter, noted before it writes, so that a failure part way
(or an undo, last in, first out) puts the filter back exactly without a copy of it.

A copy is what the window's model used to keep (workbench/undo.py): the whole filter, 512 MiB for an opened
2^32-bit filter, for a paste of a few thousand items. A batch of n items sets at most n·k bits; the positions
among them that are 0 before it writes are all it can change, so they are all that must be kept (8 bytes each):
clearing them again, and putting back the insert count and bits set, gives the filter as it was, whatever part
of the batch was written. The same for the other variants:

- plain bits (standard, partitioned, blocked: ``BitsLog``): the positions that were 0;
- counters (counting: ``CountersLog``): every position the batch touches and the counter it held;
- stages (scalable: ``StagesLog``): the stages it opens are dropped whole, and the newest stage's bits logged
  as plain bits (the items it takes are hashed once more for that: the stages before it are full and never
  change).

A class says it can be logged with ``Capabilities.logs_batches``; a variant that does not (a new one) is copied
or, past the budget, left "partly in the filter" by the caller, never logged wrongly. Only this package reaches
into a filter's private fields.
"""

from __future__ import annotations

import numpy as np

from bloomviz.filters import bitstore, capabilities
from bloomviz.unique_ints import sorted_unique

_EMPTY = np.zeros(0, dtype=np.int64)


def clear_bits(bits, positions: np.ndarray) -> None:
    """Clear the bits at ``positions`` (any order, repeats allowed), in one vectorised pass."""
    if positions.size:
        p = np.asarray(positions, dtype=np.int64)
        masks = ~(np.uint8(1) << (p & 7).astype(np.uint8))
        np.bitwise_and.at(bitstore.byte_view(bits), p >> 3, masks)


def set_bits(bits, positions: np.ndarray) -> None:
    """Set the bits at ``positions`` (any order, repeats allowed)."""
    if positions.size:
        p = np.asarray(positions, dtype=np.int64)
        np.bitwise_or.at(bitstore.byte_view(bits), p >> 3, np.uint8(1) << (p & 7).astype(np.uint8))


class BitsLog:
    """A filter of plain bits: its insert count, bits set and, once ``note``d, the positions a batch would turn
    from 0 to 1."""

    def __init__(self, flt):
        self._count, self._bits_set = flt._count, flt._bits_set
        self.positions = _EMPTY

    def note(self, flt, positions: np.ndarray | None, datas=None) -> None:
        """``positions``: the rows (or a flat array) of positions the batch will set, before it writes (None:
        hashed here from ``datas``, the batch's items as bytes)."""
        if positions is None:
            positions = flt.positions_many(datas)
        flat = np.asarray(positions, dtype=np.int64).reshape(-1)
        # (not made distinct: a sort of every position an auto-play chunk sets cost a third more CPU per chunk
        # into a 2^32-bit filter; two items of one batch on one bit that was 0 are rare where a log is chosen)
        self.positions = flat[bitstore.test_bits(flt.bits, flat) == 0]

    @property
    def nbytes(self) -> int:
        return int(self.positions.nbytes)

    def put_back(self, flt) -> None:
        clear_bits(flt._bits, self.positions)
        flt._count, flt._bits_set = self._count, self._bits_set


class CountersLog:
    """A counting filter: its counts and, once ``note``d, every counter a batch (or a removal) touches with its
    value before."""

    def __init__(self, flt):
        self._count, self._bits_set = flt._count, flt._bits_set
        self.positions, self.values = _EMPTY, np.zeros(0, dtype=np.uint8)

    def note(self, flt, positions: np.ndarray | None, datas=None) -> None:
        touched = sorted_unique(flt.positions_many(datas) if positions is None else positions)
        self.values = flt._cells.values[touched]      # (fancy indexing: a copy)
        self.positions = touched

    @property
    def nbytes(self) -> int:
        return int(self.positions.nbytes + self.values.nbytes)

    def put_back(self, flt) -> None:
        flt._cells.values[self.positions] = self.values
        # each touched counter's bit as its value was (an insert turned some on; a removal, some off)
        clear_bits(flt._bits, self.positions[self.values == 0])
        set_bits(flt._bits, self.positions[self.values > 0])
        flt._count, flt._bits_set = self._count, self._bits_set


class StagesLog:
    """A scalable filter: how many stages it had, its insert count, and the newest stage as plain bits (the
    batch's first items, as many as that stage has room for, go there; the rest open new stages)."""

    def __init__(self, flt, bits: bool = True):
        """``bits=False``: the newest stage's bits are not logged (no room for them): ``put_back`` drops the
        opened stages and puts back the counts, the bits the batch set in the newest stage stay (counted again),
        as a "partly in the filter" batch says: some of its bits, without its items."""
        self._stages, self._count = len(flt._stages), flt._count
        self._newest = BitsLog(flt._stages[-1]) if bits else None
        self._newest_count = flt._stages[-1]._count

    def note(self, flt, positions, datas) -> None:
        """``datas``: the batch's items as bytes (a scalable filter's positions are not fixed before it grows)."""
        newest = flt._stages[-1]
        room = max(0, flt._specs[-1].capacity - len(newest))
        if room and len(datas) and self._newest is not None:
            self._newest.note(newest, None, datas[:room])

    @property
    def nbytes(self) -> int:
        return self._newest.nbytes if self._newest is not None else 0

    def put_back(self, flt) -> None:
        flt._close(len(flt._stages) - self._stages)
        newest = flt._stages[-1]
        if self._newest is not None:
            self._newest.put_back(newest)
        else:
            newest._count, newest._bits_set = self._newest_count, int(newest._bits.count())
        flt._count = self._count


class JobLog:
    """The logs of a job's chunks, oldest first (``chunk`` starts the next): put back newest first, each restoring
    the filter as the chunk before it left it, they give the filter as the job found it. An import into an opened
    2^32-bit filter copied its 512 MiB first to be all or nothing."""

    def __init__(self):
        self._logs: list = []

    def chunk(self, flt):
        """The log of the next chunk (empty: its ``note`` is the caller's), kept with the others."""
        log = batch_log(flt)
        self._logs.append(log)
        return log

    @property
    def nbytes(self) -> int:
        return sum(log.nbytes for log in self._logs)

    def put_back(self, flt) -> None:
        for log in reversed(self._logs):   # (a chunk already put back alone is put back again: the same values)
            log.put_back(flt)
        self._logs.clear()


def log_bytes(flt, inserts: int) -> int | None:
    """An upper bound of what a log of ``inserts`` more items holds at its largest (the positions a batch sets,
    8 bytes each, and a byte per counter), or None when the class cannot be logged."""
    caps = capabilities.of(flt)
    if not caps.logs_batches:
        return None
    per_position = 9 if caps.counting else 8
    if caps.staged:     # only the items the newest stage has room for are logged (StagesLog); the rest open stages
        newest = flt._stages[-1]
        room = max(0, flt._specs[-1].capacity - len(newest))
        return min(int(inserts), room) * int(newest.k) * per_position
    return int(inserts) * int(flt.k) * per_position


def partial_log(flt):
    """What a batch with no room for a log or a copy can still put back: a scalable filter's opened stages and
    counts (``StagesLog`` without the newest stage's bits); None for the others (their bits and counts are one)."""
    return StagesLog(flt, bits=False) if capabilities.of(flt).staged else None


def batch_log(flt):
    """An empty log of ``flt`` (its counts now), to ``note`` the batch's positions (or, for a filter whose
    positions are not fixed, its items) in before the batch writes; None when the class cannot be logged."""
    caps = capabilities.of(flt)
    if not caps.logs_batches:
        return None
    if caps.staged:
        return StagesLog(flt)
    return CountersLog(flt) if caps.counting else BitsLog(flt)
