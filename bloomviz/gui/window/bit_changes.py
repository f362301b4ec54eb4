"""Which bits of a packed bit array changed since it was last seen: the grid's redraw during bulk work.

A job's chunks come faster than the grid redraws, so the model reports "everything changed" and the window
used to unpack every bit into a new picture: at m = 95.85 M that is ~0.3-0.6 s per redraw on a loaded 2-core
machine, a stall of the event loop. Comparing the packed bytes with a copy of them costs one pass over m / 8
bytes (~10 ms at 10^8 bits) and yields only the bits that changed, which the grid then draws as a change
(cost in proportion to the changes, not to m). numpy only, no Qt.

At 10^8 bits with ~750,000 changed bits between two redraws the comparison alone costs 55-65 ms here, so during
bulk work the window compares a part of the array at a time (``span``), sized to its measured cost; a part
in which more than a given fraction of the bytes changed comes back as a ``Rewrite`` of its bytes, which the
grid draws whole from the packed bits at a cost in proportion to the bytes, not to the changes.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Rewrite(NamedTuple):
    """Bytes [start, stop) of the packed bits changed in so many places that they are best drawn whole
    (``BitGridWidget.set_packed``): ~0.5 ns a bit against ~100 ns a changed bit drawn as a change."""
    start: int
    stop: int


class PackedChanges:
    """Keeps a copy of a little-endian packed bit array (``bitstore.byte_view``) to tell what changed since.

    ``changes(packed, span, limit)`` may compare only ``span`` bytes and take only ``limit`` changed bytes, from
    where the last partial comparison stopped, wrapping round: the caller bounds the cost of one call (the scan
    is in proportion to the span, the drawing to the changes) and still sees every change within a few calls.
    """

    def __init__(self) -> None:
        self._seen: np.ndarray | None = None
        self._scratch: np.ndarray | None = None
        self._cursor = 0
        self.truncated = False
        self.advanced = 0           # bytes the last call went through

    def reset(self, packed: np.ndarray | None) -> None:
        """Remember ``packed`` as drawn (None: forget; the next ``changes`` cannot answer)."""
        if packed is None:
            self._seen = self._scratch = None
        elif self._seen is not None and self._seen.shape == packed.shape:
            self._seen[:] = packed      # the same memory again: new pages cost a fault each at first write
        else:
            self._seen = np.array(packed, dtype=np.uint8, copy=True)
            # zeros written now, not np.empty: its pages would be faulted in by the first comparisons instead
            self._scratch = np.zeros_like(self._seen)
        self._cursor = 0

    def changes(self, packed: np.ndarray, span: int | None = None, limit: int | None = None,
                dense: float | None = None) -> tuple[np.ndarray, np.ndarray] | Rewrite | None:
        """(positions, values) of the bits that differ from the copy, ascending and each once, and the copy
        brought up to date; None when there is no copy of an array of this size to compare with. With ``span``
        only that many bytes are compared (the next ones after the last call's); with ``limit`` at most that
        many changed bytes are taken (``truncated`` says so), the next call going on after the last one.
        With ``dense``: when more than that fraction of the bytes compared changed, a ``Rewrite`` of those
        bytes instead (the copy brought up to date; the caller draws them whole)."""
        self.truncated = False
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
        if dense is not None and np.count_nonzero(diff) > dense * (hi - lo):
            seen[lo:hi] = packed[lo:hi]
            self.advanced = (self._cursor or size) - lo
            return Rewrite(lo, hi)
        where = np.flatnonzero(diff)
        if limit is not None and where.size > limit:
            where = where[: max(1, int(limit))]
            self._cursor = lo + int(where[-1]) + 1
            self.truncated = True
        self.advanced = (self._cursor or size) - lo
        if not where.size:
            return np.zeros(0, np.int64), np.zeros(0, np.uint8)
        changed = np.flatnonzero(np.unpackbits(diff[where], bitorder="little"))
        where += lo
        now = packed[where]
        seen[where] = now
        positions = where[changed >> 3] * 8 + (changed & 7)
        values = np.unpackbits(now, bitorder="little")[changed]
        return positions, values


class FlushBudget:
    """How much one partial comparison may scan (``span``, bytes) and draw (``limit``, changed bytes), from
    the costs measured on the ones before: the scan costs in proportion to the bytes compared, the drawing to
    the changes. A cost that rises is believed at once, one that falls only halfway (a quiet moment on a
    loaded machine is no proof), so one flush stays near ``scan_s + draw_s``."""

    def __init__(self, size: int, scan_s: float, draw_s: float, first_span: int, first_limit: int,
                 min_span: int, min_limit: int, rewrite_s: float | None = None):
        self.size = size
        self.rewrite_s = scan_s + draw_s if rewrite_s is None else rewrite_s
        self.scan_s, self.draw_s = scan_s, draw_s
        self.min_span, self.min_limit = min_span, min_limit
        self.span: int | None = None if first_span >= size else first_span
        self.limit = first_limit
        self._per_byte: float | None = None
        self._per_change: float | None = None
        self._per_rewrite: float | None = None

    @staticmethod
    def _smoothed(old: float | None, new: float) -> float:
        return new if old is None or new > old else 0.5 * (old + new)

    def measured(self, scanned: int, scan_took: float, drawn: int, draw_took: float) -> None:
        if scanned >= self.min_span:
            self._per_byte = self._smoothed(self._per_byte, scan_took / scanned)
            self._set_span()
        if drawn >= self.min_limit // 4:
            self._per_change = self._smoothed(self._per_change, draw_took / drawn)
            self.limit = max(self.min_limit, int(self.draw_s / max(self._per_change, 1e-12)))

    def rewritten(self, nbytes: int, took: float) -> None:
        """A span compared and drawn whole (a ``Rewrite``) in ``took`` seconds: its cost is in proportion to the
        bytes, so the span is held to what the whole flush may take."""
        if nbytes >= self.min_span:
            self._per_rewrite = self._smoothed(self._per_rewrite, took / nbytes)
            self._set_span()

    def _set_span(self) -> None:
        spans = []
        if self._per_byte is not None:
            spans.append(self.scan_s / max(self._per_byte, 1e-12))
        if self._per_rewrite is not None:
            spans.append(self.rewrite_s / max(self._per_rewrite, 1e-12))
        span = min(spans)
        self.span = None if span >= self.size else max(self.min_span, int(span))
