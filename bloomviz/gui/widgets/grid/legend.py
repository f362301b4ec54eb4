"""One line under the grid that says how to read it: the layout, the cell colours and the marker shapes.

A projected grid is read by people who never hovered it; without this line the stars and squares are a puzzle.
For a counting filter the line is the heat map's key (a swatch per counter value, the top one saturated); for
a filter drawn in bands (a scalable filter's stages, a partitioned filter's slices, a blocked filter's blocks)
it says what the outlined bands are.
"""

from __future__ import annotations

import html

import numpy as np
from PySide6 import QtCore, QtWidgets

from bloomviz.gui.widgets.grid.style import HIGHLIGHT_STYLE
from bloomviz.vocabulary import REMOVAL_KINDS
from bloomviz.gui.widgets.grid.widget import BitGridWidget
from bloomviz.gui.widgets.whole_lines import WholeLinesLabel
from bloomviz.i18n import number, tr

SYMBOL_GLYPHS = {"s": "■", "o": "●", "d": "◆", "t1": "▲", "t": "▼", "star": "★", "+": "+", "x": "✕"}
SHORT = {"new": "newly set", "old": "already 1", "zero": "lookup: 0", "one": "lookup: 1",
         "culprit": "false positive's bits", "removed": "decremented", "cleared": "fell to 0",
         "stuck": "saturated, kept", "lost": "false negative's bit"}
MAX_SWATCHES = 16


def _hex(rgb) -> str:
    r, g, b = (int(v) for v in rgb)
    return f"#{r:02x}{g:02x}{b:02x}"


def heat_values(max_value: int) -> list[int]:
    """The counter values the key shows: all of them up to 16, else 0, 1 and a few steps to the top."""
    if max_value + 1 <= MAX_SWATCHES:
        return list(range(max_value + 1))
    return sorted({0, 1, *np.linspace(0, max_value, 6).round().astype(int).tolist()})


MAX_LINES = 3   # taller than this the key scrolls: at 250 % text it wrapped to six lines and squeezed the grid


class GridLegend(QtWidgets.QScrollArea):
    """The key under the grid: a word-wrapped line, at most ``MAX_LINES`` high, scrolling past that."""

    def __init__(self, grid: BitGridWidget, parent=None):
        super().__init__(parent)
        self._grid = grid
        self._bands_text = ""
        # its first line at the top and no line shown cut: a key taller than its area (a height fitted at another
        # width) showed a blank line, then half of its second (presenter mode at 150 %)
        self.label = WholeLinesLabel()
        self.label.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.label.setAlignment(QtCore.Qt.AlignmentFlag.AlignTop | QtCore.Qt.AlignmentFlag.AlignLeft)
        self.label.setContentsMargins(6, 2, 6, 2)
        self.setWidget(self.label)
        self.setWidgetResizable(True)
        self.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Preferred, QtWidgets.QSizePolicy.Policy.Fixed)
        self.label.setToolTip(tr("Each cell is one bit (or counter) of the filter, bit 0 at the top left, row by "
                                 "row. Zoom with the wheel, drag to pan, hover a cell to see which items set it. When "
                                 "a screen pixel covers many bits it is shaded by the fraction of them that are set "
                                 "(for counters: by their mean value)."))

    def text(self) -> str:
        return self.label.text()

    def setText(self, text: str) -> None:
        self.label.setText(text)
        self._fit_height()

    def _fit_height(self) -> None:
        # as high as the wrapped text at this width, up to MAX_LINES lines (then the key scrolls). QLabel's
        # heightForWidth never answers less than the label's minimum height, which is set below: that minimum
        # is dropped first, or a height fitted once at a narrow width (the key laid out before its window, 1252
        # px in presenter mode) stays for good, as a blank line under the text and a scroll bar. The width is the
        # area's whole width while the text fits, the scroll bar's width less only when it will scroll.
        self.label.setMinimumHeight(0)
        most = MAX_LINES * self.label.fontMetrics().lineSpacing() + 6
        full = max(1, self.contentsRect().width())
        wanted = self.label.heightForWidth(full) if self.label.text() else 0
        if wanted > most:
            wanted = self.label.heightForWidth(max(1, full - self.verticalScrollBar().sizeHint().width()))
        self.label.setMinimumHeight(wanted)   # the scroll area would squeeze it to its own height otherwise
        self.setFixedHeight(max(0, min(wanted, most)))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_height()

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QtCore.QEvent.Type.FontChange:
            self._fit_height()

    def set_bands_text(self, text: str) -> None:
        """What the outlined bands are (e.g. "outlined: the stages, newest last"); empty when there are none."""
        self._bands_text = str(text)
        self.refresh()

    def refresh(self) -> None:
        g = self._grid
        if not g.m:
            self.setText("")
            return
        lut = g.lookup_table()
        e = html.escape
        kinds = [k for k in HIGHLIGHT_STYLE if k not in REMOVAL_KINDS]
        if g.max_value <= 1:
            # a 0 cell is the background's near-twin: draw it as an outline so it shows on either theme
            cells = f"□ 0 &nbsp;<span style='color:{_hex(lut[255])}'>■</span> 1"
        else:
            top = g.max_value
            swatches = " ".join(
                ("□" if v == 0 else f"<span style='color:{_hex(lut[int(round(v * 255 / top))])}'>■</span>")
                + f"{v}" for v in heat_values(top))
            cells = tr("counters (darker = higher): {swatches} — {top} = 2^c − 1 is saturated: never counted "
                       "further, never decremented").format(swatches=swatches, top=top)
            kinds += list(REMOVAL_KINDS)
        marks = " &nbsp;".join(
            f"<span style='color:{HIGHLIGHT_STYLE[kind][0]}'>{SYMBOL_GLYPHS.get(HIGHLIGHT_STYLE[kind][1], '●')}"
            f"</span> {e(tr(SHORT[kind]))}" for kind in kinds)
        bands = f" &nbsp;·&nbsp; {e(self._bands_text)}" if self._bands_text and g.bands() else ""
        self.setText(tr("{m} cells as {rows} × {cols}, bit 0 top left").format(
            m=number(g.m), rows=number(g.rows), cols=number(g.cols)) + f" &nbsp;·&nbsp; {cells}{bands} &nbsp;·&nbsp; {marks}")
