"""A plot told in words, as its accessible description: the Filter tab's rate plot by its readout (every
curve's value at the latest n), any other plot (the Explorer's, Compare's) by its named curves: each one's last
value and where, its points, its range of x and y, in the curves' own numbers (a log axis draws log10 of them)
and rates written as the window writes rates.

Kept current cheaply: the description is written once per burst of changes (new data, a new range), on a short
single-shot timer.
"""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6 import QtCore

from bloomviz.gui.access.names import plain
from bloomviz.gui.access.speech import describe_widget, plot_summary
from bloomviz.theory.units import count_text, rate_text

SETTLE_MS = 200


def _num(x: float) -> str:
    if not math.isfinite(x):
        return str(x)
    if x == int(x) and abs(x) < 1e15:
        return count_text(int(x))
    return f"{x:,.0f}" if 1000 <= abs(x) < 1e15 else f"{x:.3g}"


def _axis(plot_item: pg.PlotItem, side: str) -> tuple[str, object]:
    """An axis's short name ("n" of "n (items inserted)" or of "items inserted, n") and how to say its values:
    a rate as the window writes rates, anything else as a number."""
    label = plain(plot_item.getAxis(side).labelText or "")
    short = label.split("(")[0].strip() if "(" in label else label.rsplit(",", 1)[-1].strip()
    return (short or ("x" if side == "bottom" else "y")), (rate_text if "rate" in label.lower() else _num)


def _data(item) -> tuple:
    """A data item's own x and y: a curve's as given, a bar chart's centres (or left edges) and heights."""
    if hasattr(item, "getOriginalDataset"):
        return item.getOriginalDataset()
    opts = getattr(item, "opts", {})
    x = opts.get("x") if opts.get("x") is not None else opts.get("x0")
    return (None, None) if x is None or opts.get("height") is None else (x, opts["height"])


def curves_summary(plot_item: pg.PlotItem, title: str = "") -> str:
    """'Title. exact: 0.0146 at k = 16 (16 points, k 1 to 16, rate 0.0102 to 0.0146); …' for a pyqtgraph plot.

    Values are the curves' own data, not what a log axis draws (log10 of them); a curve without a legend name
    (an interval's edge, a fill) is left out when named ones exist."""
    (x_name, x_say), (y_name, y_say) = _axis(plot_item, "bottom"), _axis(plot_item, "left")
    axes = [plain(plot_item.getAxis(side).labelText or "") for side in ("left", "bottom")]
    title = (plain(plot_item.titleLabel.text) or title
             or (f"Plot of {axes[0] or 'values'} against {axes[1] or 'x'}" if any(axes) else "Plot"))
    curves = []
    for item in plot_item.listDataItems():
        x, y = _data(item)
        if x is None or y is None or len(x) == 0:
            continue
        finite = [(float(a), float(b)) for a, b in zip(x, y) if math.isfinite(a) and math.isfinite(b)]
        if finite:
            curves.append((plain(item.name() or ""), finite))
    if any(name for name, _points in curves):
        curves = [(name, points) for name, points in curves if name]
    parts = []
    for name, points in curves:
        ys = [b for _a, b in points]
        (x0, _y0), (x1, y1) = points[0], points[-1]
        count = f"{len(points):,} point" + ("s" if len(points) != 1 else "")
        spread = (f", {x_name} {x_say(x0)} to {x_say(x1)}, {y_name} {y_say(min(ys))} to {y_say(max(ys))}"
                  if len(points) > 1 else "")
        parts.append(f"{name or 'curve'}: {y_say(y1)} at {x_name} = {x_say(x1)} ({count}{spread})")
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
        # the scene's change (a curve's new data, batched per turn of the event loop) as well as the range:
        # new data within the same range (the Explorer's next design) changes no range
        made.append(PlotDescriber(widget, lambda item=item: curves_summary(item),
                                  [item.getViewBox().sigRangeChanged, widget.scene().changed]))
    return made
