"""What is drawn over the cells: highlight markers of fixed screen size and outlined, labelled bands.

``GridMarks`` is a part of ``BitGridWidget`` (``widget.py``), handed the view box it draws in; the widget checks
positions against its cells and tells it the cell layout, the marker size and the theme.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.gui.widgets.grid import layout as gl
from bloomviz.gui.widgets.grid.style import BAND_COLOURS, CULPRIT_HALO, HIGHLIGHT_STYLE
from bloomviz.vocabulary import HIGHLIGHT_KINDS


class GridMarks:
    """Highlights (markers on cells) and bands (outlined index ranges) in one view box."""

    def __init__(self, view_box: pg.ViewBox):
        self._vb = view_box
        self.positions = np.zeros(0, np.int64)
        self.kinds: list[str] = []
        self.bands: list[tuple[int, int, str]] = []
        self._band_items: list[QtWidgets.QGraphicsItem] = []
        self._no_brush = QtGui.QBrush(QtCore.Qt.BrushStyle.NoBrush)
        self.halo = pg.ScatterPlotItem(pxMode=True)
        self.marks = pg.ScatterPlotItem(pxMode=True)
        self.halo.setZValue(6)
        self.marks.setZValue(7)
        view_box.addItem(self.halo)
        view_box.addItem(self.marks)
        self._mark_pens: dict[str, QtGui.QPen] = {}
        self._halo_pens: dict[str, QtGui.QPen] = {}

    def set_theme(self, halo_colour: str) -> None:
        # the halo separates a marker from both cell colours; yellow needs a dark one on either theme
        self._mark_pens = {k: pg.mkPen(style[0], width=3) for k, style in HIGHLIGHT_STYLE.items()}
        self._halo_pens = {k: pg.mkPen(CULPRIT_HALO if k == "culprit" else halo_colour, width=7)
                           for k in HIGHLIGHT_STYLE}

    # ----------------------------------------------------------------- highlights
    def highlight(self, positions: np.ndarray, kinds: str | Sequence[str], cols: int, size: float) -> None:
        """Mark ``positions`` (already checked against the grid) with one kind or one kind each."""
        if isinstance(kinds, str):
            kinds = [kinds] * positions.size
        kinds = list(kinds)
        if len(kinds) != positions.size:
            raise ValueError(f"highlight needs one kind or one per position: {len(kinds)} kinds for "
                             f"{positions.size} positions")
        bad = [k for k in kinds if k not in HIGHLIGHT_STYLE]
        if bad:
            raise ValueError(f"unknown highlight kind {bad[0]!r}; expected one of {', '.join(HIGHLIGHT_KINDS)}")
        self.positions = positions
        self.kinds = kinds
        self.draw(cols, size)

    def clear(self) -> None:
        if not self.positions.size and not self.kinds and not len(self.marks.data) and not len(self.halo.data):
            # already clear: a scatter item's clear() asks its scene for a paint all the same, and every chunk of
            # an auto-play clears the highlight (its record lights none): a grid paint in each chunk's turn
            return
        self.positions = np.zeros(0, np.int64)
        self.kinds = []
        self.halo.clear()
        self.marks.clear()

    def points(self) -> tuple[np.ndarray, np.ndarray, list[str]]:
        x, y = self.marks.getData()
        return np.asarray(x, float), np.asarray(y, float), list(self.kinds)

    def draw(self, cols: int, size: float) -> None:
        if self.positions.size == 0:
            self.halo.clear()
            self.marks.clear()
            return
        x, y = gl.cell_centres(self.positions, cols)
        symbols = [HIGHLIGHT_STYLE[k][1] for k in self.kinds]
        # the same QPen/QBrush objects every time: pyqtgraph's symbol atlas caches rendered symbols by
        # object identity, so fresh pens would re-render (and accumulate) symbols on every highlight
        pens = [self._mark_pens[k] for k in self.kinds]
        halo_pens = [self._halo_pens[k] for k in self.kinds]
        self.halo.setData(x=x, y=y, symbol=symbols, size=size, pen=halo_pens, brush=self._no_brush)
        self.marks.setData(x=x, y=y, symbol=symbols, size=size, pen=pens, brush=self._no_brush)

    def resize(self, size: float) -> None:
        if self.positions.size:
            self.halo.setSize(size)
            self.marks.setSize(size)

    # ----------------------------------------------------------------- bands
    def set_bands(self, bands: list[tuple[int, int, str]], m: int, cols: int, label_fill) -> None:
        checked = []
        for band in bands:
            try:
                start, end, label = band
            except (TypeError, ValueError):
                raise ValueError(f"a band is (start, end, label), got {band!r}") from None
            if isinstance(start, bool) or isinstance(end, bool) or not isinstance(start, (int, np.integer)) \
                    or not isinstance(end, (int, np.integer)) or not 0 <= start < end <= m:
                raise ValueError(f"band {band!r} must satisfy 0 <= start < end <= m = {m}")
            checked.append((int(start), int(end), str(label)))
        self.clear_bands()
        self.bands = checked
        for i, (start, end, label) in enumerate(checked):
            colour = QtGui.QColor(BAND_COLOURS[i % len(BAND_COLOURS)])
            path = QtGui.QPainterPath()
            for x, y, w, h in gl.range_rects(start, end, cols):
                path.addRect(QtCore.QRectF(x, y, w, h))
            outline = QtWidgets.QGraphicsPathItem(path.simplified())
            pen = QtGui.QPen(colour)
            pen.setCosmetic(True)
            pen.setWidthF(3.0)
            outline.setPen(pen)
            outline.setBrush(QtGui.QBrush(QtCore.Qt.BrushStyle.NoBrush))
            outline.setZValue(4)
            outline.setToolTip(label)
            text = pg.TextItem(label, color=colour, fill=pg.mkBrush(*label_fill), border=pg.mkPen(colour),
                               anchor=(0, 0))
            r0, c0 = divmod(start, cols)
            if c0 > cols // 2 and end - start > cols - c0:
                # the band starts late in a row: put its label at the start of its first full row, where it
                # has room, instead of running off the grid's right edge
                r0, c0 = r0 + 1, 0
            text.setPos(c0, r0)
            text.setZValue(5)
            for item in (outline, text):
                self._vb.addItem(item)
                self._band_items.append(item)

    def band_paths(self) -> list[QtGui.QPainterPath]:
        return [it.path() for it in self._band_items if isinstance(it, QtWidgets.QGraphicsPathItem)]

    def clear_bands(self) -> None:
        for item in self._band_items:
            self._vb.removeItem(item)
        self._band_items = []
        self.bands = []
