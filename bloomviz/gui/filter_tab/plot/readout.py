"""The readout under the plot: every curve's value at the n under the mouse, or at the latest n.

``PlotReadout`` owns the label (in a scroll area) and the crosshairs' positions; it is handed the plot widget,
whose public state it reads (``series``, ``show_fill``, ``show_estimate``, ``dark``, ``formula_break``), the
crosshairs and a function giving the plots shown. ``values_at`` is a function of a series.
"""

from __future__ import annotations

import html

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.i18n import marks, number, tr
from bloomviz.gui.filter_tab.plot.style import FILL_CURVES, RATE_CURVES, THEMES
from bloomviz.gui.widgets.whole_lines import WholeLinesLabel
from bloomviz.measure.series import columns_at
from bloomviz.theory.units import count_text, rate_text


class HoverWatcher(QtCore.QObject):
    """Tells the plot widget when the mouse leaves the graphics view (the scene reports no such event), and
    when the view's viewport changes size.

    The size comes from the viewport's own resize, not the view's: a filter sees the view's Resize before
    QAbstractScrollArea gives the viewport its new size, so the legend was placed for the old size (800 x 300
    at 100 %: placed under the plots for a 259 px view, then the view shrank to 245 px when the readout took a
    second line and the placement, keyed on the stale 259, was never redone; the legend covered the data)."""

    def __init__(self, view, on_leave, on_resize):
        super().__init__(view)
        self._viewport = view.viewport()
        self._on_leave = on_leave
        self._on_resize = on_resize
        view.installEventFilter(self)
        self._viewport.installEventFilter(self)

    def eventFilter(self, obj, event):
        kind = event.type()
        if kind == QtCore.QEvent.Type.Leave:
            self._on_leave()
        elif obj is self._viewport and kind in (QtCore.QEvent.Type.Resize, QtCore.QEvent.Type.Show):
            # A hidden plot (another tab in front, its dock closed) is not laid out for every size the window
            # passes through: placing the legend measured its entries ~20 times before the first paint. It is
            # placed when shown, for the size it has then.
            if self._viewport.isVisible():
                self._on_resize()
        return False


def fmt_value(value: float) -> str:
    """A rate, a fill or an item count, by the one policy (core.units)."""
    if value is None or not np.isfinite(value):
        return "∞" if value is not None and value > 0 else "—"
    if 0 <= value <= 1:
        return rate_text(value)
    return count_text(value) if abs(value) >= 10 else f"{value:.4g}"



def values_at(series, n: float | None) -> dict[str, float] | None:
    """The series row nearest to ``n`` as {column: value} (plus ``n_true`` and ``row``), or None without data;
    n = None gives the latest row (after a counting filter's removals n is no longer increasing: the latest
    row is not the first one with the latest n)."""
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
    row = {key: float(value[0]) for key, value in columns_at(series, [i], keys, points=True).items()}
    row["n_true"] = row["n"]
    row["row"] = i
    return row


def theory_words(row: dict, formula_break: tuple[int, int] | None) -> str:
    """The exact curve's value named for what it is at this row: after a counting filter's forced removal
    the n-insert formula is no longer this filter's rate; the one its counters give is (fill)^k."""
    if formula_break is None or row["row"] < formula_break[0]:
        return tr("exact {rate}").format(rate=marks(fmt_value(row["fp_exact"])))
    return tr("for n inserts, no removals {rate}; its counters give {own}").format(
        rate=marks(fmt_value(row["fp_exact"])), own=marks(fmt_value(row["fill"] ** formula_break[1])))


class PlotReadout:
    """The values of every curve at the n under the mouse (or the latest n), under the plots."""

    def __init__(self, view, crosshairs, visible_plots):
        self._view = view
        self._crosshairs = crosshairs
        self._visible_plots = visible_plots
        self.hover_n: float | None = None
        self.label = WholeLinesLabel()      # its lines whole, the rest scrolled to
        self.label.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.label.setToolTip(tr("Values of every curve at the n under the mouse (or at the latest n)."))
        # at most a third of the plot's height; past that it scrolls (at 250 % text it was five lines)
        self.area = QtWidgets.QScrollArea()
        self.area.setWidget(self.label)
        self.area.setWidgetResizable(True)
        self.area.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.area.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

    def text(self) -> str:
        """The readout as plain text (what the label shows, without colours)."""
        return self.label.text() and QtGui.QTextDocumentFragment.fromHtml(self.label.text()).toPlainText()

    def update(self) -> None:
        view = self._view
        series = view.series
        if series is None or len(series) == 0:
            self.label.setText(tr("No data yet: insert items to see the false-positive rate."))
            # room for the lines the first values will take: the plot then keeps its height when they come
            # (it shrank by a line at the first insert, the plot and its legend laid out again in that turn)
            self.fit(self._html(_SAMPLE_ROW, False))
            return
        hovering = self.hover_n is not None
        row = values_at(series, self.hover_n if hovering else None)
        self.label.setText(self._html(row, hovering))
        self.fit()
        for line in self._crosshairs:
            line.setVisible(hovering)
            if hovering:
                line.setPos(row["n"])

    def _html(self, row: dict, hovering: bool) -> str:
        view = self._view
        pal = THEMES[view.dark]

        def swatch(key: str, text: str) -> str:
            return f'<span style="color:{pal[key]}">■</span>&nbsp;{html.escape(text)}'

        value = lambda key: marks(fmt_value(row[key]))  # noqa: E731  (the language's decimal mark)
        parts = ["<b>" + tr("at n = {n}" if hovering else "latest: n = {n}").format(n=number(row["n"], 0)) + "</b>",
                 swatch("fp_measured", tr("measured {rate} (95%: {low}–{high})").format(
                     rate=value("fp_measured"), low=value("fp_low"), high=value("fp_high"))),
                 swatch("fp_exact", theory_words(row, view.formula_break))]
        # a variant without the standard filter's formulas has them as NaN: say nothing rather than "nan"
        parts += [swatch(key, f"{tr(word)} {value(key)}") for key, word in
                  (("fp_classic", "classic"), ("fp_approx", "approx."), ("fp_bound", "bound"))
                  if np.isfinite(row[key])]
        if view.show_fill:
            parts.append(tr("fill {fill} (expected {expected})").format(fill=value("fill"),
                                                                          expected=value("fill_expected")))
        if view.show_estimate:
            parts.append(tr("estimated n {n}").format(n=value("n_estimated")))
        if view.series is not None and len(view.series) == 1 and row["n"] > 0:
            # one point with items already in: a filter opened without the history of how it filled
            parts.append("<i>" + tr("one point: the filter as it was opened; each insert adds the next") + "</i>")
        return " &nbsp;·&nbsp; ".join(parts)

    def on_mouse_moved(self, pos) -> None:
        for plot in self._visible_plots():
            vb = plot.getViewBox()
            if vb.sceneBoundingRect().contains(pos):
                self.hover_n = vb.mapSceneToView(pos).x()
                self.update()
                return
        self.on_mouse_left()

    def on_mouse_left(self) -> None:
        if self.hover_n is not None:
            self.hover_n = None
            self.update()

    def fit(self, room_for: str | None = None) -> None:
        # A wrapped label in a layout is squeezed below its text's height when space is short (at 150 % text
        # the readout lost its second half): the label claims its text's height inside a scroll area that
        # is as high as the text, up to a third of the plot's height.
        view, readout, area = self._view, self.label, self.area
        if view.layout() is None:
            return
        margins = view.layout().contentsMargins()
        width = view.width() - margins.left() - margins.right()   # its own width may not be laid out yet
        text_width = max(1, width - area.verticalScrollBar().sizeHint().width())
        wanted = readout.heightForWidth(text_width)
        if room_for is not None:        # ``room_for``: a text whose height to keep free as well
            wanted = max(wanted, _height_of(room_for, readout, text_width))
        readout.setMinimumHeight(wanted)
        line = readout.fontMetrics().lineSpacing()
        area.setFixedHeight(max(0, min(wanted, max(2 * line, view.height() // 3))))


# a readout of typical values (every curve, a six-digit n): the height the first values will need
_SAMPLE_ROW = {"row": 0, "n": 888_888, "fp_measured": 0.0123, "fp_low": 0.0101, "fp_high": 0.0148, "fp_exact": 0.0125,
               "fp_classic": 0.0125, "fp_approx": 0.0126, "fp_bound": 0.0131, "fill": 0.512,
               "fill_expected": 0.513, "n_estimated": 888_000}


def _height_of(text: str, like: QtWidgets.QLabel, width: int) -> int:
    probe = QtWidgets.QLabel()
    probe.setFont(like.font())
    probe.setTextFormat(like.textFormat())
    probe.setWordWrap(True)
    probe.setText(text)
    return probe.heightForWidth(width)
