"""The live plot's looks: light or dark colours, and text sizes scaled for a projector.

``PlotLooks`` is handed the plot's items (``items.py``), its legend (``legend.py``) and a function giving
the plots shown; it holds the theme and the text scale.
"""

from __future__ import annotations

import html

import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.i18n import tr
from bloomviz.gui.filter_tab.plot.style import (BASE_LABEL_PT, BASE_LEGEND_PT, BASE_TICK_PT, BASE_TITLE_PT, LABELS,
                                                STYLES, THEMES, checked_font_scale)


def _rerender_legend(legend: pg.LegendItem) -> None:
    # LegendItem's setters store the new colour/size but leave the already-rendered labels as they were.
    for _, label in legend.items:
        label.setText(label.text)


#: What a y axis says when its full name is longer than the room beside the plot.
SHORT_Y_LABELS = {"false-positive rate": "FP rate", "fill X/m": "X/m"}


def _label_length(axis: pg.AxisItem, text: str) -> float:
    """The length along the axis of its label reading ``text``, in the label's own font and style."""
    probe = QtWidgets.QGraphicsTextItem()
    probe.setFont(axis.label.font())
    style = ";".join(f"{k}: {v}" for k, v in axis.labelStyle.items())
    probe.setHtml(f"<span style='{style}'>{html.escape(text)} </span>")   # as AxisItem.labelString writes it
    return probe.boundingRect().width()


class PlotLooks:
    """Colours and text sizes of the plot's items; ``title`` and ``x_label`` are the rate plot's words."""

    def __init__(self, items, legend, visible_plots, *, title: str, x_label: str):
        self._items = items
        self._legend = legend
        self._visible_plots = visible_plots
        self._title, self._x_label = title, x_label
        self.dark = False
        self.font_scale = 1.0

    def set_theme(self, dark: bool) -> None:
        """Light (``False``) or dark (``True``) colours for the plots."""
        self.dark = bool(dark)
        items = self._items
        pal = THEMES[self.dark]
        items.graphics.setBackground(pal["background"])
        for plot in items.plots:
            for side in ("left", "bottom"):
                plot.getAxis(side).set_background(pal["background"])   # the grid lines' opaque colour
        for key, (width, dash) in STYLES.items():
            items.curves[key].setPen(pg.mkPen(pal[key], width=width, style=dash))
        edge = pg.mkPen(pal["band_edge"], width=1)
        items.curves["fp_low"].setPen(edge)
        items.curves["fp_high"].setPen(edge)
        items.band.setBrush(pg.mkBrush(pal["band"]))
        items.limit_curve.setPen(pg.mkPen(pal["fp_measured"], width=2, style=QtCore.Qt.PenStyle.DotLine))
        items.reference_curve.setPen(pg.mkPen(pal["reference"], width=2.5,
                                              style=QtCore.Qt.PenStyle.DashDotDotLine))
        cap_pen = pg.mkPen(pal["capacity"], width=1.5, style=QtCore.Qt.PenStyle.DashLine)
        for line in items.capacity_lines:
            line.setPen(cap_pen)
            if getattr(line, "label", None) is not None:
                line.label.setColor(pal["foreground"])
                line.label.fill = pg.mkBrush(pal["legend_bg"])
        for line in items.crosshairs:
            line.setPen(pg.mkPen(pal["crosshair"], width=1, style=QtCore.Qt.PenStyle.DotLine))
        legend = items.legend
        legend.setBrush(pg.mkBrush(pal["legend_bg"]))
        legend.setPen(pg.mkPen(pal["foreground"], width=0.5))
        legend.setLabelTextColor(pal["foreground"])
        _rerender_legend(legend)
        self.apply_text()

    def set_font_scale(self, factor) -> None:
        """Scale the text inside the plots (1.0 = normal; 1.5–2 for a projector)."""
        self.font_scale = checked_font_scale(factor)
        self.apply_text()

    def apply_text(self) -> None:
        items = self._items
        pal = THEMES[self.dark]
        fg = pal["foreground"]
        s = self.font_scale
        tick_font = QtGui.QFont()
        tick_font.setPointSizeF(BASE_TICK_PT * s)
        label_style = {"color": fg, "font-size": f"{BASE_LABEL_PT * s:.1f}pt"}
        # One fixed width for every left axis keeps the stacked plots' x axes aligned.
        metrics = QtGui.QFontMetricsF(tick_font)
        left_width = int(metrics.horizontalAdvance("0.0001") + 2.2 * BASE_LABEL_PT * s + 14)
        visible = self._visible_plots()
        for plot in items.plots:
            for side in ("left", "bottom"):
                axis = plot.getAxis(side)
                axis.setPen(pg.mkPen(fg, width=1))
                axis.setTextPen(pg.mkPen(fg))
                axis.setTickFont(tick_font)
                axis.setStyle(tickTextOffset=int(4 * s))
            plot.getAxis("left").setWidth(left_width)
            bottom = plot.getAxis("bottom")
            if plot is visible[-1]:
                bottom.setLabel(tr(self._x_label), **label_style)
                bottom.showLabel(True)
            else:
                bottom.showLabel(False)
            bottom.setHeight(None)
            plot.getAxis("left").setLabel(tr(items.y_label(plot)), **label_style)
        items.rate_plot.setTitle(tr(self._title), color=fg, size=f"{BASE_TITLE_PT * s:.1f}pt")
        for plot in (items.fill_plot, items.estimate_plot):
            plot.setTitle(self._key_html(items.sub_keys[id(plot)]), color=fg,
                          size=f"{BASE_LEGEND_PT * s:.1f}pt")
        for plot in items.plots:
            height = int((2.6 if plot is items.rate_plot else 2.2) * BASE_TITLE_PT * s)
            plot.titleLabel.setMaximumHeight(height)
            if plot is items.rate_plot:
                self._legend.title_height = height
            plot.layout.setRowFixedHeight(0, height)
        items.legend.setLabelTextSize(f"{BASE_LEGEND_PT * s:.1f}pt")
        _rerender_legend(items.legend)
        if self._legend.placed:
            self._legend.invalidate()   # the entries changed size: beside or under the plots again
        label_font = QtGui.QFont()
        label_font.setPointSizeF(BASE_LEGEND_PT * s)
        for line in items.capacity_lines:
            if getattr(line, "label", None) is not None:
                line.label.setFont(label_font)

    def fit_axis_labels(self) -> None:
        # A rotated axis label is centred on its axis and cut where it runs out of the view. At 150 % in
        # the window's plot dock the rate axis read "false-positive ra". When the full name does not fit,
        # the axis shows the short name (the readout and the title name the rate in full).
        view_h = self._items.graphics.viewport().height()
        for plot in self._visible_plots():
            axis = plot.getAxis("left")
            full = self._items.y_label(plot)
            centre = axis.sceneBoundingRect().center().y()
            room = 2 * min(centre, view_h - centre)
            text = tr(full) if _label_length(axis, tr(full)) <= room else tr(SHORT_Y_LABELS.get(full, full))
            if axis.labelText != text:
                axis.setLabel(text)   # the style stays as apply_text set it
                axis.resizeEvent()    # pyqtgraph centres the label only on a resize: for the old text
        # The x axis' title likewise, centred under the plot: at 250 % in a 1280 x 800 window "items inserted n"
        # ran past the plot's right edge. The short name is the symbol the readout and the legend use.
        visible = self._visible_plots()
        if visible:
            axis = visible[-1].getAxis("bottom")
            view_w = self._items.graphics.viewport().width()
            centre = axis.sceneBoundingRect().center().x()
            room = 2 * min(centre, view_w - centre)
            full = tr(self._x_label)
            text = full if _label_length(axis, full) <= room else "n"
            if axis.labelText != text:
                axis.setLabel(text)
                axis.resizeEvent()

    def _key_html(self, keys) -> str:
        pal = THEMES[self.dark]
        marks = {QtCore.Qt.PenStyle.SolidLine: "━━", QtCore.Qt.PenStyle.DashLine: "╺╸╺╸"}
        return " &nbsp;&nbsp; ".join(
            f'<span style="color:{pal[key]}">{marks[STYLES[key][1]]}</span> {html.escape(tr(LABELS[key]))}'
            for key in keys)
