"""The explorer's plots: a pyqtgraph plot with a cursor readout and an export button, and the three views.

``CurvePlot`` keeps every curve's data as given (linear values); on a log axis, values <= 0 have no logarithm
and are left out of the drawing (never out of a CSV export). The readout under the plot names, for the x under
the mouse, the nearest point of every visible curve. Markers (a vertical or horizontal line, a labelled
point) are placed in the plot's own coordinates, which on a log axis are log10 of the value.

- ``FpVsNPlot``: false-positive rate against n for several m at the current k, the current design marked;
- ``FpVsKPlot``: rate against k at the current m and n, exact/approximate/bound, the optimum marked, measured
  points with their Wilson intervals overlaid (one colour per run, so runs with other seeds show the spread);
- ``BitsPerItemPlot``: bits per item against p for the lower bound log2(1/p), an optimal Bloom filter
  (1.44·log2(1/p)) and the best integer k, the current design marked.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from bloomviz.gui import theme
from bloomviz.studies import explore
from bloomviz.theory.units import count_text, rate_text
from bloomviz.gui.files.file_dialogs import message_box
from bloomviz.gui.widgets.legend_place import LegendPlacer
from bloomviz.gui.widgets.plot_room import keep_readable
from bloomviz.gui.widgets.shrink import hold_wrapped_height
from bloomviz.gui.widgets.grid_axis import beneath_the_view, opaque_grid_axes
from bloomviz.gui.widgets.plot_export import EXPORT_FILTER, PlotExportError, export_plot
from bloomviz.gui.widgets.whole_lines import WholeLinesLabel
from bloomviz.i18n import marks, number, tr

# Okabe–Ito colours, as in the live plot.
EXACT, APPROX, BOUND, MEASURED, CLASSIC, MARK, GREY = (theme.EXPLORER_COLOURS[key] for key in (
    "exact", "approx", "bound", "measured", "classic", "mark", "grey"))
RUN_COLOURS, FAMILY = theme.EXPLORER_RUNS, theme.EXPLORER_FAMILY


def fmt(value: float) -> str:
    """A rate, k or a count, by the one policy (core.units)."""
    if value is None or not math.isfinite(value):
        return "—"
    if 0 <= value <= 1:
        return rate_text(value)
    return count_text(value) if abs(value) >= 10 else f"{value:.4g}"


class CurvePlot(QtWidgets.QWidget):
    """A PlotWidget, a one-line readout and an Export button. Subclasses call ``curve``/``clear_curves``."""

    def __init__(self, title: str, x_label: str, y_label: str, log_x=False, log_y=False, parent=None,
                 legend_offset=(-10, 10)):
        super().__init__(parent)
        self.log_x, self.log_y = log_x, log_y
        # opaque grid lines (widgets/grid_axis.py): a paint hands no work to Qt's thread pool
        self.plot_widget = pg.PlotWidget(background="w", axisItems=opaque_grid_axes())
        keep_readable(self.plot_widget)     # lines of text high at any text size: the controls below scroll
        self.plot_item = self.plot_widget.getPlotItem()
        beneath_the_view(self.plot_item, "w")
        self.plot_item.setTitle(tr(title), color=MARK)
        for side in ("left", "bottom"):
            axis = self.plot_item.getAxis(side)
            axis.setPen(pg.mkPen(MARK))
            axis.setTextPen(pg.mkPen(MARK))
            axis.enableAutoSIPrefix(False)   # a "(x0.001)" beside log-scale ticks would only confuse
        self.plot_item.setLabel("bottom", tr(x_label), color=MARK)
        self.plot_item.setLabel("left", tr(y_label), color=MARK)
        self.plot_item.showGrid(x=True, y=True, alpha=0.25)
        self.plot_item.setLogMode(x=log_x, y=log_y)
        self.legend = self.plot_item.addLegend(offset=legend_offset, brush=pg.mkBrush(*theme.EXPLORER_COLOURS["legend_fill"]),
                                               labelTextColor=MARK)
        # over the fewest points of the curves drawn, its own place first (a narrow plot at large text)
        corner = (1, 0) if legend_offset[0] < 0 else (0, 0)
        self.legend_place = LegendPlacer(self.plot_item, self.legend, (corner, corner, legend_offset))
        self.readout = WholeLinesLabel(" ")
        self.readout.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self._size_readout()
        hold_wrapped_height(self.readout)     # its lines (up to READOUT_LINES) never drawn over the plot
        self.export_button = QtWidgets.QPushButton(tr("Export…"))
        self.export_button.setToolTip(tr("Save this plot as a PNG or SVG picture, or its curves' data as CSV."))
        self.export_button.clicked.connect(self._export_dialog)
        self.controls = QtWidgets.QHBoxLayout()
        self.controls.addWidget(self.readout, 1)
        self.controls.addWidget(self.export_button, 0, QtCore.Qt.AlignmentFlag.AlignTop)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.plot_widget, 1)
        layout.addLayout(self.controls)
        self._curves: dict[str, tuple[str, np.ndarray, np.ndarray, pg.PlotDataItem]] = {}
        self._markers: list = []
        self._default_readout = " "
        self.plot_widget.scene().sigMouseMoved.connect(self._on_mouse_moved)

    # at most this many lines of the readout, the rest in its tooltip: at 250 % text on 1280 x 720 it wrapped to
    # five lines beside Export and left the plot ~60 px
    READOUT_LINES = 3

    def _size_readout(self) -> None:
        lines = self.readout.fontMetrics().lineSpacing()
        self.readout.setMinimumHeight(2 * lines + 4)
        self.readout.setMaximumHeight(self.READOUT_LINES * lines + 4)

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().changeEvent(event)
        if event.type() == QtCore.QEvent.Type.FontChange:
            self._size_readout()

    # --- drawing ---------------------------------------------------------------------------------------
    def curve(self, key: str, label: str, x, y, pen=None, symbol=None, symbol_brush=None, size=7,
              legend=True, readout=True, connect="finite") -> pg.PlotDataItem:
        label = tr(label)     # a fixed curve name in the window's language (a built one is already)
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        shown_x, shown_y = x.copy(), y.copy()
        if self.log_y:
            shown_y[shown_y <= 0] = np.nan
        if self.log_x:
            shown_x[shown_x <= 0] = np.nan
        if not np.any(np.isfinite(shown_y)):
            symbol = None   # nothing to mark (all rates 0 on a log axis); pyqtgraph would warn on all-NaN spots
        item = pg.PlotDataItem(shown_x, shown_y, pen=pen, symbol=symbol, symbolBrush=symbol_brush,
                               symbolPen=None if symbol_brush is not None else pen, symbolSize=size,
                               connect=connect, name=label if legend else None)
        self.plot_item.addItem(item)
        self.legend_place.schedule()
        if readout:
            self._curves[key] = (label, x, y, item)
        return item

    def clear_curves(self) -> None:
        self.plot_item.clear()
        self.legend.clear()
        self._curves.clear()
        self._markers.clear()

    def _vx(self, x: float) -> float:
        return math.log10(x) if self.log_x else x

    def _vy(self, y: float) -> float:
        return math.log10(y) if self.log_y else y

    def vline(self, x: float, label: str = "", colour: str = GREY, style=QtCore.Qt.PenStyle.DashLine,
              at: float = 0.93, in_legend: bool = False):
        """A vertical marker at ``x``, its label drawn beside it at ``at`` of the view's height, or with
        ``in_legend`` an entry of the legend (which goes where it hides the least curve)."""
        if self.log_x and not x > 0:
            return None
        pen = pg.mkPen(colour, width=1.5, style=style)
        line = pg.InfiniteLine(pos=self._vx(x), angle=90, pen=pen, label=(label or None) if not in_legend else None,
                               labelOpts={"position": at, "color": colour, "fill": (255, 255, 255, 200)})
        self.plot_item.addItem(line)
        if in_legend and label:
            self.legend.addItem(pg.PlotDataItem([], [], pen=pen), label)    # a sample of the line, not drawn
            self.legend_place.schedule()
        self._markers.append(line)
        return line

    def hline(self, y: float, label: str = "", colour: str = GREY, style=QtCore.Qt.PenStyle.DotLine):
        if self.log_y and not y > 0:
            return None
        line = pg.InfiniteLine(pos=self._vy(y), angle=0, pen=pg.mkPen(colour, width=1.2, style=style),
                               label=label or None,
                               labelOpts={"position": 0.08, "color": colour, "fill": (255, 255, 255, 200)})
        self.plot_item.addItem(line)
        self._markers.append(line)
        return line

    def note(self, text: str) -> None:
        """A message in the middle of the view (for a plot that has nothing to show)."""
        label = pg.TextItem(text, color=MARK, anchor=(0.5, 0.5), fill=theme.EXPLORER_COLOURS["label_fill"])
        self.plot_item.addItem(label, ignoreBounds=True)
        vb = self.plot_item.getViewBox()
        rect = vb.viewRect()
        label.setPos(rect.center())
        self._markers.append(label)

    # --- readout ---------------------------------------------------------------------------------------
    def set_default_readout(self, html_text: str) -> None:
        html_text = tr(html_text)
        self._default_readout = html_text
        self.readout.setText(html_text)

    def _on_mouse_moved(self, pos) -> None:
        vb = self.plot_item.getViewBox()
        if not vb.sceneBoundingRect().contains(pos):
            self.readout.setText(self._default_readout)
            return
        vx = vb.mapSceneToView(pos).x()
        self.readout.setText(self.readout_at(10 ** vx if self.log_x else vx))

    def readout_at(self, x: float) -> str:
        """The values of every curve at its point nearest to x (HTML)."""
        parts = []
        for label, xs, ys, item in self._curves.values():
            if xs.size == 0 or not item.isVisible():
                continue
            if self.log_x:
                with np.errstate(divide="ignore", invalid="ignore"):
                    i = int(np.nanargmin(np.abs(np.log10(xs) - math.log10(max(x, 1e-300)))))
            else:
                i = int(np.argmin(np.abs(xs - x)))
            parts.append(f"{label}: <b>{fmt(ys[i])}</b> at {fmt(xs[i])}")
        return " · ".join(parts) if parts else self._default_readout

    # --- export ----------------------------------------------------------------------------------------
    def export(self, path) -> str:
        return str(export_plot(self.plot_item, path))

    def _export_dialog(self) -> None:
        path, _ = QtWidgets.QFileDialog.getSaveFileName(self, tr("Export plot"), "", EXPORT_FILTER)
        if not path:
            return
        try:
            self.export(path)
        except (PlotExportError, OSError) as exc:
            message_box(self, "Export failed", str(exc)).exec()     # a modal report, as every failed save


class FpVsNPlot(CurvePlot):
    def __init__(self, parent=None):
        # The upper left is empty (every rate starts at 0 and rises): the legend goes there.
        super().__init__("False-positive rate as items arrive", "n (items inserted)", "false-positive rate",
                         log_y=True, parent=parent, legend_offset=(10, 10))

    @staticmethod
    def n_points(n: int) -> np.ndarray:
        return np.unique(np.linspace(0, max(2 * n, 10), 241).round())

    @staticmethod
    def sweeps(m: int, k: int, n: int) -> None:
        """Compute (into the cache) what ``show_design`` draws: the explorer's worker thread calls this."""
        ns = FpVsNPlot.n_points(n)
        for mm in explore.m_family(m):
            explore.n_sweep_cached(mm, k, ns)
        explore.n_sweep_cached(m, k, [n])
        explore.k_sweep_cached(m, n, FpVsKPlot.k_span(m, n, k))

    def show_design(self, m: int, k: int, n: int, p_target: float | None = None) -> None:
        self.clear_curves()
        ns = self.n_points(n)
        family = explore.m_family(m)
        for colour, mm in zip(FAMILY[-len(family):], family):
            th = explore.n_sweep_cached(mm, k, ns)
            width = 3 if mm == m else 1.5
            self.curve(f"m{mm}", f"m = {number(mm)}", ns, th["fp_exact"], pen=pg.mkPen(colour, width=width))
        th = explore.n_sweep_cached(m, k, ns)
        _formula_curves(self, ns, th, ("Bloom's formula, classic (m = current)", "approximation (m = current)",
                                       "bound (m = current)"))
        if n > 0:
            self.vline(n, tr("design n = {n}").format(n=number(n)), MARK)
            fp = float(explore.n_sweep_cached(m, k, [n])["fp_exact"][0])
            self.curve("design", "this design", [n], [fp], pen=None, symbol="o", symbol_brush=MEASURED,
                       size=11, readout=False)
        if p_target:
            self.hline(p_target, tr("target p = {p}").format(p=marks(f"{p_target:g}")))
        # Near n = 0 the rates fall to 1e-30 and below; four decades under the design's rate are enough.
        ref = min(x for x in (fp if n > 0 else 0.0, p_target or 0.0, 0.01) if x > 0)
        floor = min(1e-2, max(1e-15, ref * 1e-4))
        self.plot_item.setYRange(math.log10(floor), 0.05, padding=0)
        self.set_default_readout(tr("k = {k} for every curve; the thick one is m = {m}. Point at the plot for the "
                                    "values.").format(k=k, m=number(m)))

    def show_measured(self, runs: list[dict]) -> None:
        for index, run in enumerate(runs):
            _overlay(self, run["result"], "n", index, run["seed"], jitter=0.0)


class FpVsKPlot(CurvePlot):
    def __init__(self, parent=None):
        super().__init__("False-positive rate against k (m and n fixed)", "k (hash functions)",
                         "false-positive rate", log_y=True, parent=parent)
        # The curve is a U: the middle of its top is where the legend hides nothing.
        self.legend_place.set_own(((0.5, 0), (0.5, 0), (0, 8)))

    @staticmethod
    def k_span(m: int, n: int, k: int) -> list[int]:
        k_real, _ = explore.k_optimum(m, n)
        top = max(12, k + 3, math.ceil(2 * k_real) + 2 if k_real is not None else 0)
        return list(range(1, min(64, top) + 1))

    def show_design(self, m: int, k: int, n: int) -> None:
        self.clear_curves()
        ks = self.k_span(m, n, k)
        sw = explore.k_sweep_cached(m, n, ks)
        self.curve("exact", "exact", ks, sw["fp_exact"], pen=pg.mkPen(EXACT, width=2.5), symbol="o",
                   symbol_brush=EXACT, size=6)
        _formula_curves(self, ks, sw, ("Bloom's formula (classic)", "approximation", "bound"))
        k_real, k_int = explore.k_optimum(m, n)
        if k_real is None:
            self.plot_item.setYRange(-6, 0)
            self.note(tr("n = 0: nothing inserted, every k gives a rate of 0 — there is no optimal k"))
            self.set_default_readout(f"m = {number(m)}, n = 0.")
            return
        if k_real <= ks[-1]:
            # named in the legend: a label beside the line lay over the curves (at 250 % its text crossed them from
            # k = 3 to 8), and low on it under the legend at 150 %
            self.vline(k_real, f"(m/n)·ln 2 = {number(k_real, 2)}", in_legend=True)
        best = float(sw["fp_exact"][k_int - 1])
        star = self.curve("best", tr("best integer k = {k}").format(k=k_int), [k_int], [best], pen=None, symbol="star",
                          symbol_brush=theme.EXPLORER_COLOURS["best"], size=20, readout=False)
        star.setZValue(10)
        star.setSymbolPen(pg.mkPen(MARK, width=1))
        if k != k_int:
            self.curve("current", tr("chosen k = {k}").format(k=k), [k], [float(sw["fp_exact"][k - 1])], pen=None,
                       symbol="s", symbol_brush=MARK, size=9, readout=False)
        self.set_default_readout(tr("m = {m}, n = {n}: the best integer k is {k} (exact rate {rate}). Point at the "
                                    "plot for the values.").format(m=number(m), n=number(n), k=k_int,
                                                                   rate=marks(fmt(best))))

    def show_measured(self, runs: list[dict]) -> None:
        count = len(runs)
        for index, run in enumerate(runs):
            jitter = 0.0 if count == 1 else (index - (count - 1) / 2) * min(0.12, 0.5 / count)
            _overlay(self, run["result"], "k", index, run["seed"], jitter=jitter)


_FORMULAS = (("classic", CLASSIC, QtCore.Qt.PenStyle.DashDotDotLine), ("approx", APPROX, QtCore.Qt.PenStyle.DashLine),
             ("bound", BOUND, QtCore.Qt.PenStyle.DotLine))


def _formula_curves(plot: CurvePlot, xs, table, labels: tuple[str, str, str]) -> None:
    """The classic, approximate and bound rates from ``table`` (a sweep's columns), in the pens both rate
    plots give them, labelled ``labels`` in that order."""
    for (key, colour, style), label in zip(_FORMULAS, labels):
        plot.curve(key, label, xs, table[f"fp_{key}"], pen=pg.mkPen(colour, width=1.5, style=style))


def _overlay(plot: CurvePlot, result: dict, xkey: str, index: int, seed: int, jitter: float) -> None:
    """Measured points and their 95% intervals (vertical bars); a bar whose low end is 0 reaches down two
    decades on a log axis, since 0 has no place there."""
    colour = RUN_COLOURS[index % len(RUN_COLOURS)]
    x = np.asarray(result[xkey], dtype=float) + jitter
    mid, low, high = (np.asarray(result[c], dtype=float) for c in ("fp_measured", "fp_low", "fp_high"))
    if plot.log_y:
        low = np.where(low > 0, low, high / 100)
    bars_x = np.repeat(x, 2)
    bars_y = np.column_stack([low, high]).ravel()
    plot.curve(f"bars{index}", "", bars_x, bars_y, pen=pg.mkPen(colour, width=2), legend=False,
               readout=False, connect="pairs")
    plot.curve(f"measured{index}", tr("measured, seed {seed}").format(seed=seed), x, mid, pen=None, symbol="d",
               symbol_brush=colour, size=10)


class BitsPerItemPlot(CurvePlot):
    def __init__(self, parent=None):
        super().__init__("Space: bits per item against the false-positive rate", "false-positive rate p",
                         "bits per item", log_x=True, parent=parent)

    def show_design(self, bits_per_item: float, fp: float) -> None:
        self.clear_curves()
        lo = min(1e-12, fp / 10) if fp > 0 else 1e-12
        ps = np.geomspace(max(lo, 1e-300), 0.5, 160)
        sw = explore.bits_per_item_sweep(ps)
        self.curve("integer", "Bloom filter, best integer k", ps, sw["bloom_integer_k"],
                   pen=pg.mkPen(APPROX, width=1.5, style=QtCore.Qt.PenStyle.DashLine))
        self.curve("bloom", "Bloom filter, optimal k: 1.44·log2(1/p)", ps, sw["bloom_optimal"],
                   pen=pg.mkPen(EXACT, width=2.5))
        self.curve("lower", "lower bound: log2(1/p)", ps, sw["lower_bound"], pen=pg.mkPen(BOUND, width=2.5))
        if fp > 0 and math.isfinite(bits_per_item):
            self.curve("design", "this design", [fp], [bits_per_item], pen=None, symbol="o",
                       symbol_brush=MEASURED, size=11, readout=False)
            self.vline(fp, tr("this design: p = {p}").format(p=marks(fmt(fp))), MARK)
        self.set_default_readout("An optimal Bloom filter spends log2(e) ≈ 1.44 times the lower bound. "
                                 "Point at the plot for the values.")
