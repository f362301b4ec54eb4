"""What is drawn over the cells: highlight markers of fixed screen size and outlined, labelled bands.

A mixin of ``BitGridWidget`` (``widget.py``).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.gui.widgets.grid import layout as gl
from bloomviz.gui.widgets.grid.style import BAND_COLOURS, HIGHLIGHT_KINDS, HIGHLIGHT_STYLE, MIN_MARKER_PX


class MarksMixin:
    """Highlights (``highlight``, ``clear_highlight``) and bands (``set_bands``)."""

    def highlight(self, positions, kinds: str | Sequence[str]) -> None:
        self._require_grid()
        positions = self._checked_positions(positions)
        if isinstance(kinds, str):
            kinds = [kinds] * positions.size
        kinds = list(kinds)
        if len(kinds) != positions.size:
            raise ValueError(f"highlight needs one kind or one per position: {len(kinds)} kinds for "
                             f"{positions.size} positions")
        bad = [k for k in kinds if k not in HIGHLIGHT_STYLE]
        if bad:
            raise ValueError(f"unknown highlight kind {bad[0]!r}; expected one of {', '.join(HIGHLIGHT_KINDS)}")
        self._hl_positions = positions
        self._hl_kinds = kinds
        self._draw_highlights()

    def clear_highlight(self) -> None:
        self._hl_positions = np.zeros(0, np.int64)
        self._hl_kinds = []
        self._halo.clear()
        self._marks.clear()

    def highlight_points(self) -> tuple[np.ndarray, np.ndarray, list[str]]:
        """x and y view coordinates of the current highlight markers and their kinds."""
        x, y = self._marks.getData()
        return np.asarray(x, float), np.asarray(y, float), list(self._hl_kinds)

    def marker_size(self) -> float:
        """Screen size in pixels of the highlight markers: a little larger than a cell, never tiny."""
        cell_px = self.cell_pixels()
        # whole pixels: the symbol atlas keeps one rendering per size
        return float(round(np.clip(cell_px + 4.0, MIN_MARKER_PX, 120.0)))

    def _draw_highlights(self) -> None:
        if self._hl_positions.size == 0:
            self._halo.clear()
            self._marks.clear()
            return
        x, y = gl.cell_centres(self._hl_positions, self._cols)
        size = self.marker_size()
        symbols = [HIGHLIGHT_STYLE[k][1] for k in self._hl_kinds]
        # the same QPen/QBrush objects every time: pyqtgraph's symbol atlas caches rendered symbols by
        # object identity, so fresh pens would re-render (and accumulate) symbols on every highlight
        pens = [self._mark_pens[k] for k in self._hl_kinds]
        halo_pens = [self._halo_pens[k] for k in self._hl_kinds]
        self._halo.setData(x=x, y=y, symbol=symbols, size=size, pen=halo_pens, brush=self._no_brush)
        self._marks.setData(x=x, y=y, symbol=symbols, size=size, pen=pens, brush=self._no_brush)

    # ----------------------------------------------------------------- bands
    def set_bands(self, bands: list[tuple[int, int, str]]) -> None:
        checked = []
        for band in bands:
            try:
                start, end, label = band
            except (TypeError, ValueError):
                raise ValueError(f"a band is (start, end, label), got {band!r}") from None
            if isinstance(start, bool) or isinstance(end, bool) or not isinstance(start, (int, np.integer)) \
                    or not isinstance(end, (int, np.integer)) or not 0 <= start < end <= self._m:
                raise ValueError(f"band {band!r} must satisfy 0 <= start < end <= m = {self._m}")
            checked.append((int(start), int(end), str(label)))
        self._clear_band_items()
        self._bands = checked
        for i, (start, end, label) in enumerate(checked):
            colour = QtGui.QColor(BAND_COLOURS[i % len(BAND_COLOURS)])
            path = QtGui.QPainterPath()
            for x, y, w, h in gl.range_rects(start, end, self._cols):
                path.addRect(QtCore.QRectF(x, y, w, h))
            outline = QtWidgets.QGraphicsPathItem(path.simplified())
            pen = QtGui.QPen(colour)
            pen.setCosmetic(True)
            pen.setWidthF(3.0)
            outline.setPen(pen)
            outline.setBrush(QtGui.QBrush(QtCore.Qt.BrushStyle.NoBrush))
            outline.setZValue(4)
            outline.setToolTip(label)
            text = pg.TextItem(label, color=colour, fill=pg.mkBrush(*self._theme.label_fill),
                               border=pg.mkPen(colour), anchor=(0, 0))
            r0, c0 = divmod(start, self._cols)
            if c0 > self._cols // 2 and end - start > self._cols - c0:
                # the band starts late in a row: put its label at the start of its first full row, where it
                # has room, instead of running off the grid's right edge
                r0, c0 = r0 + 1, 0
            text.setPos(c0, r0)
            text.setZValue(5)
            for item in (outline, text):
                self._vb.addItem(item)
                self._band_items.append(item)

    def bands(self) -> list[tuple[int, int, str]]:
        return list(self._bands)

    def band_paths(self) -> list[QtGui.QPainterPath]:
        return [it.path() for it in self._band_items if isinstance(it, QtWidgets.QGraphicsPathItem)]

    def _clear_band_items(self) -> None:
        for item in self._band_items:
            self._vb.removeItem(item)
        self._band_items = []

