"""One line under the grid that says how to read it: the layout, the cell colours and the marker shapes.

A projected grid is read by people who never hovered it; without this line the stars and squares are a puzzle.
"""

from __future__ import annotations

import html

import numpy as np
from PySide6 import QtCore, QtWidgets

from bloomviz.gui.bit_grid import HIGHLIGHT_STYLE, BitGridWidget

SYMBOL_GLYPHS = {"s": "■", "o": "●", "d": "◆", "t1": "▲", "t": "▼", "star": "★", "+": "+", "x": "✕"}
SHORT = {"new": "newly set", "old": "already 1", "zero": "lookup: 0", "one": "lookup: 1",
         "culprit": "false positive's bits"}


def _hex(rgb) -> str:
    r, g, b = (int(v) for v in rgb)
    return f"#{r:02x}{g:02x}{b:02x}"


class GridLegend(QtWidgets.QLabel):
    def __init__(self, grid: BitGridWidget, parent=None):
        super().__init__(parent)
        self._grid = grid
        self.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.setWordWrap(True)
        self.setContentsMargins(6, 2, 6, 2)
        self.setToolTip("Each cell is one bit (or counter) of the filter, bit 0 at the top left, row by row. "
                        "Zoom with the wheel, drag to pan, hover a cell to see which items set it. When a screen "
                        "pixel covers many bits it is shaded by the fraction of them that are set.")

    def refresh(self) -> None:
        g = self._grid
        if not g.m:
            self.setText("")
            return
        lut = g.lookup_table()
        e = html.escape
        if g.max_value <= 1:
            # a 0 cell is the background's near-twin: draw it as an outline so it shows on either theme
            cells = f"□ 0 &nbsp;<span style='color:{_hex(lut[255])}'>■</span> 1"
        else:
            steps = np.linspace(0, 255, 4).astype(int)
            swatches = "".join(f"<span style='color:{_hex(lut[i])}'>■</span>" for i in steps)
            cells = f"counters 0 {swatches} {g.max_value}"
        marks = " &nbsp;".join(
            f"<span style='color:{colour}'>{SYMBOL_GLYPHS.get(symbol, '●')}</span> {e(SHORT[kind])}"
            for kind, (colour, symbol, _desc) in HIGHLIGHT_STYLE.items())
        self.setText(f"{g.m:,} cells as {g.rows:,} × {g.cols:,}, bit 0 top left &nbsp;·&nbsp; {cells} "
                     f"&nbsp;·&nbsp; {marks}")
