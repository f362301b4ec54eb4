"""The live plot's items: the three plots, their curves, capacity lines, crosshairs, band and legend box, and
the row of check boxes above them.

``PlotItems`` is built once by ``FpPlotWidget`` (``widget.py``) and handed to the parts that act on the items
(``legend.py`` places the legend, ``looks.py`` colours and sizes them, ``drawing.py`` gives the curves their
data, ``readout.py`` moves the crosshairs); ``relayout`` puts the shown plots in the graphics layout.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6 import QtWidgets

from bloomviz.gui.widgets.grid_axis import GridAxis
from bloomviz.gui.filter_tab.plot.style import BAND_BRUSH, LABELS, LIMIT_LABEL
from bloomviz.gui.widgets.flow_layout import FlowLayout
from bloomviz.gui.widgets.wilson_band import WilsonBand
from bloomviz.theory.units import axis_counts
from bloomviz.i18n import marks, tr


class PlotControls:
    """The check boxes above the plots (log y, fill ratio, estimated n), each calling the widget's setter."""

    def __init__(self, set_log_y, set_show_fill, set_show_estimate):
        self.layout = FlowLayout()    # wraps at large text rather than widen the plot's dock past the window
        self.layout.setContentsMargins(4, 0, 4, 0)
        self.log = QtWidgets.QCheckBox(tr("Log y"))
        self.log.setToolTip(
            tr("Logarithmic rate axis: tiny rates become visible and the theory curves separate. "
               "A rate of 0 has no logarithm, so points with no false positive yet are not drawn."))
        self.fill = QtWidgets.QCheckBox(tr("Fill ratio"))
        self.fill.setToolTip(
            tr("Show the fraction of bits set (X/m) against the expected fill 1 − (1 − 1/m)^(kn)."))
        self.estimate = QtWidgets.QCheckBox(tr("Estimated n"))
        self.estimate.setToolTip(
            tr("Show the item count estimated from the bits, −(m/k)·ln(1 − X/m), against the true count."))
        self.log.toggled.connect(set_log_y)
        self.fill.toggled.connect(set_show_fill)
        self.estimate.toggled.connect(set_show_estimate)
        for box in self.boxes:
            self.layout.addWidget(box)

    @property
    def boxes(self) -> tuple[QtWidgets.QCheckBox, ...]:
        return self.log, self.fill, self.estimate

    @staticmethod
    def sync(box: QtWidgets.QCheckBox, on: bool) -> None:
        """Tick ``box`` without its signal (the widget's state changed first)."""
        if box.isChecked() != on:
            box.blockSignals(True)
            box.setChecked(on)
            box.blockSignals(False)


def new_plot() -> pg.PlotItem:
    plot = pg.PlotItem(axisItems={"bottom": _CountAxis(orientation="bottom"), "left": GridAxis(orientation="left")})
    plot.showGrid(x=True, y=True, alpha=0.18)
    plot.setMenuEnabled(True)
    # Long series: draw a peak-preserving downsample of the visible x range only.
    plot.setDownsampling(auto=True, mode="peak")
    plot.setClipToView(True)
    for side in ("left", "bottom"):
        plot.getAxis(side).enableAutoSIPrefix(False)
        plot.getAxis(side).put_beneath_view()
    plot.getViewBox().setMouseEnabled(x=True, y=True)
    # A title's text set the layout's minimum width (pyqtgraph renews it on every resize): in a narrow
    # panel the plots were pushed past the right edge. The title keeps its height only; the legend module
    # hides the rate plot's title when it does not fit.
    title, keep_min = plot.titleLabel, plot.titleLabel.updateMin

    def height_only_min():
        keep_min()
        title.setMinimumWidth(0)
        if not title.isVisible():
            title.setMinimumHeight(0)   # a hidden title leaves no empty line
    title.updateMin = height_only_min
    return plot


class PlotItems:
    """Every graphics item of the live plot, built in ``graphics`` (a ``pg.GraphicsLayoutWidget``)."""

    def __init__(self, graphics: pg.GraphicsLayoutWidget, fill_keys, estimate_keys):
        self.graphics = graphics
        self.curves: dict[str, pg.PlotDataItem] = {}
        self.capacity_lines: list[pg.InfiniteLine] = []
        self.crosshairs: list[pg.InfiniteLine] = []
        self.sub_keys: dict[int, tuple] = {}     # id(sub-plot) -> the curves its title line names
        self.y_labels: dict[int, str] = {}
        self.rate_plot = self._make_rate_plot()
        self.fill_plot = self._make_sub_plot(fill_keys, "fill X/m")
        self.estimate_plot = self._make_sub_plot(estimate_keys, "n")
        self.fill_plot.setYRange(0.0, 1.0, padding=0.03)
        self.fill_plot.enableAutoRange(axis="y", enable=False)

    @property
    def plots(self) -> tuple[pg.PlotItem, pg.PlotItem, pg.PlotItem]:
        return self.rate_plot, self.fill_plot, self.estimate_plot

    def visible(self, show_fill: bool, show_estimate: bool) -> list[pg.PlotItem]:
        """The plots shown, top to bottom."""
        return [self.rate_plot] + [self.fill_plot] * bool(show_fill) + [self.estimate_plot] * bool(show_estimate)

    def y_label(self, plot: pg.PlotItem) -> str:
        return "false-positive rate" if plot is self.rate_plot else self.y_labels[id(plot)]

    def relayout(self, visible: list[pg.PlotItem]) -> None:
        """Put the ``visible`` plots in the graphics layout, one row each (the legend is placed afterwards)."""
        ci = self.graphics.ci
        for item in self.plots + (self.legend,):
            if item in ci.items:
                ci.removeItem(item)
        for row, plot in enumerate(visible):
            ci.addItem(plot, row=row, col=0)
            ci.layout.setRowStretchFactor(row, 3 if plot is self.rate_plot else 1)
        for row in range(len(visible), 4):
            ci.layout.setRowStretchFactor(row, 0)

    def _add_curve(self, plot: pg.PlotItem, key: str) -> pg.PlotDataItem:
        curve = pg.PlotDataItem(name=LABELS[key], antialias=True, autoDownsampleFactor=1.0)
        plot.addItem(curve)
        self.curves[key] = curve
        return curve

    def _add_capacity_line(self, plot: pg.PlotItem, labelled: bool) -> None:
        opts = {"movable": False, "angle": 90}
        if labelled:
            opts.update(label="",   # written with the capacity, in the window's numbers (drawing.draw_capacity)
                        labelOpts={"position": 0.93, "anchors": [(0, 0.5), (1, 0.5)], "movable": True})
        line = pg.InfiniteLine(**opts)
        line.setZValue(5)
        line.hide()
        plot.addItem(line)
        self.capacity_lines.append(line)

    def _add_crosshair(self, plot: pg.PlotItem) -> None:
        line = pg.InfiniteLine(angle=90, movable=False)
        line.setZValue(20)
        line.hide()
        plot.addItem(line, ignoreBounds=True)
        self.crosshairs.append(line)

    def _make_rate_plot(self) -> pg.PlotItem:
        plot = new_plot()
        for key in ("fp_low", "fp_high"):
            self._add_curve(plot, key)
        for key in ("fp_bound", "fp_approx", "fp_classic", "fp_exact", "fp_measured"):  # measured last, on top
            self._add_curve(plot, key)
        self.curves["fp_measured"].setZValue(10)
        self.band = WilsonBand(self.curves["fp_low"], self.curves["fp_high"], brush=BAND_BRUSH)
        plot.addItem(self.band, ignoreBounds=True)  # its off-view floor must not drag the range down
        plot.getViewBox().sigYRangeChanged.connect(self._on_rate_y_range)
        self._add_capacity_line(plot, labelled=True)
        self._add_crosshair(plot)
        # A measured 0 has no logarithm: on a log axis it is drawn as what it says, an upper limit (the 95 %
        # interval's top), never as a band down to the axis that would suggest a value.
        self.limit_curve = pg.PlotDataItem(name=LIMIT_LABEL, antialias=True, connect="finite")
        self.limit_curve.setZValue(9)
        self.limit_curve.setVisible(False)
        plot.addItem(self.limit_curve)
        self.reference_curve = pg.PlotDataItem(name="reference", antialias=True)
        self.reference_curve.setZValue(6)
        plot.addItem(self.reference_curve)
        self.legend = pg.LegendItem(offset=None, verSpacing=-2)
        # PlotItem hands its named items to ``plot.legend``; tests and pyqtgraph's menu look for it there.
        plot.legend = self.legend
        return plot

    def _make_sub_plot(self, keys, y_label: str) -> pg.PlotItem:
        plot = new_plot()
        for key in keys:
            self._add_curve(plot, key)
        self.curves[keys[0]].setZValue(10)
        self._add_capacity_line(plot, labelled=False)
        self._add_crosshair(plot)
        plot.setXLink(self.rate_plot)
        # The key goes in the title line: a legend box would cover the curves of such a short plot.
        self.sub_keys[id(plot)] = keys
        self.y_labels[id(plot)] = y_label
        return plot

    def _on_rate_y_range(self, *_):
        if self.band.has_gaps():
            self.band.updatePath()


class _CountAxis(GridAxis):
    """The items-inserted axis: 0.5M, 1M, 1.5M (units.axis_counts), not 500000, 1e+06, 1.5e+06, which ran into
    each other at 150 % text."""

    def tickStrings(self, values, scale, spacing):
        return [marks(text) for text in axis_counts([v * scale for v in values], spacing * scale)]   # 1,5M in hr
