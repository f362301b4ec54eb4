"""Ground truth: what was really inserted, so that every lookup is classified exactly.

The positions of every insert are kept (one row of k per insert, 4 bytes a position while m < 2^32), so that
"was this inserted?" and "which items set bit i" are one vectorised scan, on demand (~10-20 ms at 10^7 inserts).
A generated run's rows are made when a scan first reads them (``position_rows``); "was this inserted?" asks the
run itself (its generator reads an item's digits back), so only "which items set bit i" makes them.
The items themselves are an ``ItemLog``: auto-played generated items are kept as runs (generator, start, stop),
not as strings, and read back by index when a scan names them. A filter whose k is not fixed (a scalable
filter: each stage has its own) keeps a set of the items' bytes instead, and the rows of each stage are computed
when first asked for.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from bloomviz.filters import rows as filter_rows
from bloomviz.filters.generated_positions import positions as generated_positions
from bloomviz.items.encoding import to_bytes, to_bytes_list
from bloomviz.measure.verdicts import ForcedRemoval
from bloomviz.items.generated import GeneratedRun
from bloomviz.workbench.item_log import ItemLog
from bloomviz.workbench.position_rows import PositionRows

CULPRIT_LIMIT = 20
DEDUPE_LIMIT = 50_000
SCAN_BLOCK = 1 << 20     # stored positions compared per block (4 MiB of uint32: stays in cache)


def sorted_unique(values: np.ndarray) -> np.ndarray:
    """np.unique for int arrays by sorting: numpy 2.3's hash-based np.unique is ~40x slower on 10^5 positions."""
    out = np.sort(np.asarray(values, dtype=np.int64))
    if out.size > 1:
        out = out[np.concatenate(([True], out[1:] != out[:-1]))]
    return out


class Truth:
    """The items inserted into one filter, in order, and how to tell a member from a false positive."""

    def __init__(self, flt):
        self.flt = flt
        self.fixed_k = bool(flt.capabilities.sized)
        dtype = np.uint32 if flt.m <= 1 << 32 else np.int64
        self.rows = PositionRows(flt.k, dtype, self._run_rows) if self.fixed_k else None
        self.items = ItemLog()
        # Without stored positions membership needs the items' bytes, counted: going back (undo, a failed job)
        # takes the later inserts' counts off instead of copying the whole table at every operation.
        self.keys: dict[bytes, int] | None = None if self.fixed_k else {}
        self.removed: dict[bytes, int] = {}           # removals of inserted items, per item (counting)
        self.forced: list[ForcedRemoval] = []         # forced removals, in order: what a false negative names
        # removals after which the bits are no longer those of the members inserted afresh (forced, or a
        # saturated counter left standing): the n-insert formula stops describing the filter
        self.distorting = 0
        # the plot row of the first such removal: the rows before it are still n inserts into a fresh filter
        self.distorted_row: int | None = None
        self.known = True                             # False: a filter loaded without its items
        self._stage_rows: dict[int, np.ndarray] = {}  # per stage of a growing filter, on demand

    def remember(self, items: Sequence[object], datas: Sequence[bytes] | None, positions) -> None:
        """Note inserts: ``items`` (a list, or a ``GeneratedRun``), their bytes (needed only without fixed k)
        and their rows of positions (None for a run: made from it when first read)."""
        if self.keys is not None:
            keys = self.keys
            for data in datas:
                keys[data] = keys.get(data, 0) + 1
        self.items.extend(items)
        if self.rows is not None:
            if positions is not None:
                self.rows.extend(positions)
            elif isinstance(items, GeneratedRun):
                self.rows.defer(items)

    def _run_rows(self, run: GeneratedRun) -> np.ndarray:
        """A run's rows of positions, as its insert computed them (filters.generated_positions)."""
        return generated_positions(self.flt, run.items, run.start, run.stop)

    def reserve(self, extra: int) -> None:
        if self.rows is not None:
            self.rows.reserve(extra)

    def nbytes(self) -> int:
        """About what the truth holds in memory (for the undo stack's budget)."""
        rows = self.rows.nbytes if self.rows is not None else 0
        return rows + 80 * self.items.typed_count + (100 * len(self.keys) if self.keys is not None else 0)

    def cut(self, items: int, positions: int, removed: dict, forced: int | None = None,
            distorting: int | None = None) -> None:
        """Back to an earlier length (a rollback)."""
        if self.keys is not None:
            for data in to_bytes_list(self.items[items:]):
                left = self.keys[data] - 1
                if left:
                    self.keys[data] = left
                else:
                    del self.keys[data]
        self.items.cut(items)
        if self.rows is not None:
            self.rows.truncate(positions)
        self.removed = dict(removed)
        if forced is not None:
            del self.forced[forced:]
        if distorting is not None:
            self.distorting = distorting
            if not distorting:
                self.distorted_row = None
        self._stage_rows = {}

    def member(self, data: bytes, positions=None) -> bool:
        """Was ``data`` inserted (and not removed since)?"""
        inserted, removed = self.copies(data, positions)
        return inserted > removed   # a counting filter's removals take inserts back

    def copies(self, data: bytes, positions=None) -> tuple[int, int]:
        """How often ``data`` was inserted, and how many of those inserts removals took back. The stored rows
        narrow it to a few candidates, compared exactly. (A Python set of a million items would cost ~100 MB and
        stall the event loop for ~50 ms each time it grows; a scan of the positions costs a few milliseconds per
        lookup.)"""
        removed = self.removed.get(data, 0)
        if self.keys is not None:
            return self.keys.get(data, 0), removed
        made, deferred = self.rows.rows_made()
        inserted = 0
        if made:
            dtype = made[0][1].dtype
            pos = np.asarray(positions if positions is not None else self.flt.positions(data), dtype=dtype)
            # one column first (a contiguous-enough pass), the whole row only for its few matches: 10 ms at 10^7
            # inserts where comparing every row whole took 200
            found = []
            for first, rows in made:
                candidates = np.flatnonzero(rows[:, 0] == pos[0])
                found.append(candidates[(rows[candidates] == pos).all(axis=1)] + first)
            found = np.concatenate(found)
            if found.size:     # (mostly none: a first insert of the item)
                inserted = sum(1 for item in self.items.take(found) if to_bytes(item) == data)
        for _, run in deferred:     # a run's rows not made yet: the run knows its items
            index = run.items.index_of(data)
            inserted += index is not None and run.start <= index < run.stop
        return inserted, removed

    def inserts_at_bits(self, indices: Sequence[int]) -> dict[int, np.ndarray]:
        """``inserts_at_bit`` for several cells in one pass over the rows: {index: insert indices}."""
        wanted = list(dict.fromkeys(int(i) for i in indices))
        if not self.fixed_k:
            return {i: self.inserts_at_bit(i) for i in wanted}
        if not len(self.rows):
            return {i: np.zeros(0, dtype=np.int64) for i in wanted}
        rows = self.rows.view()
        k, flat, top = rows.shape[1], rows.reshape(-1), np.iinfo(rows.dtype).max
        found: dict[int, list] = {i: [] for i in wanted}
        scan = [i for i in wanted if 0 <= i <= top]
        # Block by block, each block compared with every index while it is in cache: a false positive's k cells
        # at 10^7 inserts of k = 7 took 216 ms as k whole scans, 56 ms so (the flat matches divided by k; a
        # row-wise .any(axis=1) took 160 ms for one cell)
        hit = np.empty(min(SCAN_BLOCK, flat.size), dtype=bool)
        for start in range(0, flat.size, SCAN_BLOCK):
            block = flat[start:start + SCAN_BLOCK]
            eq = hit[:block.size]
            for i in scan:
                np.equal(block, rows.dtype.type(i), out=eq)
                if eq.any():
                    found[i].append(np.flatnonzero(eq) + start)
        out = {}
        for i, parts in found.items():
            hits = np.concatenate(parts) // k if parts else np.zeros(0, dtype=np.int64)
            out[i] = hits if hits.size < 2 else hits[np.concatenate(([True], hits[1:] != hits[:-1]))]
        return out

    def inserts_at_bit(self, index: int) -> np.ndarray:
        """Indices (into ``items``) of the inserts whose positions include grid cell ``index``."""
        flt = self.flt
        if self.fixed_k:
            return self.inserts_at_bits([index])[int(index)]
        if not 0 <= index < flt.m:
            return np.zeros(0, dtype=np.int64)
        stages = flt.stages
        stage = stages.of_bit(index)
        local = index - stages.offsets[stage]
        idx = np.flatnonzero((self._rows_of_stage(stage) == local).any(axis=1))
        return idx + stages.specs[stage].start

    def items_at_bit(self, index: int, limit: int = CULPRIT_LIMIT) -> tuple[list, int]:
        """The distinct inserted items whose positions include ``index`` (the first ``limit``) and their number.

        Past DEDUPE_LIMIT matching inserts (a tiny filter holding a huge stream) the count is of inserts, not of
        distinct items: telling repeats apart would cost a second per hover.
        """
        return self._named(self.inserts_at_bit(index), limit)

    def items_at_bits(self, indices: Sequence[int], limit: int = CULPRIT_LIMIT) -> dict[int, tuple[list, int]]:
        """``items_at_bit`` for several cells (a false positive's), the rows scanned once: {index: (names, n)}."""
        return {i: self._named(idx, limit) for i, idx in self.inserts_at_bits(indices).items()}

    def _named(self, idx: np.ndarray, limit: int) -> tuple[list, int]:
        first: dict[bytes, object] = {}   # an item inserted twice is named once
        for item in self.items.take(idx[:DEDUPE_LIMIT]):
            data = to_bytes(item)
            if self.removed and data not in first and not self.member(data):
                continue   # removed since: it no longer holds this bit
            first.setdefault(data, item)
        names = list(first.values())
        total = len(names) if idx.size <= DEDUPE_LIMIT else int(idx.size)
        return names[:limit], total

    def false_negatives(self, cleared) -> list:
        """Inserted (and not removed) items that test negative now; only items with a position among the
        counters that just reached 0 can have changed."""
        if not cleared or self.rows is None or not len(self.rows):
            return []
        rows = self.rows.view()
        hit = np.flatnonzero(np.isin(rows, np.asarray(cleared, dtype=rows.dtype)).any(axis=1))
        if not hit.size:
            return []
        negative = ~filter_rows.test_rows(self.flt, rows[hit].astype(np.int64))
        out: dict[bytes, object] = {}
        for item in self.items.take(hit[negative]):
            data = to_bytes(item)
            if data not in out and self.member(data):
                out[data] = item
        return list(out.values())

    def _rows_of_stage(self, stage: int) -> np.ndarray:
        """Positions (the stage's own) of the items inserted into one stage, computed once per stage."""
        flt = self.flt
        stages = flt.stages
        spec, st = stages.specs[stage], stages[stage]
        rows = self._stage_rows.get(stage)
        have = 0 if rows is None else rows.shape[0]
        if have < len(st):
            fresh = st.positions_many(self.items[spec.start + have: spec.start + len(st)])
            rows = fresh if rows is None else np.concatenate([rows, fresh])
            self._stage_rows[stage] = rows
        # An empty stage has no rows yet: an empty table, not None (hovering an empty filter raised).
        return rows if rows is not None else np.zeros((0, st.k), dtype=np.int64)
