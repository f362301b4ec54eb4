"""Which bits of a packed bit array changed since it was last seen: the grid's redraw during bulk work.

A job's chunks come faster than the grid redraws, so the model reports "everything changed" and the window
used to unpack every bit into a new picture: at m = 95.85 M that is ~0.3-0.6 s per redraw on a loaded 2-core
machine, a stall of the event loop. Comparing the packed bytes with a copy of them costs one pass over m / 8
bytes (~10 ms at 10^8 bits) and yields only the bits that changed, which the grid then draws as a change
(cost in proportion to the changes, not to m). numpy only, no Qt.

At 10^8 bits with ~750,000 changed bits between two redraws the comparison alone costs 55-65 ms here, so during
bulk work the window compares a part of the array at a time (``span``), sized to its measured cost.
"""

from __future__ import annotations

import numpy as np


class PackedChanges:
    """Keeps a copy of a little-endian packed bit array (``bitstore.byte_view``) to tell what changed since.

    ``changes(packed, span)`` may compare only ``span`` bytes, from where the last partial comparison stopped,
    wrapping round: the caller bounds the cost of one call and still sees every change within a few calls.
    """

    def __init__(self) -> None:
        self._seen: np.ndarray | None = None
        self._scratch: np.ndarray | None = None
        self._cursor = 0

    def reset(self, packed: np.ndarray | None) -> None:
        """Remember ``packed`` as drawn (None: forget; the next ``changes`` cannot answer)."""
        self._seen = None if packed is None else np.array(packed, dtype=np.uint8, copy=True)
        self._scratch = None if packed is None else np.empty_like(self._seen)
        self._cursor = 0

    def changes(self, packed: np.ndarray, span: int | None = None) -> tuple[np.ndarray, np.ndarray] | None:
        """(positions, values) of the bits that differ from the copy, ascending and each once, and the copy
        brought up to date; None when there is no copy of an array of this size to compare with. With ``span``
        only that many bytes are compared (the next ones after the last call's)."""
        seen = self._seen
        if seen is None or seen.shape != packed.shape:
            return None
        size = packed.size
        if span is None or span >= size:
            lo, hi = 0, size
            self._cursor = 0
        else:
            lo = self._cursor if self._cursor < size else 0
            hi = min(size, lo + max(1, int(span)))
            self._cursor = 0 if hi >= size else hi
        diff = np.bitwise_xor(seen[lo:hi], packed[lo:hi], out=self._scratch[: hi - lo])
        where = np.flatnonzero(diff)
        if not where.size:
            return np.zeros(0, np.int64), np.zeros(0, np.uint8)
        changed = np.flatnonzero(np.unpackbits(diff[where], bitorder="little"))
        where += lo
        now = packed[where]
        seen[where] = now
        positions = where[changed >> 3] * 8 + (changed & 7)
        values = np.unpackbits(now, bitorder="little")[changed]
        return positions, values
