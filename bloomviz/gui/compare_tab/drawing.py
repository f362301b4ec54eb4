"""The compare view's pictures: a lane per configuration (title, grid, numbers) and the shared plot of measured
rates, their Wilson bands and each one's theory.

``ComparePictures`` is composed into ``view.CompareView``: it is handed the lane frames, their box, the plot and
its log-y box and the splitter between lanes and plot, and draws a comparison (``studies.compare.Comparison``)
into them; the view owns the comparison and the run.
"""

from __future__ import annotations

import html
import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from bloomviz.filters import persist
from bloomviz.explain import variants as variant_words
from bloomviz.filters import capabilities
from bloomviz.filters.capabilities import grid_values
from bloomviz.gui import theme
from bloomviz.gui.widgets.wilson_band import WilsonBand
from bloomviz.studies import scheme_verdict
from bloomviz.i18n import marks, number, tr


class ComparePictures:
    """The lanes and the shared plot of ``CompareView``, drawn from a comparison."""

    def __init__(self, lanes, lane_box, plot: pg.PlotWidget, log_check, splitter):
        self.lanes, self.lane_box, self.plot = lanes, lane_box, plot
        self._log_check = log_check
        self._splitter = splitter
        self._cmp = None
        #: per lane: (lane, band's low edge, band's high edge, measured curve, its theory curve or None when
        #: an earlier lane of the same filter draws it)
        self.curves: list[tuple] = []

    def setup(self, cmp) -> None:
        """Lanes and curves for a new comparison ``cmp``."""
        self._cmp = cmp
        self._setup_lanes()
        self._setup_plot()

    def _setup_lanes(self) -> None:
        for i, frame in enumerate(self.lanes):
            if i < len(self._cmp.lanes):
                lane = self._cmp.lanes[i]
                frame.setVisible(True)
                frame.title.setText(f"<b style='color:{frame.colour}'>■</b> <b>{html.escape(lane.config.label)}"
                                    "</b>")
                frame.title.setToolTip(f"{lane.config.title}: m = {lane.filter.m:,} bits, k = {lane.filter.k}")
                frame.grid.setToolTip("")
                frame.grid.reset(lane.filter.m, grid_values(lane.filter), self._max_value(lane.filter))
                frame.stats.setText("")
            else:
                frame.setVisible(False)
        self.lane_box.refit()

    @staticmethod
    def _max_value(flt) -> int:
        return capabilities.max_value(flt)

    def _setup_plot(self) -> None:
        self.plot.clear()
        self.plot.plotItem.legend.clear()
        self.curves = []
        seen_theory: dict[tuple, pg.PlotDataItem] = {}
        for lane, frame in zip(self._cmp.lanes, self.lanes):
            colour = QtGui.QColor(frame.colour)
            fill = QtGui.QColor(colour)
            fill.setAlpha(70)
            edge = QtGui.QColor(colour)
            edge.setAlpha(110)
            # The band is built from what its edge curves display, so they need a (faint) pen to be drawn.
            low = pg.PlotDataItem(pen=pg.mkPen(edge, width=1))
            high = pg.PlotDataItem(pen=pg.mkPen(edge, width=1))
            band = WilsonBand(low, high, brush=pg.mkBrush(fill))
            measured = pg.PlotDataItem(pen=pg.mkPen(colour, width=2), name=lane.config.label, connect="finite")
            key = (lane.filter.variant, lane.filter.m, lane.filter.k,
                   tuple(sorted(persist.params_of(lane.filter).items())))
            th = seen_theory.get(key)
            if th is None:
                name = variant_words.theory_name(lane.filter)
                th = pg.PlotDataItem(pen=pg.mkPen(colour.darker(140), width=2,
                                                  style=QtCore.Qt.PenStyle.DashLine), name=tr(name))
                seen_theory[key] = th
                self.plot.addItem(th)
                owns_theory = True
            else:
                owns_theory = False
            for item in (low, high, measured):
                self.plot.addItem(item)
            self.plot.addItem(band, ignoreBounds=True)  # its off-view floor must not drag the range down
            measured.setZValue(10)
            self.curves.append((lane, low, high, measured, th if owns_theory else None))
        self.draw_curves()

    def set_log(self, on: bool) -> None:
        self.plot.setLogMode(y=on)
        self.draw_curves()

    def draw_curves(self) -> None:
        log = self._log_check.isChecked()
        top = 0.0
        for lane, low, high, measured, th in self.curves:
            c = lane.curve()
            n = c["n"].astype(float)
            y, lo, hi, t = c["measured"], c["low"], c["high"], c["theory"]
            if log:
                # A rate of 0 has no logarithm: leave those points out (the band's edge falls to the axis).
                # Before a curve's first false positive its band is [0, ~3/probes] for every configuration
                # alike; on a log axis those stacked boxes only hide the curves, so bands start at the first.
                y = np.where(y > 0, y, np.nan)
                lo = np.where(c["measured"] > 0, lo, np.nan)
                hi = np.where(c["measured"] > 0, hi, np.nan)
            top = max(top, float(np.nanmax(hi, initial=0.0)), float(np.nanmax(t, initial=0.0)))
            measured.setData(n, y, connect="finite")
            low.setData(n, lo, connect="finite")
            high.setData(n, hi, connect="finite")
            if th is not None:
                # Theory is drawn to the end of the run from the start, so the measured curves grow towards it.
                full = np.linspace(0, self._cmp.n, 300)
                tv = lane.theory_fp(full)
                if log:
                    # Below a tenth of one probe the theory cannot be measured here; drawing it down to 1e-25
                    # would squash the part of the plot where the curves differ.
                    tv = np.where(tv >= 0.1 / len(self._cmp.probes), tv, np.nan)
                th.setData(full, tv, connect="finite")
        if self._cmp is not None:
            self._fit_y(top, log)

    def _fit_y(self, top: float, log: bool) -> None:
        # From a tenth of one probe (nothing below is measurable) to just above the highest band or theory.
        floor = 0.1 / len(self._cmp.probes)
        top = max(top * 1.5, floor * 100)
        if log:
            self.plot.setYRange(math.log10(floor), math.log10(min(top, 1.0)), padding=0.02)
        else:
            self.plot.setYRange(0.0, min(top, 1.0), padding=0.02)

    def draw_grids(self) -> None:
        for lane, frame in zip(self._cmp.lanes, self.lanes):
            values = grid_values(lane.filter)
            if frame.grid.m != lane.filter.m:
                frame.grid.reset(lane.filter.m, values, self._max_value(lane.filter))
            else:
                frame.grid.set_all(values)
            if capabilities.of(lane.filter).staged:
                offsets = list(lane.filter.stages.offsets) + [lane.filter.m]
                frame.grid.set_bands([(offsets[i], offsets[i + 1], tr("stage {stage}").format(stage=i))
                                      for i in range(len(offsets) - 1)])

    def draw_stats(self) -> None:
        done = self._cmp.finished
        # The scheme is judged once the run is over, against what its own bits explain (scheme_verdict); while
        # it runs, a lane outside the formula's interval may only be one filter's luck, so nothing is flagged.
        verdicts = self._cmp.verdicts() if done else [None] * len(self._cmp.lanes)
        for lane, frame, v in zip(self._cmp.lanes, self.lanes, verdicts):
            s = lane.summary()
            ratio = "—" if math.isnan(s.ratio) else ("∞" if math.isinf(s.ratio) else marks(f"{s.ratio:.2f}×"))
            flag = ""
            if v is not None and v.kind == scheme_verdict.DEPENDENT:
                flag = (f"<br><b style='color:{theme.outcome_colour(False)}'>" + tr(
                    "{times} its fill: positions dependent").format(times=scheme_verdict.times(v.ratio_to_fill)) + "</b>")
            elif v is not None and v.kind == scheme_verdict.LUCK:
                flag = "<br>" + tr("off the formula by its fill (luck)")
            elif v is not None and v.kind == scheme_verdict.BELOW:
                flag = "<br>" + tr("{times} its fill: below chance").format(times=scheme_verdict.times(v.ratio_to_fill))
            fill = tr(" · fill explains {rate}").format(rate=marks(f"{v.fill_rate:.3g}")) if v is not None else ""
            frame.stats.setText(  # short words: four lanes share a narrow tab
                tr("fill {percent}").format(percent=marks(f"{s.bits_set / s.m:.1%}"))
                + f"<br>{tr('FP')} <b>{marks(f'{s.measured:.3g}')}</b> "
                + tr("[{low}, {high}]").format(low=marks(f"{s.low:.2g}"), high=marks(f"{s.high:.2g}"))
                + f"<br><b>{ratio}</b> {tr('formula')}{fill}{flag}")
            frame.stats.setToolTip(tr(
                "after n = {n} items, {fp} of {probes} probes (never inserted) pass the filter: measured {measured}, "
                "formula {theory} (the average over all filters like it); the interval is the 95% Wilson interval of "
                "the probes. When the run ends the scheme is judged against what this filter's own bits explain for "
                "independent positions ((X/m)^k for a standard filter), so one filter's luck is not blamed on its "
                "scheme.").format(n=number(s.n), fp=number(s.fp_count), probes=number(s.probes),
                                  measured=marks(f"{s.measured:.4g}"), theory=marks(f"{s.theory:.4g}")))
        self.lane_box.refit()      # the numbers' new lines: each lane as tall as its words

    def redraw(self) -> None:
        self.draw_curves()
        self.draw_grids()
        self.draw_stats()
        self.fit_grids()

    def fit_grids(self) -> None:
        self.lane_box.refit()
        self._fit_lane_share()
        for frame in self.lanes:
            if frame.isVisible() and frame.grid.m:
                frame.grid.fit()

    def _fit_lane_share(self) -> None:
        """A whole row of lanes above the plot (at 250 % text the plot's size hint left them ~90 px), as long as
        the plot keeps half the column; a larger share the user dragged is kept."""
        sizes = self._splitter.sizes()
        total = sum(sizes)
        want = min(self.lane_box.row_height() + 2, total // 2)
        if total > 0 and sizes[0] < want:
            self._splitter.setSizes([want, total - want])
