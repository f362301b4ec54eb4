"""Every insert into the shown filter, in order: typed items as given, generated runs as (generator, start, stop).

A list of ten million auto-played strings cost ~80 bytes an insert and a garbage-collector pause of ~100 ms
when it was freed; a run of generated items (``items.generated.GeneratedRun``) is three numbers however long it
is. ``ItemLog`` reads as the list of items it stands for (indexing, slicing, iteration, ``==`` with a list):
the strings of a run are made only when they are read.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Iterable, Iterator, Sequence

import numpy as np

from bloomviz.items.generated import GeneratedRun


class ItemLog(Sequence):
    def __init__(self) -> None:
        self._parts: list[list | GeneratedRun] = []   # a list of typed items, or a run; never two lists in a row
        self._starts: list[int] = []                  # the log index of each part's first item
        self._len = 0

    def __len__(self) -> int:
        return self._len

    # --- growing and cutting ---------------------------------------------------------------------------------
    def extend(self, items: Iterable[object]) -> None:
        last = self._parts[-1] if self._parts else None
        if isinstance(items, GeneratedRun):
            if not len(items):
                return
            if isinstance(last, GeneratedRun) and items.follows(last):
                self._parts[-1] = GeneratedRun(last.items, last.start, items.stop)
            else:
                self._starts.append(self._len)
                self._parts.append(GeneratedRun(items.items, items.start, items.stop))
            self._len += len(items)
            return
        items = list(items)
        if not items:
            return
        if isinstance(last, list):
            last.extend(items)
        else:
            self._starts.append(self._len)
            self._parts.append(items)
        self._len += len(items)

    def cut(self, length: int) -> None:
        """Keep the first ``length`` inserts (a rollback)."""
        length = max(0, min(int(length), self._len))
        while self._parts and self._starts[-1] >= length:
            self._parts.pop()
            self._starts.pop()
        if self._parts:
            keep = length - self._starts[-1]
            last = self._parts[-1]
            if isinstance(last, GeneratedRun):
                self._parts[-1] = GeneratedRun(last.items, last.start, last.start + keep)
            else:
                del last[keep:]
        self._len = length

    # --- reading ---------------------------------------------------------------------------------------------
    def runs(self) -> list[GeneratedRun]:
        """The generated runs in the log."""
        return [p for p in self._parts if isinstance(p, GeneratedRun)]

    def typed(self) -> Iterator[object]:
        """The items that are not in a generated run, in order."""
        for part in self._parts:
            if not isinstance(part, GeneratedRun):
                yield from part

    @property
    def typed_count(self) -> int:
        return sum(len(p) for p in self._parts if not isinstance(p, GeneratedRun))

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(self._len)
            if step != 1:
                return self.take(np.arange(start, stop, step, dtype=np.int64))
            out: list = []
            if stop <= start:
                return out
            part = bisect_right(self._starts, start) - 1
            while part < len(self._parts) and self._starts[part] < stop:
                first = self._starts[part]
                out.extend(self._parts[part][max(0, start - first): stop - first])
                part += 1
            return out
        index = int(index)
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError(f"insert {index} of {self._len}")
        part = bisect_right(self._starts, index) - 1
        return self._parts[part][index - self._starts[part]]

    def pieces(self, start: int, stop: int) -> list:
        """Inserts start…stop-1 as they are kept: lists of typed items, and generated runs as runs (no strings)."""
        out: list = []
        part = bisect_right(self._starts, start) - 1
        while 0 <= part < len(self._parts) and self._starts[part] < stop:
            first, src = self._starts[part], self._parts[part]
            lo, hi = max(0, start - first), min(len(src), stop - first)
            if hi > lo:
                out.append(GeneratedRun(src.items, src.start + lo, src.start + hi) if isinstance(src, GeneratedRun)
                           else list(src[lo:hi]))
            part += 1
        return out

    def take(self, indices: Sequence[int]) -> list:
        """The items at ``indices`` (log indices, in any order), each run's strings made in one numpy pass."""
        idx = np.asarray(indices, dtype=np.int64).ravel()
        if idx.size and (idx.min() < -self._len or idx.max() >= self._len):
            raise IndexError(f"insert indices must be in [0, {self._len})")
        idx = np.where(idx < 0, idx + self._len, idx)
        out: list = [None] * idx.size
        which = np.searchsorted(np.asarray(self._starts, dtype=np.int64), idx, side="right") - 1
        for part in np.unique(which).tolist():
            at = np.flatnonzero(which == part)
            offsets = idx[at] - self._starts[part]
            src = self._parts[part]
            got = src.texts_at(offsets) if isinstance(src, GeneratedRun) else [src[o] for o in offsets.tolist()]
            for i, item in zip(at.tolist(), got):
                out[i] = item
        return out

    def __iter__(self) -> Iterator[object]:
        for part in self._parts:
            yield from part

    def __eq__(self, other) -> bool:
        if isinstance(other, (ItemLog, list, tuple)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None   # mutable, like the list it stands for

    def __repr__(self) -> str:
        return f"ItemLog({self._len} inserts: {self.typed_count} typed, {len(self.runs())} generated runs)"
