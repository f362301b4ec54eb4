"""The fill gauge in the status bar: how full the filter is against what it was designed for.

With a design capacity (a filter made for n items at rate p) the bar is the items held over that capacity: it
turns amber at the capacity and says in words, past it, how far the exact rate has gone beyond the design's
(a filter keeps answering when overfull; its false positives climb, which is the point worth a warning).
Without a design it shows the fraction of bits set. It reads the workbench after each change, at most five
times a second; it never changes anything. In the window it follows the live plot (``follow``): it is redrawn
with the plot, so both show the same n, and its own timer leaves it alone while a plot redraw is on its way.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from bloomviz.gui import theme
from bloomviz.gui.widgets.progress import show_value
from bloomviz.theory import rates as theory
from bloomviz.theory.units import percent_text, rate_text
from bloomviz.i18n import marks, number, tr
from bloomviz.filters.registry import standard_formulas_apply

REFRESH_MS = 200


def gauge_state(n: int, capacity: int | None, bits_set: int, m: int, k: int, standard_formulas: bool,
                after_removals: bool = False) -> dict:
    """What the gauge shows, as plain values (tested without Qt): value 0…1000, text, tip, colour.
    ``after_removals``: a counting filter after a forced removal, which n inserts no longer describe: its rate
    is the one its counters give, (X/m)^k, not the exact rate of n inserts."""
    if not capacity:
        fill = bits_set / m if m else 0.0
        return {"value": round(1000 * fill), "text": tr("fill {percent}").format(percent=marks(percent_text(fill))),
                "colour": "",
                "tip": tr("Bits set over all bits (no design capacity: make the filter with Design to get one).")}
    share = n / capacity
    text = tr("{n} of {capacity} items").format(n=number(n), capacity=number(capacity))
    colour, tip = "", tr("The filter was designed for {capacity} items.").format(capacity=number(capacity))
    if share >= 1.0:
        colour = theme.GAUGE_COLOURS["near" if share < 1.5 else "past"]
        tip = tr("At or past its design capacity of {capacity} items.").format(capacity=number(capacity))
        if n > capacity and standard_formulas and m and k:
            then = theory.fp_exact(m, k, capacity)
            now = (bits_set / m) ** k if after_removals else theory.fp_exact(m, k, n)
            text += tr(" — past capacity: rate {rate}, {times}× the design's").format(
                rate=marks(rate_text(now)), times=number(now / then, 1)) if then else ""
            tip += (tr(" The rate its counters give (a forced removal changed them) is now {now} against {then} "
                       "exact at capacity: it keeps answering, but more wrongly.") if after_removals else
                    tr(" Its exact false-positive rate is now {now} against {then} at capacity: it keeps answering, "
                       "but more wrongly.")).format(now=marks(rate_text(now)), then=marks(rate_text(then)))
    return {"value": min(1000, round(1000 * share)), "text": text, "colour": colour, "tip": tip}


class FillGauge(QtWidgets.QProgressBar):
    def __init__(self, workbench, parent=None):
        super().__init__(parent)
        self._wb = workbench
        self.setRange(0, 1000)
        self._fit_width()
        self.setTextVisible(True)
        self._timer = QtCore.QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(REFRESH_MS)
        self._timer.timeout.connect(self._on_timer)
        self._plot = None
        for signal in (workbench.filterReset, workbench.filterGrown, workbench.operated, workbench.jobFinished):
            signal.connect(self._later)
        self.refresh()

    def _fit_width(self) -> None:
        """As wide as its words at the current text size (at 250 % "30 of 200 items" needs ~280 px: a fixed
        180-360 px cut it to "0 of 200 / items" on two lines)."""
        words = self.format() if self.format() not in ("", "%p%") else "999,999 of 999,999 items"
        need = self.fontMetrics().horizontalAdvance(words) + 24
        self.setMinimumWidth(max(180, min(need, 640)))
        self.setMaximumWidth(max(360, min(need, 640)))

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QtCore.QEvent.Type.FontChange:
            self._fit_width()

    def _later(self, *_) -> None:
        if not self._timer.isActive():
            self._timer.start()

    def follow(self, plot) -> None:
        """Redraw with ``plot`` (an ``FpPlotWidget``): on its ``redrawn`` signal, and not in between."""
        self._plot = plot
        plot.redrawn.connect(self.refresh)

    def _on_timer(self) -> None:
        if self._plot is not None and self._plot.redraw_pending:
            return   # the plot's redraw, a few ms away, brings this one with it
        self.refresh()

    def refresh(self, *_) -> None:
        wb = self._wb
        flt = wb.filter
        state = gauge_state(len(flt), wb.capacity, flt.bits_set, flt.m, flt.k,
                            standard_formulas_apply(flt), after_removals=wb.formula_break() is not None)
        show_value(self, state["value"])
        self.setFormat(state["text"])
        self._fit_width()
        self.setToolTip(state["tip"])
        sheet = f"QProgressBar::chunk {{ background: {state['colour']}; }}" if state["colour"] else ""
        if sheet != self.styleSheet():    # setting one re-polishes the bar each time, the same sheet too
            self.setStyleSheet(sheet)
        self.state = state


def install(window) -> FillGauge:
    gauge = FillGauge(window.wb, window)
    window.statusBar().addPermanentWidget(gauge)
    gauge.follow(window.plot)
    window.fill_gauge = gauge
    return gauge
