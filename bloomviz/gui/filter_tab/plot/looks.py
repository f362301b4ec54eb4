"""The live plot's looks: light or dark colours, and text sizes scaled for a projector.

A mixin of ``FpPlotWidget`` (``widget.py``).
"""

from __future__ import annotations

import html

import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.i18n import tr
from bloomviz.gui.filter_tab.plot.style import (BASE_LABEL_PT, BASE_LEGEND_PT, BASE_TICK_PT, BASE_TITLE_PT, LABELS,
                                                STYLES, THEMES, positive_number)


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


class LooksMixin:
    # --- looks ----------------------------------------------------------------------------------------------
    @property
    def dark(self) -> bool:
        return self._dark

    def set_theme(self, dark: bool) -> None:
        """Light (``False``) or dark (``True``) colours for the plots."""
        self._dark = bool(dark)
        pal = THEMES[self._dark]
        self._graphics.setBackground(pal["background"])
        for key, (width, dash) in STYLES.items():
            pen = pg.mkPen(pal[key], width=width, style=dash)
            self._curves[key].setPen(pen)
        edge = pg.mkPen(pal["band_edge"], width=1)
        self._curves["fp_low"].setPen(edge)
        self._curves["fp_high"].setPen(edge)
        self._band.setBrush(pg.mkBrush(pal["band"]))
        self._limit_curve.setPen(pg.mkPen(pal["fp_measured"], width=2, style=QtCore.Qt.PenStyle.DotLine))
        self._reference_curve.setPen(pg.mkPen(pal["reference"], width=2.5, style=QtCore.Qt.PenStyle.DashDotDotLine))
        cap_pen = pg.mkPen(pal["capacity"], width=1.5, style=QtCore.Qt.PenStyle.DashLine)
        for line in self._capacity_lines:
            line.setPen(cap_pen)
            if getattr(line, "label", None) is not None:
                line.label.setColor(pal["foreground"])
                line.label.fill = pg.mkBrush(pal["legend_bg"])
        for line in self._crosshairs:
            line.setPen(pg.mkPen(pal["crosshair"], width=1, style=QtCore.Qt.PenStyle.DotLine))
        for legend in self._legends:
            legend.setBrush(pg.mkBrush(pal["legend_bg"]))
            legend.setPen(pg.mkPen(pal["foreground"], width=0.5))
            legend.setLabelTextColor(pal["foreground"])
            _rerender_legend(legend)
        self._apply_text()
        self._update_readout()

    @property
    def font_scale(self) -> float:
        return self._font_scale

    def set_font_scale(self, factor) -> None:
        """Scale the text inside the plots (1.0 = normal; 1.5–2 for a projector)."""
        factor = positive_number("font scale", factor)
        if not 0.25 <= factor <= 8:
            raise ValueError(f"font scale must be between 0.25 and 8, not {factor!r}")
        self._font_scale = factor
        self._apply_text()

    def _apply_text(self) -> None:
        if not self._curves:
            return
        pal = THEMES[self._dark]
        fg = pal["foreground"]
        s = self._font_scale
        tick_font = QtGui.QFont()
        tick_font.setPointSizeF(BASE_TICK_PT * s)
        label_style = {"color": fg, "font-size": f"{BASE_LABEL_PT * s:.1f}pt"}
        # One fixed width for every left axis keeps the stacked plots' x axes aligned.
        metrics = QtGui.QFontMetricsF(tick_font)
        left_width = int(metrics.horizontalAdvance("0.0001") + 2.2 * BASE_LABEL_PT * s + 14)
        visible = self._visible_plots()
        for plot in (self._rate_plot, self._fill_plot, self._estimate_plot):
            for side in ("left", "bottom"):
                axis = plot.getAxis(side)
                axis.setPen(pg.mkPen(fg, width=1))
                axis.setTextPen(pg.mkPen(fg))
                axis.setTickFont(tick_font)
                axis.setStyle(tickTextOffset=int(4 * s))
            plot.getAxis("left").setWidth(left_width)
            bottom = plot.getAxis("bottom")
            if plot is visible[-1]:
                bottom.setLabel(tr(self.X_LABEL), **label_style)
                bottom.showLabel(True)
            else:
                bottom.showLabel(False)
            bottom.setHeight(None)
            y_label = "false-positive rate" if plot is self._rate_plot else self._y_labels[id(plot)]
            plot.getAxis("left").setLabel(tr(y_label), **label_style)
        self._rate_plot.setTitle(tr(self.TITLE), color=fg, size=f"{BASE_TITLE_PT * s:.1f}pt")
        for plot in (self._fill_plot, self._estimate_plot):
            plot.setTitle(self._key_html(self._sub_keys[id(plot)]), color=fg,
                          size=f"{BASE_LEGEND_PT * s:.1f}pt")
        for plot in (self._rate_plot, self._fill_plot, self._estimate_plot):
            height = int((2.6 if plot is self._rate_plot else 2.2) * BASE_TITLE_PT * s)
            plot.titleLabel.setMaximumHeight(height)
            if plot is self._rate_plot:
                self._title_height = height
            plot.layout.setRowFixedHeight(0, height)
        for legend in self._legends:
            legend.setLabelTextSize(f"{BASE_LEGEND_PT * s:.1f}pt")
            _rerender_legend(legend)
        if getattr(self, "_legend_place", None) is not None:
            self._legend_key = None   # the entries changed size: beside or under the plots again
            self._place_legend()
        label_font = QtGui.QFont()
        label_font.setPointSizeF(BASE_LEGEND_PT * s)
        for line in self._capacity_lines:
            if getattr(line, "label", None) is not None:
                line.label.setFont(label_font)

    def _fit_y_labels(self) -> None:
        # A rotated axis label is centred on its axis and cut where it runs out of the view. At 150 % in
        # the window's plot dock the rate axis read "false-positive ra". When the full name does not fit,
        # the axis shows the short name (the readout and the title name the rate in full).
        view_h = self._graphics.viewport().height()
        for plot in self._visible_plots():
            axis = plot.getAxis("left")
            full = "false-positive rate" if plot is self._rate_plot else self._y_labels[id(plot)]
            centre = axis.sceneBoundingRect().center().y()
            room = 2 * min(centre, view_h - centre)
            text = tr(full) if _label_length(axis, tr(full)) <= room else tr(SHORT_Y_LABELS.get(full, full))
            if axis.labelText != text:
                axis.setLabel(text)   # the style stays as _apply_text set it
                axis.resizeEvent()    # pyqtgraph centres the label only on a resize: for the old text

    def _key_html(self, keys) -> str:
        pal = THEMES[self._dark]
        marks = {QtCore.Qt.PenStyle.SolidLine: "━━", QtCore.Qt.PenStyle.DashLine: "╺╸╺╸"}
        return " &nbsp;&nbsp; ".join(
            f'<span style="color:{pal[key]}">{marks[STYLES[key][1]]}</span> {html.escape(tr(LABELS[key]))}'
            for key in keys)
