"""The live false-positive plot: the rate measured after every insert against the three theory curves.

``FpPlotWidget`` draws a series it is told about and never copies it: the main window calls
``set_series(series)`` once (any object with ``column(name) -> numpy array`` and ``len()``; in the app the
workbench's ``bloomviz.measure.series.Series``), then ``refresh()`` whenever the workbench says the series
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
Large series stay fast: past a few thousand rows the curves draw a few rows per pixel (``drawing.draw_rows``:
each bucket's first row and its lowest and highest measured rate), over the visible range when zoomed.
"""

from __future__ import annotations

from pathlib import Path

import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from bloomviz.gui.filter_tab.plot.build import BuildMixin
from bloomviz.gui.filter_tab.plot.drawing import DrawingMixin
from bloomviz.gui.filter_tab.plot.legend import LegendMixin
from bloomviz.gui.filter_tab.plot.looks import LooksMixin
from bloomviz.gui.filter_tab.plot.readout import HoverWatcher, ReadoutMixin
from bloomviz.gui.filter_tab.plot.style import ESTIMATE_CURVES, FILL_CURVES
from bloomviz.gui.widgets.plot_export import export_plot
from bloomviz.gui.widgets.wilson_band import WilsonBand
from bloomviz.i18n import tr


class FpPlotWidget(BuildMixin, DrawingMixin, LegendMixin, LooksMixin, ReadoutMixin, QtWidgets.QWidget):
    """Measured false-positive rate with its interval, against theory; see the module docstring."""

    logYChanged = QtCore.Signal(bool)
    showFillChanged = QtCore.Signal(bool)
    showEstimateChanged = QtCore.Signal(bool)
    #: After every redraw, with the n drawn: the window redraws its other "n now" panels on it, so that the
    #: plot, the status line and the fill gauge never show different n (they did during auto-play, each on
    #: its own timer).
    redrawn = QtCore.Signal(int)

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
        self._theory_label: str | None = None             # a variant's own name for the exact curve
        self._formula_break: tuple[int, int] | None = None  # (row, k): set_formula_break
        self._stale_fill = self._stale_estimate = False
        self._drawn_n = 0
        self.redraw_count = 0  # how many times the curves were redrawn (throttling is observable)

        self._timer = QtCore.QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(self.REFRESH_INTERVAL_MS)
        self._timer.timeout.connect(self.refresh_now)

        self._build_controls()
        self._graphics = pg.GraphicsLayoutWidget()
        self._graphics.setMinimumSize(200, 150)   # small: in a short dock at large text the plot shrinks, not the grid
        self._readout = QtWidgets.QLabel()
        self._readout.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self._readout.setWordWrap(True)
        self._readout.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self._readout.setToolTip(tr("Values of every curve at the n under the mouse (or at the latest n)."))
        # at most a third of the plot's height; past that it scrolls (at 250 % text it was five lines)
        self._readout_area = QtWidgets.QScrollArea()
        self._readout_area.setWidget(self._readout)
        self._readout_area.setWidgetResizable(True)
        self._readout_area.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self._readout_area.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(2)
        layout.addLayout(self._controls)
        layout.addWidget(self._graphics, 1)
        layout.addWidget(self._readout_area)

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
        self._rebuild_legend()

        self._graphics.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self._hover_watcher = HoverWatcher(self._graphics, self._on_mouse_left, self._place_legend)

        self.set_theme(self._dark)
        self.set_font_scale(font_scale)
        if series is not None:
            self.set_series(series)
        else:
            self.refresh_now()


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
        self._place_capacity_label()
        self._sync_check(self._log_check, on)
        self.logYChanged.emit(on)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_readout()

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QtCore.QEvent.Type.FontChange:
            self._fit_readout()

    def _place_capacity_label(self) -> None:
        # The capacity label sits beside its line where the curves are not: high up on a linear axis
        # (the rate at capacity is small), half-way on a log axis (the rate at capacity is near the top).
        self.capacity_line.label.setPosition(0.5 if self._log_y else 0.93)

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


    # --- export ---------------------------------------------------------------------------------------------
    def export(self, path, *, width: int | None = None):
        """Write the plot to ``path``: PNG or SVG of every plot shown, or CSV of the rate plot's curves.

        The CSV holds the full data of the measured rate, its interval edges and the three theory curves
        (pyqtgraph's exporter writes the original data, not the downsampled view).
        """
        if Path(path).suffix.lower() == ".csv":
            # the curves draw a decimated long series: every row goes into the file, then the drawing returns
            self._decimate = False
            try:
                self._redraw()
                return export_plot(self._rate_plot, path)
            finally:
                self._decimate = True
                self._redraw()
        return export_plot(self._graphics.ci, path, width=width)
