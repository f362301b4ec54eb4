"""The live false-positive plot: the rate measured after every insert against the three theory curves.

``FpPlotWidget`` draws a series it is told about and never copies it: the main window calls
``set_series(series)`` once (any object with ``column(name) -> numpy array`` and ``len()``; in the app the
workbench's ``bloomviz.measure.experiment.Series``), then ``refresh()`` whenever the workbench says the series
changed. ``refresh()`` only marks the plot stale and starts a short single-shot timer, so a burst of calls
(auto-play at full speed emits thousands a second) costs one redraw per timer period — at most
``1000 / REFRESH_INTERVAL_MS`` redraws a second. ``refresh_now()`` redraws at once.

What it shows:

- the measured rate (column ``fp_measured``) as a solid line, its Wilson interval (``fp_low``..``fp_high``)
  as a translucent band;
- theory ``fp_exact`` (the exact rate), ``fp_classic`` (Bloom's formula), ``fp_approx`` and ``fp_bound``, told apart by colour and by dash style, with a legend
  (clicking a legend entry hides or shows that curve);
- a vertical line at the design capacity (``set_capacity(n)``; ``None`` hides it). The line takes part in
  auto-ranging, so the x axis reaches the capacity from the first insert and the curve grows towards it;
- optionally, below the rate plot and sharing its x axis, the fill ratio against the expected fill
  (``set_show_fill``) and the estimated n against the true n (``set_show_estimate``);
- a readout under the plot: the values of every curve at the n under the mouse, or at the latest n when the
  mouse is elsewhere.

Toggles are methods (``set_log_y``, ``set_show_fill``, ``set_show_estimate``) mirrored by a row of check
boxes in the widget; each change is announced by a signal (``logYChanged`` ...) so menu actions can follow.
On a log axis, rates of 0 (the measured rate before the first false positive, the theory at n = 0) have no
logarithm: those points are left out of the lines, and the band's lower edge runs off the bottom of the view.

``set_font_scale(f)`` scales the text drawn inside the plots (ticks, axis labels, titles, legends) for
projection; the check boxes and the readout are ordinary Qt widgets and follow the application font.
Large series stay fast because pyqtgraph draws a peak-preserving downsample of the visible range only.
"""

from __future__ import annotations

import html
import math
import time

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.theory.units import count_text, rate_text
from bloomviz.gui.widgets.plot_export import export_plot

__all__ = ["FpPlotWidget", "WilsonBand", "RATE_CURVES", "FILL_CURVES", "ESTIMATE_CURVES"]

# Curve keys are the series' column names; "n_true" is the n column drawn as y for comparison.
RATE_CURVES = ("fp_measured", "fp_low", "fp_high", "fp_exact", "fp_classic", "fp_approx", "fp_bound")
FILL_CURVES = ("fill", "fill_expected")
ESTIMATE_CURVES = ("n_estimated", "n_true")

LABELS = {
    "fp_measured": "measured",
    "fp_low": "measured, 95% interval low",
    "fp_high": "measured, 95% interval high",
    "fp_exact": "theory: exact",
    "fp_classic": "theory: Bloom's formula (classic)",
    "fp_approx": "theory: approximation",
    "fp_bound": "theory: bound",
    "fill": "fill ratio (measured)",
    "fill_expected": "fill ratio (expected)",
    "n_estimated": "estimated n",
    "n_true": "true n",
}
BAND_LABEL = "measured, 95% interval"
LIMIT_LABEL = "measured 0: the rate is below this (95%)"

# Okabe–Ito colours: distinguishable with the common colour-vision deficiencies; lighter variants on dark.
THEMES = {
    False: {
        "background": "#ffffff", "foreground": "#1f1f1f", "legend_bg": (255, 255, 255, 215),
        "fp_measured": "#D55E00", "band": (213, 94, 0, 55), "band_edge": (213, 94, 0, 110),
        "fp_exact": "#0072B2", "fp_approx": "#009E73", "fp_bound": "#CC79A7", "fp_classic": "#5a5a5a",
        "fill": "#D55E00", "fill_expected": "#0072B2", "n_estimated": "#D55E00", "n_true": "#0072B2",
        "capacity": "#555555", "crosshair": "#777777", "reference": "#8B0000",
    },
    True: {
        "background": "#1c1d21", "foreground": "#e4e4e4", "legend_bg": (28, 29, 33, 215),
        "fp_measured": "#FF8C42", "band": (255, 140, 66, 60), "band_edge": (255, 140, 66, 120),
        "fp_exact": "#56B4E9", "fp_approx": "#3DDC97", "fp_bound": "#E69AC8", "fp_classic": "#c8c8c8",
        "fill": "#FF8C42", "fill_expected": "#56B4E9", "n_estimated": "#FF8C42", "n_true": "#56B4E9",
        "capacity": "#b8b8b8", "crosshair": "#9a9a9a", "reference": "#FF6B6B",
    },
}
STYLES = {  # (width, dash style): the dash tells the curves apart even without colour
    "fp_measured": (2.5, QtCore.Qt.PenStyle.SolidLine),
    "fp_exact": (2.0, QtCore.Qt.PenStyle.DashLine),
    "fp_approx": (2.0, QtCore.Qt.PenStyle.DotLine),
    "fp_bound": (2.0, QtCore.Qt.PenStyle.DashDotLine),
    "fp_classic": (1.5, QtCore.Qt.PenStyle.DashDotDotLine),
    "fill": (2.5, QtCore.Qt.PenStyle.SolidLine),
    "fill_expected": (2.0, QtCore.Qt.PenStyle.DashLine),
    "n_estimated": (2.5, QtCore.Qt.PenStyle.SolidLine),
    "n_true": (2.0, QtCore.Qt.PenStyle.DashLine),
}

BASE_TICK_PT = 10.0
BASE_LABEL_PT = 11.0
BASE_TITLE_PT = 13.0
BASE_LEGEND_PT = 10.0


class WilsonBand(pg.FillBetweenItem):
    """The interval band between two curves, drawn from what those curves display.

    pyqtgraph's own FillBetweenItem pairs the curves' sub-paths, which go wrong as soon as one edge has gaps
    (on a log axis the lower Wilson bound is 0, hence missing, until the first false positive). This band
    builds one polygon from both edges' displayed points instead, sending missing points to the bottom of the
    view, and it follows the edges' re-downsampling and the view's range when zoomed or panned.
    """

    def __init__(self, lower: pg.PlotDataItem, upper: pg.PlotDataItem, brush):
        self._ready = False
        self._has_gaps = False
        super().__init__(lower, upper, brush=brush)
        # A legend sample reads ``opts``: a filled swatch without a line.
        self.opts = {"pen": None, "fillLevel": 0, "fillBrush": brush, "antialias": False}
        self._ready = True
        self.updatePath()

    def setCurves(self, curve1, curve2):
        super().setCurves(curve1, curve2)
        for c in (curve1, curve2):
            # The inner curve changes on zoom too (new downsample) without the data item announcing it.
            c.curve.sigPlotChanged.connect(self.curveChanged)

    def setBrush(self, *args, **kwds):
        super().setBrush(*args, **kwds)
        if getattr(self, "opts", None) is not None:
            self.opts["fillBrush"] = self.brush()

    def has_gaps(self) -> bool:
        return self._has_gaps

    def updatePath(self):
        if not getattr(self, "_ready", False) or self.curves is None:
            return
        lower, upper = (c.curve.getData() for c in self.curves)
        if lower[0] is None or upper[0] is None or not self.curves[0].curve.isVisible():
            self._has_gaps = False
            self.setPath(QtGui.QPainterPath())
            return
        size = min(len(lower[0]), len(upper[0]))
        if size == 0:
            self.setPath(QtGui.QPainterPath())
            return
        low_y = lower[1][:size]
        if np.array_equal(lower[0][:size], upper[0][:size]):
            # Where the low edge has no value (a measured 0 on a log axis) the band closes onto the high edge:
            # the interval's top is then an upper limit, drawn as such by the plot, not a bar to the axis.
            missing = ~np.isfinite(low_y) & np.isfinite(upper[1][:size])
            if missing.any():
                low_y = np.where(missing, upper[1][:size], low_y)
        x = np.concatenate([lower[0][:size], upper[0][:size][::-1]])
        y = np.concatenate([low_y, upper[1][:size][::-1]])
        bad = ~np.isfinite(y)
        self._has_gaps = bool(bad.any())
        if self._has_gaps:
            y = y.copy()
            y[bad] = self._floor(y[~bad])
        keep = np.isfinite(x)
        path = pg.arrayToQPath(x[keep], y[keep], connect="all")
        path.closeSubpath()
        self.setPath(path)

    def _floor(self, finite: np.ndarray) -> float:
        # Exactly the bottom of the view: the band reaches the axis, and an SVG export (which does not clip)
        # shows nothing outside the plot.
        vb = self.curves[0].getViewBox()
        if vb is not None:
            return vb.viewRange()[1][0]
        return (float(finite.min()) - 1.0) if finite.size else 0.0


class _HoverWatcher(QtCore.QObject):
    """Tells the plot widget when the mouse leaves the graphics view (the scene reports no such event)."""

    def __init__(self, on_leave):
        super().__init__()
        self._on_leave = on_leave

    def eventFilter(self, obj, event):
        if event.type() == QtCore.QEvent.Type.Leave:
            self._on_leave()
        return False


def _rerender_legend(legend: pg.LegendItem) -> None:
    # LegendItem's setters store the new colour/size but leave the already-rendered labels as they were.
    for _, label in legend.items:
        label.setText(label.text)


def _check_positive_number(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number, not {value!r}")
    value = float(value)
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a positive finite number, not {value!r}")
    return value


def _fmt(value: float) -> str:
    """A rate, a fill or an item count, by the one policy (core.units)."""
    if value is None or not np.isfinite(value):
        return "∞" if value is not None and value > 0 else "—"
    if 0 <= value <= 1:
        return rate_text(value)
    return count_text(value) if abs(value) >= 10 else f"{value:.4g}"


class FpPlotWidget(QtWidgets.QWidget):
    """Measured false-positive rate with its interval, against theory; see the module docstring."""

    logYChanged = QtCore.Signal(bool)
    showFillChanged = QtCore.Signal(bool)
    showEstimateChanged = QtCore.Signal(bool)

    REFRESH_INTERVAL_MS = 33  # about 30 redraws a second at most
    MAX_REFRESH_INTERVAL_MS = 1000
    TITLE = "False-positive rate as items are inserted"
    X_LABEL = "items inserted n"

    def __init__(self, parent=None, *, series=None, dark: bool = False, font_scale: float = 1.0):
        super().__init__(parent)
        self._series = None
        self._capacity: float | None = None
        self._log_y = False
        self._show_fill = False
        self._show_estimate = False
        self._dark = bool(dark)
        self._font_scale = 1.0
        self._hover_n: float | None = None
        self._stale_fill = self._stale_estimate = False
        self.redraw_count = 0  # how many times the curves were redrawn (throttling is observable)

        self._timer = QtCore.QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(self.REFRESH_INTERVAL_MS)
        self._timer.timeout.connect(self.refresh_now)

        self._build_controls()
        self._graphics = pg.GraphicsLayoutWidget()
        self._graphics.setMinimumSize(320, 240)
        self._readout = QtWidgets.QLabel()
        self._readout.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self._readout.setWordWrap(True)
        self._readout.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self._readout.setToolTip("Values of every curve at the n under the mouse (or at the latest n).")

        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(2)
        layout.addLayout(self._controls)
        layout.addWidget(self._graphics, 1)
        layout.addWidget(self._readout)

        self._curves: dict[str, pg.PlotDataItem] = {}
        self._capacity_lines: list[pg.InfiniteLine] = []
        self._crosshairs: list[pg.InfiniteLine] = []
        self._legends: list[pg.LegendItem] = []
        self._sub_keys: dict[int, tuple] = {}
        self._y_labels: dict[int, str] = {}
        self._rate_plot = self._make_rate_plot()
        self._fill_plot = self._make_sub_plot(FILL_CURVES, "fill X/m")
        self._estimate_plot = self._make_sub_plot(ESTIMATE_CURVES, "n")
        self._fill_plot.setYRange(0.0, 1.0, padding=0.03)
        self._fill_plot.enableAutoRange(axis="y", enable=False)
        self._relayout()

        self._graphics.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self._hover_watcher = _HoverWatcher(self._on_mouse_left)
        self._graphics.installEventFilter(self._hover_watcher)

        self.set_theme(self._dark)
        self.set_font_scale(font_scale)
        if series is not None:
            self.set_series(series)
        else:
            self.refresh_now()

    # --- construction ---------------------------------------------------------------------------------------
    def _build_controls(self) -> None:
        self._controls = QtWidgets.QHBoxLayout()
        self._controls.setContentsMargins(4, 0, 4, 0)
        self._log_check = QtWidgets.QCheckBox("Log y")
        self._log_check.setToolTip(
            "Logarithmic rate axis: tiny rates become visible and the theory curves separate. "
            "A rate of 0 has no logarithm, so points with no false positive yet are not drawn.")
        self._fill_check = QtWidgets.QCheckBox("Fill ratio")
        self._fill_check.setToolTip(
            "Show the fraction of bits set (X/m) against the expected fill 1 − (1 − 1/m)^(kn).")
        self._estimate_check = QtWidgets.QCheckBox("Estimated n")
        self._estimate_check.setToolTip(
            "Show the item count estimated from the bits, −(m/k)·ln(1 − X/m), against the true count.")
        self._log_check.toggled.connect(self.set_log_y)
        self._fill_check.toggled.connect(self.set_show_fill)
        self._estimate_check.toggled.connect(self.set_show_estimate)
        for box in (self._log_check, self._fill_check, self._estimate_check):
            self._controls.addWidget(box)
        self._controls.addStretch(1)

    def _new_plot(self) -> pg.PlotItem:
        plot = pg.PlotItem()
        plot.showGrid(x=True, y=True, alpha=0.18)
        plot.setMenuEnabled(True)
        # Long series: draw a peak-preserving downsample of the visible x range only.
        plot.setDownsampling(auto=True, mode="peak")
        plot.setClipToView(True)
        for side in ("left", "bottom"):
            plot.getAxis(side).enableAutoSIPrefix(False)
        plot.getViewBox().setMouseEnabled(x=True, y=True)
        return plot

    def _add_curve(self, plot: pg.PlotItem, key: str) -> pg.PlotDataItem:
        curve = pg.PlotDataItem(name=LABELS[key], antialias=True, autoDownsampleFactor=1.0)
        plot.addItem(curve)
        self._curves[key] = curve
        return curve

    def _add_capacity_line(self, plot: pg.PlotItem, labelled: bool) -> None:
        opts = {"movable": False, "angle": 90}
        if labelled:
            opts.update(label="capacity n = {value:,.0f}",
                        labelOpts={"position": 0.93, "anchors": [(0, 0.5), (1, 0.5)], "movable": True})
        line = pg.InfiniteLine(**opts)
        line.setZValue(5)
        line.hide()
        plot.addItem(line)
        self._capacity_lines.append(line)

    def _add_crosshair(self, plot: pg.PlotItem) -> None:
        line = pg.InfiniteLine(angle=90, movable=False)
        line.setZValue(20)
        line.hide()
        plot.addItem(line, ignoreBounds=True)
        self._crosshairs.append(line)

    def _make_rate_plot(self) -> pg.PlotItem:
        plot = self._new_plot()
        for key in ("fp_low", "fp_high"):
            self._add_curve(plot, key)
        for key in ("fp_bound", "fp_approx", "fp_classic", "fp_exact", "fp_measured"):  # measured last, on top
            self._add_curve(plot, key)
        self._curves["fp_measured"].setZValue(10)
        self._band = WilsonBand(self._curves["fp_low"], self._curves["fp_high"], brush=(0, 0, 0, 40))
        plot.addItem(self._band, ignoreBounds=True)  # its off-view floor must not drag the range down
        plot.getViewBox().sigYRangeChanged.connect(self._on_rate_y_range)
        # pyqtgraph's own context menu has a log-y box too: keep it and this widget's state as one.
        plot.ctrl.logYCheck.toggled.connect(self.set_log_y)
        self._add_capacity_line(plot, labelled=True)
        self._add_crosshair(plot)
        self._reference = None
        self._theory_label = LABELS["fp_exact"]
        # A measured 0 has no logarithm: on a log axis it is drawn as what it says, an upper limit (the 95 %
        # interval's top), never as a band down to the axis that would suggest a value.
        self._limit_curve = pg.PlotDataItem(name=LIMIT_LABEL, antialias=True, connect="finite")
        self._limit_curve.setZValue(9)
        self._limit_curve.setVisible(False)
        plot.addItem(self._limit_curve)
        self._reference_curve = pg.PlotDataItem(name="reference", antialias=True)
        self._reference_curve.setZValue(6)
        plot.addItem(self._reference_curve)
        legend = plot.addLegend(offset=(12, 12))
        self._rate_legend = legend
        for key in ("fp_measured",):
            legend.addItem(self._curves[key], LABELS[key])
        legend.addItem(self._band, BAND_LABEL)
        legend.addItem(self._limit_curve, LIMIT_LABEL)
        self._limit_legend = legend
        for key in ("fp_exact", "fp_classic", "fp_approx", "fp_bound"):
            legend.addItem(self._curves[key], LABELS[key])
        self._legends.append(legend)
        return plot

    def _make_sub_plot(self, keys, y_label: str) -> pg.PlotItem:
        plot = self._new_plot()
        for key in keys:
            self._add_curve(plot, key)
        self._curves[keys[0]].setZValue(10)
        self._add_capacity_line(plot, labelled=False)
        self._add_crosshair(plot)
        plot.setXLink(self._rate_plot)
        # The key goes in the title line: a legend box would cover the curves of such a short plot.
        self._sub_keys[id(plot)] = keys
        self._y_labels[id(plot)] = y_label
        return plot

    def _visible_plots(self) -> list[pg.PlotItem]:
        plots = [self._rate_plot]
        if self._show_fill:
            plots.append(self._fill_plot)
        if self._show_estimate:
            plots.append(self._estimate_plot)
        return plots

    def _relayout(self) -> None:
        ci = self._graphics.ci
        for plot in (self._rate_plot, self._fill_plot, self._estimate_plot):
            if plot in ci.items:
                ci.removeItem(plot)
        visible = self._visible_plots()
        for row, plot in enumerate(visible):
            ci.addItem(plot, row=row, col=0)
            ci.layout.setRowStretchFactor(row, 3 if plot is self._rate_plot else 1)
        for row in range(len(visible), 3):
            ci.layout.setRowStretchFactor(row, 0)
        self._apply_text()

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

    def _redraw(self) -> None:
        series = self._series
        self._frame_x(series)
        if series is None or len(series) == 0:
            for curve in self._curves.values():
                curve.clear()
            self._band.updatePath()
            self._stale_fill = self._stale_estimate = False
            self._update_readout()
            return
        n = series.column("n")
        for key in RATE_CURVES:
            self._curves[key].setData(n, series.column(key))
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

    def _draw_limit(self, n: np.ndarray | None = None) -> None:
        series = self._series
        zero = None
        if self._log_y and series is not None and len(series):
            measured = series.column("fp_measured")
            zero = measured == 0
        if zero is None or not zero.any():
            self._limit_curve.clear()
            self._limit_curve.setVisible(False)
        else:
            n = series.column("n") if n is None else n
            self._limit_curve.setData(n, np.where(zero, series.column("fp_high"), np.nan))
            self._limit_curve.setVisible(True)
        item = self._limit_legend.getLabel(self._limit_curve)
        if item is not None:   # the legend names the limit only while one is drawn
            for sample, label in self._limit_legend.items:
                if label is item:
                    sample.setVisible(self._limit_curve.isVisible())
                    label.setVisible(self._limit_curve.isVisible())

    def _draw_subplots(self) -> None:
        series = self._series
        if series is None or len(series) == 0:
            return
        n = series.column("n")
        if self._show_fill and self._stale_fill:
            for key in FILL_CURVES:
                self._curves[key].setData(n, series.column(key))
            self._stale_fill = False
        if self._show_estimate and self._stale_estimate:
            self._curves["n_estimated"].setData(n, series.column("n_estimated"))
            self._curves["n_true"].setData(n, n)
            self._estimate_plot.getViewBox().updateAutoRange()
            self._stale_estimate = False

    # --- toggles --------------------------------------------------------------------------------------------
    @property
    def log_y(self) -> bool:
        return self._log_y

    def set_log_y(self, on: bool) -> None:
        on = bool(on)
        if on == self._log_y:
            return
        self._log_y = on
        self._rate_plot.setLogMode(x=False, y=on)
        self._draw_limit()
        vb = self._rate_plot.getViewBox()
        vb.enableAutoRange(axis="y")
        vb.updateAutoRange()  # now, so the band's floor is taken from the new axis, not the old one
        self._place_rate_legend()
        self._sync_check(self._log_check, on)
        self.logYChanged.emit(on)

    def _place_rate_legend(self) -> None:
        # Rates rise with n: on a linear axis the top left stays empty; on a log axis the bottom right does.
        # The capacity label sits beside its line where the curves are not: high up on a linear axis
        # (the rate at capacity is small), half-way on a log axis (the rate at capacity is near the top).
        if self._log_y:
            self._rate_legend.anchor(itemPos=(1, 1), parentPos=(1, 1), offset=(-12, -12))
            self.capacity_line.label.setPosition(0.5)
        else:
            self._rate_legend.anchor(itemPos=(0, 0), parentPos=(0, 0), offset=(12, 12))
            self.capacity_line.label.setPosition(0.93)

    @property
    def show_fill(self) -> bool:
        return self._show_fill

    def set_show_fill(self, on: bool) -> None:
        on = bool(on)
        if on == self._show_fill:
            return
        self._show_fill = on
        self._after_subplot_toggle()
        self._sync_check(self._fill_check, on)
        self.showFillChanged.emit(on)

    @property
    def show_estimate(self) -> bool:
        return self._show_estimate

    def set_show_estimate(self, on: bool) -> None:
        on = bool(on)
        if on == self._show_estimate:
            return
        self._show_estimate = on
        self._after_subplot_toggle()
        self._sync_check(self._estimate_check, on)
        self.showEstimateChanged.emit(on)

    def _after_subplot_toggle(self) -> None:
        self._relayout()
        # A plot just put back in the layout still has its old x range until the rate plot's range next
        # changes: lay out now and line it up with the rate plot.
        self._graphics.ci.layout.activate()
        main = self._rate_plot.getViewBox()
        for plot in self._visible_plots()[1:]:
            plot.getViewBox().linkedViewChanged(main, pg.ViewBox.XAxis)
        self._draw_subplots()
        self._update_readout()

    @staticmethod
    def _sync_check(box: QtWidgets.QCheckBox, on: bool) -> None:
        if box.isChecked() != on:
            box.blockSignals(True)
            box.setChecked(on)
            box.blockSignals(False)

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
        legend, curve = self._rate_legend, self._reference_curve
        if self._reference is not None:
            legend.removeItem(curve)
        if value is None:
            self._reference = None
            curve.clear()
            return
        value = _check_positive_number("reference rate", value)
        self._reference = (value, str(label) or f"reference {value:g}")
        legend.addItem(curve, self._reference[1])
        self._draw_reference()

    def _draw_reference(self) -> None:
        if self._reference is None:
            return
        n_max = float(self._series.column("n")[-1]) if self._series is not None and len(self._series) else 1.0
        x_end = max(n_max, self._capacity or 0.0, 1.0)
        self._reference_curve.setData([0.0, x_end], [self._reference[0]] * 2)

    def set_theory_label(self, text: str | None = None) -> None:
        """Rename the exact-theory curve (a variant's own formula); None restores "theory: exact"."""
        label = self._rate_legend.getLabel(self._curves["fp_exact"])
        if label is not None:
            label.setText(text or LABELS["fp_exact"])
        self._theory_label = text or LABELS["fp_exact"]

    def set_capacity(self, n) -> None:
        """Mark the design capacity n with a vertical line; ``None`` removes the mark."""
        if n is not None:
            n = _check_positive_number("capacity", n)
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

    # --- looks ----------------------------------------------------------------------------------------------
    @property
    def dark(self) -> bool:
        return self._dark

    def set_theme(self, dark: bool) -> None:
        """Light (``False``) or dark (``True``) colours for the plots."""
        self._dark = bool(dark)
        pal = THEMES[self._dark]
        self._graphics.setBackground(pal["background"])
        for key, (width, dash) in STYLES.items():
            pen = pg.mkPen(pal[key], width=width, style=dash)
            self._curves[key].setPen(pen)
        edge = pg.mkPen(pal["band_edge"], width=1)
        self._curves["fp_low"].setPen(edge)
        self._curves["fp_high"].setPen(edge)
        self._band.setBrush(pg.mkBrush(pal["band"]))
        self._limit_curve.setPen(pg.mkPen(pal["fp_measured"], width=2, style=QtCore.Qt.PenStyle.DotLine))
        self._reference_curve.setPen(pg.mkPen(pal["reference"], width=2.5, style=QtCore.Qt.PenStyle.DashDotDotLine))
        cap_pen = pg.mkPen(pal["capacity"], width=1.5, style=QtCore.Qt.PenStyle.DashLine)
        for line in self._capacity_lines:
            line.setPen(cap_pen)
            if getattr(line, "label", None) is not None:
                line.label.setColor(pal["foreground"])
                line.label.fill = pg.mkBrush(pal["legend_bg"])
        for line in self._crosshairs:
            line.setPen(pg.mkPen(pal["crosshair"], width=1, style=QtCore.Qt.PenStyle.DotLine))
        for legend in self._legends:
            legend.setBrush(pg.mkBrush(pal["legend_bg"]))
            legend.setPen(pg.mkPen(pal["foreground"], width=0.5))
            legend.setLabelTextColor(pal["foreground"])
            _rerender_legend(legend)
        self._apply_text()
        self._update_readout()

    @property
    def font_scale(self) -> float:
        return self._font_scale

    def set_font_scale(self, factor) -> None:
        """Scale the text inside the plots (1.0 = normal; 1.5–2 for a projector)."""
        factor = _check_positive_number("font scale", factor)
        if not 0.25 <= factor <= 8:
            raise ValueError(f"font scale must be between 0.25 and 8, not {factor!r}")
        self._font_scale = factor
        self._apply_text()

    def _apply_text(self) -> None:
        if not self._curves:
            return
        pal = THEMES[self._dark]
        fg = pal["foreground"]
        s = self._font_scale
        tick_font = QtGui.QFont()
        tick_font.setPointSizeF(BASE_TICK_PT * s)
        label_style = {"color": fg, "font-size": f"{BASE_LABEL_PT * s:.1f}pt"}
        # One fixed width for every left axis keeps the stacked plots' x axes aligned.
        metrics = QtGui.QFontMetricsF(tick_font)
        left_width = int(metrics.horizontalAdvance("0.0001") + 2.2 * BASE_LABEL_PT * s + 14)
        visible = self._visible_plots()
        for plot in (self._rate_plot, self._fill_plot, self._estimate_plot):
            for side in ("left", "bottom"):
                axis = plot.getAxis(side)
                axis.setPen(pg.mkPen(fg, width=1))
                axis.setTextPen(pg.mkPen(fg))
                axis.setTickFont(tick_font)
                axis.setStyle(tickTextOffset=int(4 * s))
            plot.getAxis("left").setWidth(left_width)
            bottom = plot.getAxis("bottom")
            if plot is visible[-1]:
                bottom.setLabel(self.X_LABEL, **label_style)
                bottom.showLabel(True)
            else:
                bottom.showLabel(False)
            bottom.setHeight(None)
            y_label = "false-positive rate" if plot is self._rate_plot else self._y_labels[id(plot)]
            plot.getAxis("left").setLabel(y_label, **label_style)
        self._rate_plot.setTitle(self.TITLE, color=fg, size=f"{BASE_TITLE_PT * s:.1f}pt")
        for plot in (self._fill_plot, self._estimate_plot):
            plot.setTitle(self._key_html(self._sub_keys[id(plot)]), color=fg,
                          size=f"{BASE_LEGEND_PT * s:.1f}pt")
        for plot in (self._rate_plot, self._fill_plot, self._estimate_plot):
            height = int((2.6 if plot is self._rate_plot else 2.2) * BASE_TITLE_PT * s)
            plot.titleLabel.setMaximumHeight(height)
            plot.layout.setRowFixedHeight(0, height)
        for legend in self._legends:
            legend.setLabelTextSize(f"{BASE_LEGEND_PT * s:.1f}pt")
            _rerender_legend(legend)
        label_font = QtGui.QFont()
        label_font.setPointSizeF(BASE_LEGEND_PT * s)
        for line in self._capacity_lines:
            if getattr(line, "label", None) is not None:
                line.label.setFont(label_font)

    def _key_html(self, keys) -> str:
        pal = THEMES[self._dark]
        marks = {QtCore.Qt.PenStyle.SolidLine: "━━", QtCore.Qt.PenStyle.DashLine: "╺╸╺╸"}
        return " &nbsp;&nbsp; ".join(
            f'<span style="color:{pal[key]}">{marks[STYLES[key][1]]}</span> {html.escape(LABELS[key])}'
            for key in keys)

    # --- plot items, for the window and for tests -----------------------------------------------------------
    @property
    def plot_item(self) -> pg.PlotItem:
        """The rate plot (the one exported as CSV)."""
        return self._rate_plot

    @property
    def fill_plot_item(self) -> pg.PlotItem:
        return self._fill_plot

    @property
    def estimate_plot_item(self) -> pg.PlotItem:
        return self._estimate_plot

    @property
    def band(self) -> WilsonBand:
        return self._band

    @property
    def capacity_line(self) -> pg.InfiniteLine:
        return self._capacity_lines[0]

    @property
    def graphics(self) -> pg.GraphicsLayoutWidget:
        return self._graphics

    def curve(self, key: str) -> pg.PlotDataItem:
        """The curve drawing series column ``key`` (or ``"n_true"``)."""
        try:
            return self._curves[key]
        except KeyError:
            raise KeyError(f"no curve {key!r}; curves: {', '.join(self._curves)}") from None

    # --- readout --------------------------------------------------------------------------------------------
    def values_at(self, n: float | None) -> dict[str, float] | None:
        """The series row nearest to ``n`` as {column: value} (plus ``n_true``), or None without data; n = None
        gives the latest row (after a counting filter's removals n is no longer increasing: the latest row is
        not the first one with the latest n)."""
        series = self._series
        if series is None or len(series) == 0:
            return None
        ns = series.column("n")
        if n is None:
            i = len(ns) - 1
        elif np.all(ns[1:] >= ns[:-1]):
            i = int(np.searchsorted(ns, n))
            if i >= len(ns):
                i = len(ns) - 1
            elif i > 0 and abs(ns[i - 1] - n) <= abs(ns[i] - n):
                i -= 1
        else:
            i = int(len(ns) - 1 - np.argmin(np.abs(ns[::-1] - n)))   # the latest row nearest to n
        keys = ("n",) + RATE_CURVES + FILL_CURVES + ("n_estimated",)
        row = {key: float(series.column(key)[i]) for key in keys}
        row["n_true"] = row["n"]
        return row

    def readout_text(self) -> str:
        """The readout as plain text (what the label shows, without colours)."""
        return self._readout.text() and QtGui.QTextDocumentFragment.fromHtml(self._readout.text()).toPlainText()

    def _update_readout(self) -> None:
        series = self._series
        if series is None or len(series) == 0:
            self._readout.setText("No data yet: insert items to see the false-positive rate.")
            return
        hovering = self._hover_n is not None
        row = self.values_at(self._hover_n if hovering else None)
        pal = THEMES[self._dark]

        def swatch(key: str, text: str) -> str:
            return f'<span style="color:{pal[key]}">■</span>&nbsp;{html.escape(text)}'

        parts = [f"<b>{'at' if hovering else 'latest:'} n = {row['n']:,.0f}</b>",
                 swatch("fp_measured", f"measured {_fmt(row['fp_measured'])} "
                                       f"(95%: {_fmt(row['fp_low'])}–{_fmt(row['fp_high'])})"),
                 swatch("fp_exact", f"exact {_fmt(row['fp_exact'])}")]
        # a variant without the standard filter's formulas has them as NaN: say nothing rather than "nan"
        parts += [swatch(key, f"{word} {_fmt(row[key])}") for key, word in
                  (("fp_classic", "classic"), ("fp_approx", "approx."), ("fp_bound", "bound"))
                  if np.isfinite(row[key])]
        if self._show_fill:
            parts.append(f"fill {_fmt(row['fill'])} (expected {_fmt(row['fill_expected'])})")
        if self._show_estimate:
            parts.append(f"estimated n {_fmt(row['n_estimated'])}")
        if len(series) == 1 and row["n"] > 0:
            # one point with items already in: a filter opened without the history of how it filled
            parts.append("<i>one point: the filter as it was opened; each insert adds the next</i>")
        self._readout.setText(" &nbsp;·&nbsp; ".join(parts))
        for line in self._crosshairs:
            line.setVisible(hovering)
            if hovering:
                line.setPos(row["n"])

    def _on_mouse_moved(self, pos) -> None:
        for plot in self._visible_plots():
            vb = plot.getViewBox()
            if vb.sceneBoundingRect().contains(pos):
                self._hover_n = vb.mapSceneToView(pos).x()
                self._update_readout()
                return
        self._on_mouse_left()

    def _on_mouse_left(self) -> None:
        if self._hover_n is not None:
            self._hover_n = None
            self._update_readout()

    def show_values_at(self, n: float | None) -> None:
        """Show the readout and the cursor line at ``n`` as if hovering there (``None``: the latest row)."""
        self._hover_n = None if n is None else float(n)
        self._update_readout()

    def _on_rate_y_range(self, *_):
        if self._band.has_gaps():
            self._band.updatePath()

    # --- export ---------------------------------------------------------------------------------------------
    def export(self, path, *, width: int | None = None):
        """Write the plot to ``path``: PNG or SVG of every plot shown, or CSV of the rate plot's curves.

        The CSV holds the full data of the measured rate, its interval edges and the three theory curves
        (pyqtgraph's exporter writes the original data, not the downsampled view).
        """
        from pathlib import Path

        if Path(path).suffix.lower() == ".csv":
            return export_plot(self._rate_plot, path)
        return export_plot(self._graphics.ci, path, width=width)
