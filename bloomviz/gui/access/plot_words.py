"""A plot told in words, as its accessible description: the Filter tab's rate plot by its readout (every
curve's value at the latest n), any other plot by its curves (points, range of x and y, the last point).

Kept current cheaply: a plot's view range changes whenever its data do (auto-range), and the description is
written once per burst of changes, on a short single-shot timer.
"""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6 import QtCore

from bloomviz.gui.access.names import plain
from bloomviz.gui.access.speech import describe_widget, plot_summary
from bloomviz.theory.units import count_text

SETTLE_MS = 200


def _num(x: float) -> str:
    if not math.isfinite(x):
        return str(x)
    if x == int(x) and abs(x) < 1e15:
        return count_text(int(x))
    return f"{x:.3g}"


def curves_summary(plot_item: pg.PlotItem) -> str:
    """'Title. Curve a: 12 points, x 1 to 16, y 0.001 to 0.5, last (16, 0.02). …' for a pyqtgraph plot."""
    title = plain(plot_item.titleLabel.text) or "Plot"
    parts = []
    for item in plot_item.listDataItems():
        x, y = item.getData()
        if x is None or len(x) == 0:
            continue
        name = plain(item.name() or "") or "curve"
        finite = [(a, b) for a, b in zip(x, y) if math.isfinite(a) and math.isfinite(b)]
        if not finite:
            continue
        ys = [b for _a, b in finite]
        last = finite[-1]
        parts.append(f"{name}: {len(finite)} points, x {_num(finite[0][0])} to {_num(last[0])}, "
                     f"y {_num(min(ys))} to {_num(max(ys))}, last ({_num(last[0])}, {_num(last[1])})")
    return f"{title}. " + ("; ".join(parts) if parts else "No data yet.")


class PlotDescriber(QtCore.QObject):
    """Keeps ``view``'s description equal to ``summary()``, refreshed ``SETTLE_MS`` after a change signal."""

    def __init__(self, view, summary, signals):
        super().__init__(view)
        self._view, self._summary = view, summary
        self._timer = QtCore.QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SETTLE_MS)
        self._timer.timeout.connect(self.refresh)
        for signal in signals:
            signal.connect(self._timer.start)
        self.refresh()

    def refresh(self, *_args) -> str:
        try:
            text = self._summary()
        except RuntimeError:     # the plot's items were deleted with their window before the timer fired
            return ""
        describe_widget(self._view, text)
        return text


def describe_rate_plot(plot) -> PlotDescriber:
    """The Filter tab's FpPlotWidget: its title and readout, after every redraw."""
    return PlotDescriber(plot.graphics, lambda: plot_summary(plot.TITLE, plot.readout_text()), [plot.redrawn])


def describe_plots(root) -> list[PlotDescriber]:
    """Every pyqtgraph PlotWidget under ``root`` described by its curves (once per widget)."""
    made = []
    for widget in root.findChildren(pg.PlotWidget):
        if widget.property("bloomvizDescribed"):
            continue
        widget.setProperty("bloomvizDescribed", True)
        item = widget.getPlotItem()
        made.append(PlotDescriber(widget, lambda item=item: curves_summary(item),
                                  [item.getViewBox().sigRangeChanged]))
    return made
