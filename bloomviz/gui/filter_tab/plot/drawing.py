"""Drawing the series: throttled redraws, the x frame before there is a curve, the upper-limit curve on a log
axis, the sub-plots, the capacity line and the reference line.

A long series is drawn decimated (``draw_rows``): past ``DECIMATE_ABOVE`` rows the curves get a few rows per
horizontal pixel of the plot — in each bucket of consecutive rows its first row and the rows where the measured
rate is lowest and highest, so every step and spike of the measured curve stays visible — over the visible x
range when the view is zoomed. The series itself stays whole (the readout and a CSV export read every row), and
a redraw costs the same at ten million inserts as at ten thousand (it took ~150 ms at 1.1 million rows).

A mixin of ``FpPlotWidget`` (``widget.py``).
"""

from __future__ import annotations

import time

import numpy as np

from bloomviz.gui.filter_tab.plot.style import BROKEN_LABEL, FILL_CURVES, LABELS, RATE_CURVES, positive_number
from bloomviz.measure.series import columns_at

DECIMATE_ABOVE = 8_192   # rows: up to this many every row is drawn
_COMPUTED_TOGETHER = ("fp_exact", "fp_classic", "fp_approx", "fp_bound", "fill_expected")   # one theory_many
BUCKETS_PER_PIXEL = 1    # each bucket gives up to three rows (first, lowest, highest)


def draw_rows(n: np.ndarray, measured: np.ndarray, pixels: int,
              x_range: tuple[float, float] | None = None) -> np.ndarray | None:
    """The rows of a series to draw (ascending indices), or None for every row.

    ``pixels``: the plot's width; ``x_range``: the visible n range when the view is zoomed (None: all of it).
    Each bucket of consecutive rows gives its first row and its rows of lowest and highest measured rate; the
    first and last rows of the range and of the series, and one row on either side of the range, are always in.
    """
    total = len(n)
    buckets = max(64, int(pixels) * BUCKETS_PER_PIXEL)
    if total <= max(DECIMATE_ABOVE, 3 * buckets):
        return None
    lo, hi = 0, total
    if x_range is not None and n[-1] >= n[0] and np.all(n[1:] >= n[:-1]):
        lo = max(0, int(np.searchsorted(n, x_range[0], side="left")) - 1)
        hi = min(total, int(np.searchsorted(n, x_range[1], side="right")) + 1)
    if hi - lo <= 3 * buckets:       # zoomed in to a few rows a pixel: every one of them
        return np.unique(np.concatenate([[0, total - 1], np.arange(lo, hi, dtype=np.int64)]))
    size = -(-(hi - lo) // buckets)
    full = (hi - lo) // size
    parts = [np.array([0, lo, max(lo, hi - 1), total - 1], dtype=np.int64)]
    if full:
        block = measured[lo:lo + full * size].reshape(full, size)
        base = lo + np.arange(full, dtype=np.int64) * size
        parts += [base, base + np.argmin(block, axis=1), base + np.argmax(block, axis=1)]
    rest = lo + full * size
    if rest < hi:                    # the last, shorter bucket
        tail = measured[rest:hi]
        parts.append(np.array([rest, rest + int(np.argmin(tail)), rest + int(np.argmax(tail))], dtype=np.int64))
    return np.unique(np.concatenate(parts))


class DrawingMixin:
    # --- the data ---------------------------------------------------------------------------------------------
    @property
    def series(self):
        return self._series

    def set_series(self, series) -> None:
        """Draw ``series`` from now on (``None`` clears the plot); redraws at once."""
        if series is not None and not (hasattr(series, "column") and hasattr(series, "__len__")):
            raise TypeError(f"a series needs column(name) and len(); got {type(series).__name__}")
        self._series = series
        self.refresh_now()

    def refresh(self) -> None:
        """Note that the series changed; the redraw follows within REFRESH_INTERVAL_MS, once per burst."""
        if not self._timer.isActive():
            self._timer.start()

    @property
    def refresh_interval_ms(self) -> int:
        """The current throttle period: REFRESH_INTERVAL_MS, longer while redraws are expensive."""
        return self._timer.interval()

    def refresh_now(self) -> None:
        """Redraw every visible curve from the series now."""
        self._timer.stop()
        self.redraw_count += 1
        started = time.perf_counter()
        self._redraw()
        # A million-row series takes tens of milliseconds to redraw; spacing redraws by a few times that
        # leaves most of the event loop to the work that is producing the rows.
        cost_ms = 1000.0 * (time.perf_counter() - started)
        self._timer.setInterval(int(min(self.MAX_REFRESH_INTERVAL_MS, max(self.REFRESH_INTERVAL_MS, 4 * cost_ms))))
        self.redrawn.emit(self.drawn_n)

    @property
    def drawn_n(self) -> int:
        """The n of the latest row drawn (0 with no data): what panels showing "n now" should agree with."""
        return self._drawn_n

    @property
    def redraw_pending(self) -> bool:
        """Whether the series changed since the last redraw (a throttled redraw is on its way)."""
        return self._timer.isActive()

    def _redraw(self) -> None:
        series = self._series
        self._drawn_n = int(series.column("n")[-1]) if series is not None and len(series) else 0
        self._frame_x(series)
        if series is None or len(series) == 0:
            for curve in self._curves.values():
                curve.clear()
            self._band.updatePath()
            self._stale_fill = self._stale_estimate = False
            self._update_readout()
            return
        rows = self._rows_to_draw(series)
        self._drawn_rows = rows
        n = self._column(series, "n")
        for key in RATE_CURVES:
            self._curves[key].setData(n, self._column(series, key))
        self._draw_limit(n)
        self._draw_reference()
        # Range now rather than at the next paint: the linked plots below then clip to the final range, and
        # what the curves display is settled when this returns. Same work either way.
        self._rate_plot.getViewBox().updateAutoRange()
        # Hidden plots cost nothing per insert: they are drawn when shown.
        self._stale_fill = self._stale_estimate = True
        self._draw_subplots()
        self._update_readout()

    def _frame_x(self, series) -> None:
        """With no point or one (a new filter, one opened from a file) autorange would zoom onto a sliver
        around the capacity line or the point (199.6–200.4): show 0 … max(capacity, n, 10) instead, and give
        the axis back to autorange once there is a curve to fit."""
        vb = self._rate_plot.getViewBox()
        if series is None or len(series) <= 1:
            last = float(series.column("n")[-1]) if series is not None and len(series) else 0.0
            vb.setXRange(0.0, max(self._capacity or 0.0, last, 10.0) * 1.05, padding=0)
            self._x_framed = True
        elif getattr(self, "_x_framed", False):
            self._x_framed = False
            vb.enableAutoRange(axis="x")

    # --- decimation ----------------------------------------------------------------------------------------
    def _rows_to_draw(self, series) -> np.ndarray | None:
        if not getattr(self, "_decimate", True):
            return None
        vb = self._rate_plot.getViewBox()
        zoomed = not vb.autoRangeEnabled()[0]
        x_range = tuple(vb.viewRange()[0]) if zoomed else None
        self._drawn_range = x_range
        return draw_rows(series.column("n"), series.column("fp_measured"), max(1, int(vb.width())), x_range)

    def _column(self, series, key: str) -> np.ndarray:
        """A column as drawn: the rows chosen at the last redraw (every row when not decimated). A measured
        series computes a theory column for those rows alone, the theory's columns together, once a redraw."""
        rows = getattr(self, "_drawn_rows", None)
        if rows is not None and rows[-1] >= len(series):
            rows = None
        drawn = (self.redraw_count, id(series), len(series), rows is None)
        if getattr(self, "_drawn_of", None) != drawn:
            self._drawn_of, self._drawn_values = drawn, {}
        if key not in self._drawn_values:
            names = _COMPUTED_TOGETHER if key in _COMPUTED_TOGETHER else (key,)
            self._drawn_values.update(columns_at(series, rows, names, points=rows is not None))
        return self._drawn_values[key]

    def _on_rate_x_range(self, *_):
        # Zoomed or panned by the user, or back to the whole range: the rows are chosen again for the new view.
        series = self._series
        zoomed = not self._rate_plot.getViewBox().autoRangeEnabled()[0]
        if series is not None and len(series) > DECIMATE_ABOVE \
                and (zoomed or getattr(self, "_drawn_range", None) is not None):
            self.refresh()

    def _draw_limit(self, n: np.ndarray | None = None) -> None:
        series = self._series
        zero = None
        if self._log_y and series is not None and len(series):
            measured = self._column(series, "fp_measured")
            zero = measured == 0
        if zero is None or not zero.any():
            self._limit_curve.clear()
            self._limit_curve.setVisible(False)
        else:
            n = self._column(series, "n") if n is None else n
            self._limit_curve.setData(n, np.where(zero, self._column(series, "fp_high"), np.nan))
            self._limit_curve.setVisible(True)
        # the legend names the limit only while one is drawn
        self._legend_set(self._limit_curve, shown=self._limit_curve.isVisible())

    def _draw_subplots(self) -> None:
        series = self._series
        if series is None or len(series) == 0:
            return
        n = self._column(series, "n")
        if self._show_fill and self._stale_fill:
            for key in FILL_CURVES:
                self._curves[key].setData(n, self._column(series, key))
            self._stale_fill = False
        if self._show_estimate and self._stale_estimate:
            self._curves["n_estimated"].setData(n, self._column(series, "n_estimated"))
            self._curves["n_true"].setData(n, n)
            self._estimate_plot.getViewBox().updateAutoRange()
            self._stale_estimate = False

    # --- capacity -------------------------------------------------------------------------------------------
    @property
    def capacity(self) -> float | None:
        return self._capacity

    @property
    def reference(self) -> tuple[float, str] | None:
        return self._reference

    def set_reference(self, value, label: str = "") -> None:
        """A horizontal line at rate ``value`` named ``label`` in the legend (a scalable filter's compound bound
        p); ``None`` removes it. Drawn as a two-point curve from n = 0 to the latest n (or the capacity), so
        it follows the log axis like the other curves."""
        curve = self._reference_curve
        if self._reference is not None:
            self._legend_remove(curve)
        if value is None:
            self._reference = None
            curve.clear()
            return
        value = positive_number("reference rate", value)
        self._reference = (value, str(label) or f"reference {value:g}")
        self._legend_add(curve, self._reference[1])
        self._draw_reference()

    def _draw_reference(self) -> None:
        if self._reference is None:
            return
        n_max = float(self._series.column("n")[-1]) if self._series is not None and len(self._series) else 1.0
        x_end = max(n_max, self._capacity or 0.0, 1.0)
        self._reference_curve.setData([0.0, x_end], [self._reference[0]] * 2)

    def set_theory_label(self, text: str | None = None) -> None:
        """Rename the exact-theory curve (a variant's own formula); None restores "theory: exact"."""
        self._theory_label = text
        self._name_theory()

    def set_formula_break(self, row: int | None, k: int | None = None) -> None:
        """From series row ``row`` on, the ``fp_exact`` column is the rate of n inserts into a fresh filter, no
        longer this filter's (a counting filter after a forced removal: ``Workbench.formula_break``); the
        readout names it so and gives the rate the filter's ``k`` counters give, (fill)^k. None: it is exact
        at every row again."""
        key = None if row is None else (int(row), int(k))
        if key != self._formula_break:
            self._formula_break = key
            self._name_theory()
            self._update_readout()

    def _name_theory(self) -> None:
        text = (BROKEN_LABEL if self._formula_break is not None
                else self._theory_label or LABELS["fp_exact"])
        curve = self._curves["fp_exact"]
        curve.opts["name"] = text       # the CSV export's column is named by the curve, not the legend
        self._legend_set(curve, text=text)

    def set_capacity(self, n) -> None:
        """Mark the design capacity n with a vertical line; ``None`` removes the mark."""
        if n is not None:
            n = positive_number("capacity", n)
        self._capacity = n
        for line in self._capacity_lines:
            if n is None:
                line.hide()
            else:
                line.show()  # first: a hidden line's label ignores position changes
                line.setPos(n)
                if getattr(line, "label", None) is not None:
                    line.label.valueChanged()
        if self._series is None or len(self._series) <= 1:
            self._frame_x(self._series)

    def _on_rate_y_range(self, *_):
        if self._band.has_gaps():
            self._band.updatePath()
