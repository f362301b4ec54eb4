"""The filter tab's grid and live plot redrawn from the workbench's signals, at once or, during bulk work, in
the free turns of the event loop.

While bulk work runs, the workbench leaves a turn of the event loop free ten times a second (``jobFrame``);
the grid and the plot are redrawn in turn in those turns: each redraw is 10-40 ms at a million items, and one
added to a chunk of inserts, or to the other, would hold the loop too long. Changed cells are gathered in the
meantime and drawn together.

When the whole picture is due (a job's chunks report no cells), a filter with a plain bit array is not unpacked
again: its packed bytes are compared with a copy of those last drawn (``bit_changes``) and only the bits that
changed are drawn. At m = 95.85 M that replaced a 0.3-0.6 s unpack-and-redraw per frame. While work runs, one
frame compares and draws only as much as fits in ``SCAN_TARGET_S + DRAW_TARGET_S`` at the costs measured on the
frames before (``FlushBudget``; the next frame goes on from there), so the grid catches up band by band instead
of holding the loop; when the work ends the whole array is compared (in parts, a turn each, past
``WHOLE_BYTES``). A part in which many bytes changed (``DENSE``; in auto-play at 10^8 bits about a fifth of
them between two flushes) is not drawn bit by bit but unpacked whole into the picture (``set_packed``, ~4 ns a
byte against ~100 ns a changed bit), so a flush covers a third to a half of the array instead of ~1 %.
"""

from __future__ import annotations

import time
from typing import Callable

import numpy as np

from bloomviz.filters.bitstore import byte_view
from bloomviz.gui.timing import TURN_BUDGET_MS, ChunkRunner, claim_paint, paint_claimed
from bloomviz.gui.window.bit_changes import FlushBudget, PackedChanges, Rewrite
from bloomviz.workbench.measurement import has_bits

FULL_REDRAW_CELLS = 4096
# One grid flush during bulk work: its scan and its drawing each get a share, sized by their measured costs, so
# that the flush's turn stays near 8 ms: on 2 shared cores at load 4-7 a turn's wall time is 2-4x its CPU, and
# the 50 ms a stall may take held one flush of 18 ms only on a quiet machine (benchmarks/bench_stalls.py).
SCAN_TARGET_S = 0.004
DRAW_TARGET_S = 0.004
MIN_SPAN = 1 << 16              # bytes compared per flush at least (524,288 bits), however slow the machine
# Up to this many bytes (16.8 M bits) the bits are compared whole when the work ends (the picture is then
# complete at once); larger arrays finish that last comparison in parts, a turn of the event loop each (the
# picture completes a fraction of a second later).
WHOLE_BYTES = 1 << 21
# A job's first flush, before any cost is measured, compares at most this many: in an auto-play at 95.85 M bits
# its 2 MiB were mostly changed and drawn whole, 15 ms of CPU in one turn, and 512 KiB still 10-15 ms on a loaded
# machine (benchmarks/bench_stalls.py)
FIRST_SPAN = 1 << 18
MIN_CHANGED = 1 << 14           # changed bytes drawn per flush at least
FIRST_CHANGED = 1 << 15         # ... at first: ~3-5 ms of drawing here; the measured cost takes over
# A part of the bits in which more than this fraction of the bytes changed is drawn whole from the packed bytes
# (``set_packed``, ~4 ns a byte) instead of bit by bit (~100 ns a changed bit, 2-4 of them a changed byte): in
# auto-play at 10^8 bits ~20 % of the bytes change between two flushes, and a flush drew ~1 % of the array.
DENSE = 1 / 64
# A part drawn whole aims at less than a flush's scan and drawing together: its cost is all in one pass, and on
# the loaded 2-core machine a 40 ms aim ran to 126 ms.
REWRITE_TARGET_S = 0.005


class FilterRedraw:
    def __init__(self, workbench, grid, legend, plot, numbers_changed: Callable[[], None]):
        self._wb = workbench
        self._grid = grid
        self._legend = legend
        self._plot = plot
        self._numbers_changed = numbers_changed
        self._pending_bits: list | None = []   # None: the whole picture is due
        self._plot_stale = False
        self._frame = 0
        self._frame_waited = False      # the last frame was left to another view's large repaint
        self._drawn = PackedChanges()   # the packed bits as the grid shows them
        self._budget: FlushBudget | None = None    # what one flush may compare and draw during work
        self._generation = 0            # a new picture stops the catching up of an older one
        self._catching = (0, 0)         # (generation, bytes compared) of the catching up after work
        self._catch_up = ChunkRunner(self._catch_up_step, grid, turn_budget_ms=TURN_BUDGET_MS)
        self._plot_after_work = ChunkRunner(self._last_plot_redraw, grid, interval_ms=1, turn_budget_ms=TURN_BUDGET_MS)

    def filter_reset(self) -> None:
        wb = self._wb
        self._pending_bits = []
        self._plot_stale = False
        self._reset_grid()
        self._legend.refresh()
        self._plot.set_series(wb.series)
        self._plot.set_capacity(wb.capacity)
        self._plot.set_formula_break(wb.formula_break(), wb.filter.k)
        self._plot.refresh_now()
        last = wb.last_record
        if getattr(last, "highlight", ()):
            self.highlight(last)     # a rollback or a restored state shows its last operation's cells again

    def filter_grown(self) -> None:
        # A new stage of a scalable filter: the picture is redrawn at the new size; plot and history go on.
        self._pending_bits = []
        self._reset_grid()
        self._legend.refresh()
        self._numbers_changed()

    def _packed(self) -> np.ndarray | None:
        """The filter's packed bits when the grid shows exactly them (a plain bit array), else None."""
        flt = self._wb.filter
        return self._plain_bits() if flt.m == self._grid.m else None

    def _plain_bits(self) -> np.ndarray | None:
        """The filter's packed bits when it is a plain bit array of its m bits, else None."""
        flt = self._wb.filter
        if not has_bits(flt) or self._wb.max_value() != 1:
            return None
        packed = byte_view(flt.bits)
        return packed if packed.size == (flt.m + 7) // 8 else None

    def _reset_grid(self) -> None:
        wb = self._wb
        flt = wb.filter
        # an empty filter needs no unpacking (100 MB at the window's largest m), plain bits are drawn packed
        packed = self._plain_bits()
        self._grid.reset(flt.m, None if packed is not None else wb.grid_values(), wb.max_value())
        if packed is not None and flt.bits_set:
            self._grid.set_packed(packed)
        packed = self._packed()
        self._drawn.reset(packed)
        self._budget = None if packed is None else FlushBudget(
            packed.size, SCAN_TARGET_S, DRAW_TARGET_S, min(WHOLE_BYTES, FIRST_SPAN), FIRST_CHANGED, MIN_SPAN,
            MIN_CHANGED, REWRITE_TARGET_S)
        self._generation += 1

    def _redraw_all(self, partial: bool = False) -> None:
        """The whole picture brought up to date: only the changed bits when they can be told, else anew. With
        ``partial`` (during work) only the part of the bits that the measured cost allows, the rest later."""
        packed = self._packed()
        budget = self._budget if partial else None
        started = time.perf_counter()
        found = None if packed is None else self._drawn.changes(packed, budget and budget.span,
                                                                 budget and budget.limit, DENSE)
        if found is None:
            self.redraw_whole()
            return
        if isinstance(found, Rewrite):
            self._grid.set_packed(packed, found.start, found.stop)
            if budget is not None:
                budget.rewritten(found.stop - found.start, time.perf_counter() - started)
            return
        scanned = time.perf_counter()
        if len(found[0]):
            self._grid.update_cells(*found, unique=True)
        if budget is not None:
            span = packed.size if budget.span is None else min(budget.span, packed.size)
            budget.measured(span, scanned - started, len(found[0]), time.perf_counter() - scanned)

    def redraw_whole(self) -> None:
        """Every cell drawn again from the filter: from its packed bits when the grid shows exactly them."""
        packed = self._packed()
        if packed is not None:
            self._grid.set_packed(packed)
        else:
            self._grid.set_all(self._wb.grid_values())
        self._drawn.reset(packed)

    def operated(self, rec) -> None:
        """One operation, drawn from its record: the cells it changed (with their values), the cells it touched
        (highlighted), the plot. (A restored state's highlight is its last record's: ``filter_reset``.)"""
        busy = self._wb.busy      # asked once for the grid and the plot
        if rec.grown:
            self.filter_grown()
        elif rec.op != "lookup":
            self.bits_changed(rec.changed, rec.values, busy)
        self.highlight(rec)
        if rec.op == "remove":
            # a forced removal: the theory curve is no longer this filter's exact rate (the model knows since
            # which row); the plot names it so
            self._plot.set_formula_break(self._wb.formula_break(), rec.numbers.k)
        if rec.series_grew:
            self.series_changed(busy)
        else:
            self._numbers_changed()   # a lookup: the status line's counts

    def bits_changed(self, positions, values=None, busy: bool | None = None) -> None:
        if not (self._wb.busy if busy is None else busy):
            self._pending_bits = []
            if positions is None:
                self._redraw_all()
            elif len(positions):
                # a record's cells (sorted, each once, in range) and their values: drawn as they are
                self._grid.update_cells(positions, values if values is not None
                                        else self._wb.cell_values(positions), known=True)
            return
        if positions is None or self._pending_bits is None:
            self._pending_bits = None
        elif len(positions):
            self._pending_bits.append(positions)

    def flush_grid(self) -> None:
        claim_paint(self._grid.graphics_widget.viewport())   # it paints again: other large repaints wait (timing.py)
        pending, self._pending_bits = self._pending_bits, []
        if pending is None or sum(len(p) for p in pending) > FULL_REDRAW_CELLS:
            # Past a few thousand cells one pass over the packed bits (~1 ms at 10^7 bits) is cheaper.
            self._redraw_all(partial=self._wb.busy)
        elif pending:
            positions = pending[0] if len(pending) == 1 else np.concatenate(pending)
            self._grid.update_cells(positions, self._wb.cell_values(positions))

    def _catch_up_step(self) -> bool:
        """Compare the bits a part a turn until the whole array was compared since the work ended; False when
        done. Each part in a turn that has not painted yet (timing.TURN_BUDGET_MS): one zero-delay timer a part
        ran two parts and the grid's paint in one turn (44 ms of CPU at m = 95,850,584)."""
        generation, compared = self._catching
        packed = self._packed()
        if generation != self._generation or self._wb.busy or packed is None:
            return False    # a new picture, or new work whose frames go on comparing
        self._redraw_all(partial=True)
        compared += self._drawn.advanced
        self._catching = (generation, compared)
        return compared < packed.size

    def _last_plot_redraw(self) -> bool:
        self._plot.refresh_now()
        return False      # once

    def _grid_pending(self) -> bool:
        return self._pending_bits is None or bool(self._pending_bits)

    def highlight(self, rec) -> None:
        """The cells ``rec`` (an Operation, a StateNote or None) touched, marked by what each one was."""
        cells = getattr(rec, "highlight", ())
        if not cells:
            self._grid.clear_highlight()
        else:
            self._grid.highlight(np.asarray(cells, dtype=np.int64), list(rec.kinds), known=True)   # the model's cells

    def series_changed(self, busy: bool | None = None) -> None:
        if self._wb.busy if busy is None else busy:
            self._plot_stale = True
        else:
            self._plot.refresh()
        self._numbers_changed()

    def busy_frame(self) -> None:
        if paint_claimed() and not self._frame_waited:
            # Another view's large repaint is due (the history table's): redrawn now, the grid or the plot would
            # paint with it in one turn (22-25 ms of CPU at 10^7 items under load). The next frame redraws,
            # whatever is due then.
            self._frame_waited = True
            return
        self._frame_waited = False
        self._frame += 1
        if self._frame % 2 and self._grid_pending():
            self.flush_grid()
        elif self._plot_stale:
            self._plot_stale = False
            self._plot.refresh_now(words_after_paint=True)
        elif self._grid_pending():
            self.flush_grid()

    def work_ended(self) -> None:
        packed = self._packed()
        if packed is not None:
            # the frames may have compared parts of the bits: compare them all once, at once or in parts
            if packed.size <= WHOLE_BYTES:
                self._pending_bits = None
            else:
                self._pending_bits = []
                self._catching = (self._generation, 0)
                self._catch_up.start()
        self.flush_grid()
        self._plot_stale = False
        # the last plot redraw in a turn of its own, after the grid's, and not in a turn that the catching up,
        # the idle rows or a paint already took (it met them all in one turn: 30 ms of CPU at 10^7 items)
        self._plot_after_work.start()
        self._numbers_changed()
