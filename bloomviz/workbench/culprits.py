"""The inserted items behind a cell: which inserts set bit i (the hover, a false positive's culprits) and which
members a removal left testing negative (a counting filter's false negatives). Scans of the truth's rows of
positions (truth.py), made when asked: no insert pays for them. ``truth.culprits`` makes one over the truth for
each question; what a scan keeps (a growing filter's rows per stage) is the truth's (``stage_rows``).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from bloomviz.filters import rows as filter_rows
from bloomviz.items.encoding import to_bytes

CULPRIT_LIMIT = 20
DEDUPE_LIMIT = 50_000
SCAN_BLOCK = 1 << 20     # stored positions compared per block (4 MiB of uint32: stays in cache)


class Culprits:
    """Scans of ``truth`` (a ``truth.Truth``): its fixed-k rows, or per stage of a growing filter."""

    def __init__(self, truth):
        self.truth = truth

    def inserts_at_bits(self, indices: Sequence[int]) -> dict[int, np.ndarray]:
        """``inserts_at_bit`` for several cells in one pass over the rows: {index: insert indices}."""
        wanted = list(dict.fromkeys(int(i) for i in indices))
        if not self.truth.fixed_k:
            return {i: self.inserts_at_bit(i) for i in wanted}
        if not len(self.truth.rows):
            return {i: np.zeros(0, dtype=np.int64) for i in wanted}
        rows = self.truth.rows.view()
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
        flt = self.truth.flt
        if self.truth.fixed_k:
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
        for item in self.truth.items.take(idx[:DEDUPE_LIMIT]):
            data = to_bytes(item)
            if self.truth.removed and data not in first and not self.truth.member(data):
                continue   # removed since: it no longer holds this bit
            first.setdefault(data, item)
        names = list(first.values())
        total = len(names) if idx.size <= DEDUPE_LIMIT else int(idx.size)
        return names[:limit], total

    def false_negatives(self, cleared) -> list:
        """Inserted (and not removed) items that test negative now; only items with a position among the
        counters that just reached 0 can have changed."""
        if not cleared or self.truth.rows is None or not len(self.truth.rows):
            return []
        rows = self.truth.rows.view()
        hit = np.flatnonzero(np.isin(rows, np.asarray(cleared, dtype=rows.dtype)).any(axis=1))
        if not hit.size:
            return []
        negative = ~filter_rows.test_rows(self.truth.flt, rows[hit].astype(np.int64))
        out: dict[bytes, object] = {}
        for item in self.truth.items.take(hit[negative]):
            data = to_bytes(item)
            if data not in out and self.truth.member(data):
                out[data] = item
        return list(out.values())

    def _rows_of_stage(self, stage: int) -> np.ndarray:
        """Positions (the stage's own) of the items inserted into one stage, computed once per stage."""
        flt = self.truth.flt
        stages = flt.stages
        spec, st = stages.specs[stage], stages[stage]
        rows = self.truth.stage_rows.get(stage)
        have = 0 if rows is None else rows.shape[0]
        if have < len(st):
            fresh = st.positions_many(self.truth.items[spec.start + have: spec.start + len(st)])
            rows = fresh if rows is None else np.concatenate([rows, fresh])
            self.truth.stage_rows[stage] = rows
        # An empty stage has no rows yet: an empty table, not None (hovering an empty filter raised).
        return rows if rows is not None else np.zeros((0, st.k), dtype=np.int64)
