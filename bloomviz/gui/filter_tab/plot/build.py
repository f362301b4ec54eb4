"""Building the live plot's items: the three plots, their curves, capacity lines, crosshairs and check boxes.

A mixin of ``FpPlotWidget`` (``widget.py``); run once from its constructor, and ``_relayout`` whenever a
sub-plot is shown or hidden.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6 import QtWidgets

from bloomviz.gui.filter_tab.plot.style import BAND_BRUSH, BAND_LABEL, LABELS, LIMIT_LABEL
from bloomviz.gui.widgets.flow_layout import FlowLayout
from bloomviz.gui.widgets.wilson_band import WilsonBand
from bloomviz.theory.units import axis_counts
from bloomviz.i18n import tr


class BuildMixin:
    def _build_controls(self) -> None:
        self._controls = FlowLayout()    # wraps at large text rather than widen the plot's dock past the window
        self._controls.setContentsMargins(4, 0, 4, 0)
        self._log_check = QtWidgets.QCheckBox(tr("Log y"))
        self._log_check.setToolTip(
            tr("Logarithmic rate axis: tiny rates become visible and the theory curves separate. "
               "A rate of 0 has no logarithm, so points with no false positive yet are not drawn."))
        self._fill_check = QtWidgets.QCheckBox(tr("Fill ratio"))
        self._fill_check.setToolTip(
            tr("Show the fraction of bits set (X/m) against the expected fill 1 − (1 − 1/m)^(kn)."))
        self._estimate_check = QtWidgets.QCheckBox(tr("Estimated n"))
        self._estimate_check.setToolTip(
            tr("Show the item count estimated from the bits, −(m/k)·ln(1 − X/m), against the true count."))
        self._log_check.toggled.connect(self.set_log_y)
        self._fill_check.toggled.connect(self.set_show_fill)
        self._estimate_check.toggled.connect(self.set_show_estimate)
        for box in (self._log_check, self._fill_check, self._estimate_check):
            self._controls.addWidget(box)

    def _new_plot(self) -> pg.PlotItem:
        plot = pg.PlotItem(axisItems={"bottom": _CountAxis(orientation="bottom")})
        plot.showGrid(x=True, y=True, alpha=0.18)
        plot.setMenuEnabled(True)
        # Long series: draw a peak-preserving downsample of the visible x range only.
        plot.setDownsampling(auto=True, mode="peak")
        plot.setClipToView(True)
        for side in ("left", "bottom"):
            plot.getAxis(side).enableAutoSIPrefix(False)
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
        self._band = WilsonBand(self._curves["fp_low"], self._curves["fp_high"], brush=BAND_BRUSH)
        plot.addItem(self._band, ignoreBounds=True)  # its off-view floor must not drag the range down
        plot.getViewBox().sigYRangeChanged.connect(self._on_rate_y_range)
        plot.getViewBox().sigXRangeChanged.connect(self._on_rate_x_range)
        # pyqtgraph's own context menu has a log-y box too: keep it and this widget's state as one.
        plot.ctrl.logYCheck.toggled.connect(self.set_log_y)
        self._add_capacity_line(plot, labelled=True)
        self._add_crosshair(plot)
        self._reference = None
        # A measured 0 has no logarithm: on a log axis it is drawn as what it says, an upper limit (the 95 %
        # interval's top), never as a band down to the axis that would suggest a value.
        self._limit_curve = pg.PlotDataItem(name=LIMIT_LABEL, antialias=True, connect="finite")
        self._limit_curve.setZValue(9)
        self._limit_curve.setVisible(False)
        plot.addItem(self._limit_curve)
        self._reference_curve = pg.PlotDataItem(name="reference", antialias=True)
        self._reference_curve.setZValue(6)
        plot.addItem(self._reference_curve)
        legend = self._make_legend(plot)
        self._rate_legend = legend
        self._entries = [[self._curves["fp_measured"], LABELS["fp_measured"], True],
                         [self._band, BAND_LABEL, True], [self._limit_curve, LIMIT_LABEL, False]]
        self._entries += [[self._curves[key], LABELS[key], True]
                          for key in ("fp_exact", "fp_classic", "fp_approx", "fp_bound")]
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
        for plot in (self._rate_plot, self._fill_plot, self._estimate_plot, getattr(self, "_rate_legend", None)):
            if plot is not None and plot in ci.items:
                ci.removeItem(plot)
        visible = self._visible_plots()
        for row, plot in enumerate(visible):
            ci.addItem(plot, row=row, col=0)
            ci.layout.setRowStretchFactor(row, 3 if plot is self._rate_plot else 1)
        for row in range(len(visible), 4):
            ci.layout.setRowStretchFactor(row, 0)
        if getattr(self, "_legend_place", None) is not None:
            self._legend_key = None   # the plots moved: put the legend beside or under them again
            self._place_legend()
        self._apply_text()


class _CountAxis(pg.AxisItem):
    """The items-inserted axis: 0.5M, 1M, 1.5M (units.axis_counts), not 500000, 1e+06, 1.5e+06, which ran into
    each other at 150 % text."""

    def tickStrings(self, values, scale, spacing):
        return axis_counts([v * scale for v in values], spacing * scale)
