"""Drawing the series: the x frame before there is a curve, the upper-limit curve on a log axis, the
sub-plots, the capacity lines and the reference line.

A long series is drawn decimated (``draw_rows``): past ``DECIMATE_ABOVE`` rows the curves get a few rows per
horizontal pixel of the plot — in each bucket of consecutive rows its first row and the rows where the measured
rate is lowest and highest, so every step and spike of the measured curve stays visible — over the visible x
range when the view is zoomed. The theory curves (``SMOOTH_CURVES``: rates that grow with n, no spikes to keep)
get each bucket's first row alone, a row per pixel: the same line, for a third of the theory computed, set and
painted in a redraw (auto-play of 10^7 items: redraws of 9-17 ms of the GUI thread, a stall's largest part). The series itself stays whole (the readout and a CSV export read every row), and
a redraw costs the same at ten million inserts as at ten thousand (it took ~150 ms at 1.1 million rows).

``CurvePainter`` is handed the plot's items (``items.py``), its legend (``legend.py``) and the plot widget,
whose public state it reads (``series``, ``log_y``, ``capacity``, ``reference``, ``show_fill``,
``show_estimate``); the widget throttles the redraws and owns that state.
"""

from __future__ import annotations

import numpy as np
from PySide6 import QtWidgets

from bloomviz.gui.filter_tab.plot.style import FILL_CURVES, RATE_CURVES
from bloomviz.i18n import number, tr
from bloomviz.measure.series import columns_at
from bloomviz.unique_ints import sorted_unique

DECIMATE_ABOVE = 8_192   # rows: up to this many every row is drawn
_COMPUTED_TOGETHER = ("fp_exact", "fp_classic", "fp_approx", "fp_bound", "fill_expected")   # one theory_many
BUCKETS_PER_PIXEL = 1    # each bucket gives up to three rows (first, lowest, highest)
OFF_VIEW_LIMIT = 1e6     # pyqtgraph's default dynamicRangeLimit: view heights a point may lie off the view
SMOOTH_CURVES = frozenset(("fp_exact", "fp_classic", "fp_approx", "fp_bound"))   # drawn from the first rows


def draw_rows(n: np.ndarray, measured: np.ndarray | None, pixels: int,
              x_range: tuple[float, float] | None = None) -> np.ndarray | None:
    """The rows of a series to draw (ascending indices), or None for every row.

    ``pixels``: the plot's width; ``x_range``: the visible n range when the view is zoomed (None: all of it).
    Each bucket of consecutive rows gives its first row and its rows of lowest and highest measured rate (with
    ``measured`` None, for a smooth curve: its first row alone); the first and last rows of the range and of
    the series, and one row on either side of the range, are always in.
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
        return sorted_unique(np.concatenate([[0, total - 1], np.arange(lo, hi, dtype=np.int64)]))
    size = -(-(hi - lo) // buckets)
    full = (hi - lo) // size
    parts = [np.array([0, lo, max(lo, hi - 1), total - 1], dtype=np.int64)]
    if full:
        base = lo + np.arange(full, dtype=np.int64) * size
        parts.append(base)
        if measured is not None:
            block = measured[lo:lo + full * size].reshape(full, size)
            parts += [base + np.argmin(block, axis=1), base + np.argmax(block, axis=1)]
    rest = lo + full * size
    if rest < hi:                    # the last, shorter bucket
        tail = measured[rest:hi] if measured is not None else None
        parts.append(np.array([rest] if tail is None else [rest, rest + int(np.argmin(tail)),
                                                           rest + int(np.argmax(tail))], dtype=np.int64))
    return sorted_unique(np.concatenate(parts))


class CurvePainter:
    """Gives the curves, the band, the limit and reference curves and the capacity lines their data."""

    def __init__(self, items, legend, view):
        self._items = items
        self._legend = legend
        self._view = view
        self.drawn_n = 0
        self._draws = 0
        self._drawn_rows: np.ndarray | None = None
        self._smooth_rows: np.ndarray | None = None     # the rows the SMOOTH_CURVES are drawn from
        self._drawn_range: tuple | None = None
        self._drawn_of = None
        self._drawn_values: dict = {}
        self._x_framed = False
        self._reducing = True     # pyqtgraph's downsampling and clipping on (_reduce_in_pyqtgraph)
        self._stale_fill = self._stale_estimate = False
        self._label_widths: dict = {}     # (text, font) -> its width drawn, px
        self._export_rows: tuple = (None, {})   # ((start, stop, series), its columns): the slice being exported

    def draw(self) -> None:
        """Every shown curve from the series, now."""
        self._draws += 1
        series = self._view.series
        curves = self._items.curves
        self.drawn_n = int(series.column("n")[-1]) if series is not None and len(series) else 0
        self.frame_x()
        if series is None or len(series) == 0:
            for curve in curves.values():
                curve.clear()
            self._items.band.updatePath()
            self._stale_fill = self._stale_estimate = False
            return
        self._drawn_rows = self._rows_to_draw(series)
        self._reduce_in_pyqtgraph(self._drawn_rows is None)
        n = self._column(series, "n")
        with self._items.band.held():     # its path built once, from both edges, in the final range
            for key in RATE_CURVES:
                smooth = key in SMOOTH_CURVES
                x = self._column(series, "n", smooth) if smooth else n
                curves[key].setData(x, self._column(series, key, smooth))
            self.draw_limit(n)
            self.draw_reference()
            # Range now rather than at the next paint: the linked plots below then clip to the final range, and
            # what the curves display is settled when this returns. Same work either way.
            self._items.rate_plot.getViewBox().updateAutoRange()
        # Hidden plots cost nothing per insert: they are drawn when shown.
        self._stale_fill = self._stale_estimate = True
        self.draw_subplots()

    def frame_x(self) -> None:
        """With no point or one (a new filter, one opened from a file) autorange would zoom onto a sliver
        around the capacity line or the point (199.6–200.4): show 0 … max(capacity, n, 10) instead, and give
        the axis back to autorange once there is a curve to fit."""
        series = self._view.series
        vb = self._items.rate_plot.getViewBox()
        if series is None or len(series) <= 1:
            last = float(series.column("n")[-1]) if series is not None and len(series) else 0.0
            vb.setXRange(0.0, max(self._view.capacity or 0.0, last, 10.0) * 1.05, padding=0)
            self._x_framed = True
        elif self._x_framed:
            self._x_framed = False
            vb.enableAutoRange(axis="x")

    # --- decimation ----------------------------------------------------------------------------------------
    def _reduce_in_pyqtgraph(self, whole: bool) -> None:
        """pyqtgraph's own reductions only where they change what is drawn. Its downsampling and clipping to the
        view for a series drawn whole (rows chosen here are both already); and its limit on how far off the view
        a point may lie (``dynamicRangeLimit``, which moves points past a million view heights) only while the
        y axis does not fit the curves: while it does, no point lies off the view to move. Each of them set
        every curve's data again whenever a redraw moved the view's range (every redraw of an auto-play):
        twice the work of setting it, in the redraw's turn."""
        plot = self._items.rate_plot
        curves = [self._items.curves[key] for key in RATE_CURVES] + [self._items.limit_curve]
        if whole != self._reducing:
            self._reducing = whole
            if whole:
                plot.updateDownsampling()       # the plot's (and its menu's) settings again
            else:
                for curve in curves:
                    curve.setDownsampling(auto=False)
                    curve.setClipToView(False)
        self.limit_range_off_view()

    def limit_range_off_view(self) -> None:
        """pyqtgraph's limit on points off the view on, unless the y axis fits the curves (auto range)."""
        limit = None if self._items.rate_plot.getViewBox().autoRangeEnabled()[1] else OFF_VIEW_LIMIT
        for curve in [self._items.curves[key] for key in RATE_CURVES] + [self._items.limit_curve]:
            if curve.opts["dynamicRangeLimit"] != limit:
                curve.setDynamicRangeLimit(limit)

    def _rows_to_draw(self, series) -> np.ndarray | None:
        vb = self._items.rate_plot.getViewBox()
        zoomed = not vb.autoRangeEnabled()[0]
        x_range = tuple(vb.viewRange()[0]) if zoomed else None
        self._drawn_range = x_range
        n, pixels = series.column("n"), max(1, int(vb.width()))
        self._smooth_rows = draw_rows(n, None, pixels, x_range)
        return draw_rows(n, series.column("fp_measured"), pixels, x_range)

    def _column(self, series, key: str, smooth: bool = False) -> np.ndarray:
        """A column as drawn: the rows chosen at the last redraw (every row when not decimated; ``smooth``: the
        rows of the SMOOTH_CURVES). A measured series computes a theory column for those rows alone, the
        theory's columns together, once a redraw."""
        rows = self._smooth_rows if smooth else self._drawn_rows
        if rows is not None and rows[-1] >= len(series):
            rows = None
        drawn = (self._draws, id(series), len(series))
        if self._drawn_of != drawn:
            self._drawn_of, self._drawn_values = drawn, {}
        values = self._drawn_values.setdefault((smooth, rows is None), {})
        if key not in values:
            names = _COMPUTED_TOGETHER if key in _COMPUTED_TOGETHER else (key,)
            values.update(columns_at(series, rows, names, points=rows is not None))
        return values[key]

    def full_rows(self, item):
        """For a curve drawn from the series: ``(rows, length)``, ``rows(start, stop)`` giving the ``(x, y)`` the
        curve holds for those rows when every row is drawn, computed for those rows alone (a CSV export writes a
        long series a slice at a time: computing every row's theory at once took ~1 s of the GUI thread at 10^6
        rows); None for any other item. Raises ValueError once the series lost rows meanwhile."""
        series, curves = self._view.series, self._items.curves
        key = next((k for k in RATE_CURVES if curves[k] is item), None)
        if series is None or not len(series) or (key is None and item is not self._items.limit_curve):
            return None
        length = len(series)
        if key in _COMPUTED_TOGETHER:
            # The exact rate comes from a cached curve whose length decides its last bits (theory/exact_rate.py):
            # grown first as far as the largest n, as computing every row at once grows it, every slice reads
            # the same curve, and the file has the bits an export of every row at once had.
            columns_at(series, np.array([int(np.argmax(series.column("n")))]), ("fp_exact",))

        def rows(start: int, stop: int):
            if len(series) < stop or series is not self._view.series:
                raise ValueError("the plot's data changed while it was being exported")
            if self._export_rows[0] != (start, stop, id(series)):     # every curve's columns of a slice at once
                names = tuple(dict.fromkeys(("n", "fp_measured", "fp_high", *RATE_CURVES, *_COMPUTED_TOGETHER)))
                self._export_rows = ((start, stop, id(series)),
                                     columns_at(series, np.arange(start, stop, dtype=np.int64), names))
            values = self._export_rows[1]
            if key is not None:
                return values["n"], values[key]
            # the upper-limit curve
            return values["n"], np.where(values["fp_measured"] == 0, values["fp_high"], np.nan)
        return rows, length

    def wants_redraw_for_x_range(self) -> bool:
        """Zoomed or panned by the user, or back to the whole range: the rows are chosen again for the new view."""
        series = self._view.series
        zoomed = not self._items.rate_plot.getViewBox().autoRangeEnabled()[0]
        return series is not None and len(series) > DECIMATE_ABOVE and (zoomed or self._drawn_range is not None)

    def draw_limit(self, n: np.ndarray | None = None) -> None:
        series = self._view.series
        limit = self._items.limit_curve
        zero = None
        if self._view.log_y and series is not None and len(series):
            zero = self._column(series, "fp_measured") == 0
        if zero is None or not zero.any():
            if limit.xData is not None:   # (clearing an empty curve took ~1 ms a redraw, its scatter's)
                limit.clear()
            limit.setVisible(False)
        else:
            n = self._column(series, "n") if n is None else n
            limit.setData(n, np.where(zero, self._column(series, "fp_high"), np.nan))
            limit.setVisible(True)
        # the legend names the limit only while one is drawn
        self._legend.set(limit, shown=limit.isVisible())

    def draw_subplots(self) -> None:
        series = self._view.series
        if series is None or len(series) == 0:
            return
        curves = self._items.curves
        n = self._column(series, "n")
        if self._view.show_fill and self._stale_fill:
            for key in FILL_CURVES:
                curves[key].setData(n, self._column(series, key))
            self._stale_fill = False
        if self._view.show_estimate and self._stale_estimate:
            curves["n_estimated"].setData(n, self._column(series, "n_estimated"))
            curves["n_true"].setData(n, n)
            self._items.estimate_plot.getViewBox().updateAutoRange()
            self._stale_estimate = False

    def fit_capacity_label(self) -> None:
        """The capacity line's label in full where it fits beside the line, else "n = ...", else none. pyqtgraph
        puts it on the side of the line with more room, but does not shorten it: at 250 % in a 1280 x 800
        window "capacity n = 200" ran past the plot's left edge ("ity n = 200")."""
        n = self._view.capacity
        lines = [line for line in self._items.capacity_lines if getattr(line, "label", None) is not None]
        if n is None or not lines:
            return
        vb = self._items.rate_plot.getViewBox()
        (x0, x1), width = vb.viewRange()[0], vb.width()
        at = (n - x0) / (x1 - x0) * width if x1 > x0 else width / 2
        room = max(at, width - at) - 6      # the label's offset from the line
        # the number written the window's way (hr: 2.000), not by pyqtgraph's {value:,.0f}
        texts = [tr("capacity n = {n}").format(n=number(int(n))), f"n = {number(int(n))}"]
        label = lines[0].label
        text = next((t for t in texts if self._text_width(label, t) <= room), None)
        # near the top of the line, but its whole height inside the view box (which clips it): at large text
        # half of it stood above the box
        height = vb.height()
        along = min(0.93, 1 - (label.boundingRect().height() / 2 + 2) / height) if height > 0 else 0.93
        for line in lines:
            if text is not None and line.label.format != text:
                line.label.setFormat(text)
                line.label.valueChanged()
            if abs(line.label.orthoPos - along) > 1e-3:
                line.label.setPosition(max(0.5, along))
            if line.label.isVisible() != (text is not None):
                line.label.setVisible(text is not None)

    def _text_width(self, label, text: str) -> float:
        font = label.textItem.font()
        key = (text, font.key())
        if key not in self._label_widths:
            probe = QtWidgets.QGraphicsTextItem()
            probe.setFont(font)
            probe.setPlainText(text)
            self._label_widths[key] = probe.boundingRect().width()
        return self._label_widths[key]

    def draw_reference(self) -> None:
        """The reference rate as a two-point curve from n = 0 to the latest n (or the capacity)."""
        reference, series, capacity = self._view.reference, self._view.series, self._view.capacity
        if reference is None:
            if self._items.reference_curve.xData is not None:
                self._items.reference_curve.clear()
            return
        n_max = float(series.column("n")[-1]) if series is not None and len(series) else 1.0
        x_end = max(n_max, capacity or 0.0, 1.0)
        self._items.reference_curve.setData([0.0, x_end], [reference[0]] * 2)

    def draw_capacity(self) -> None:
        n = self._view.capacity
        for line in self._items.capacity_lines:
            if n is None:
                line.hide()
            else:
                line.show()  # first: a hidden line's label ignores position changes
                line.setPos(n)
        self.fit_capacity_label()
        series = self._view.series
        if series is None or len(series) <= 1:
            self.frame_x()
