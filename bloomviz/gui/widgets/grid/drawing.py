"""Painting the cells: the image of block means around the visible range, cell borders and index labels.

A mixin of ``BitGridWidget`` (``widget.py``): it reads the widget's picture (``_cells``) and view box and keeps
the displayed window (``_window``, ``_factor``, ``_levels``) in step with the zoom. How and why the block means
are drawn is in the package's docstring.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from bloomviz.gui.widgets.grid import layout as gl
from bloomviz.gui.widgets.grid.style import BORDER_MIN_PX, MAX_LABELS, build_lut


class GridImage(pg.ImageItem):
    """ImageItem whose rendered picture is converted once to RGB32: Qt paints an indexed image ~4x slower
    on every repaint than RGB32, and the conversion of a screen-sized image costs well under a millisecond."""

    def render(self):
        super().render()
        q = self.qimage
        if q is not None and q.format() == QtGui.QImage.Format.Format_Indexed8:
            self.qimage = q.convertToFormat(QtGui.QImage.Format.Format_RGB32)


class CellDecor(pg.GraphicsObject):
    """Cell borders and index labels, painted only for the visible cells when cells are large on screen."""

    def __init__(self, grid):   # the BitGridWidget it decorates
        super().__init__()
        self._grid = grid
        self._bounds = QtCore.QRectF()

    def set_bounds(self, rect: QtCore.QRectF) -> None:
        self.prepareGeometryChange()
        self._bounds = QtCore.QRectF(rect)
        self.update()

    def boundingRect(self) -> QtCore.QRectF:
        return self._bounds

    def paint(self, painter, *args):
        plan = self._grid.decor_plan()
        if plan is None:
            return
        r0, r1, c0, c1, with_labels, font_px = plan
        theme = self._grid._theme
        pen = QtGui.QPen(QtGui.QColor(theme.border))
        pen.setCosmetic(True)
        pen.setWidthF(1.0)
        painter.setPen(pen)
        lines = [QtCore.QLineF(c, r0, c, r1) for c in range(c0, c1 + 1)]
        lines += [QtCore.QLineF(c0, r, c1, r) for r in range(r0, r1 + 1)]
        painter.drawLines(lines)
        if not with_labels:
            return
        grid = self._grid
        transform = painter.transform()
        font = QtGui.QFont(painter.font())
        font.setPixelSize(font_px)
        block = grid._cells[r0:r1, c0:c1]
        values = grid.labels_show_values()
        light_text = grid._dark_cell_levels()[grid._shade[block]]
        painter.save()
        painter.resetTransform()
        painter.setFont(font)
        dark_pen, light_pen = QtGui.QColor(theme.text_dark), QtGui.QColor(theme.text_light)
        cols, m = grid.cols, grid.m
        for r in range(r0, r1):
            for c in range(c0, c1):
                index = r * cols + c
                if index >= m:
                    break
                painter.setPen(light_pen if light_text[r - r0, c - c0] else dark_pen)
                text = f"{index}\n= {int(block[r - r0, c - c0])}" if values else str(index)
                painter.drawText(transform.mapRect(QtCore.QRectF(c, r, 1, 1)),
                                 QtCore.Qt.AlignmentFlag.AlignCenter, text)
        painter.restore()


# Grids of at least this many cells also keep the sums of their 4 x 4 blocks (the base), so that a zoomed-out
# view sums 16x fewer numbers: at 10^8 cells one whole-grid summation from the cells cost 70-130 ms here, a
# stall at every wheel step. Such a view's blocks are then a multiple of 4 cells on a side (a block may cover a
# little more than one screen pixel). Smaller grids are summed from the cells, their blocks exactly one pixel.
BASE_MIN_CELLS = 1 << 24
BASE = 4
# Cells unpacked from packed bits a band of rows at a time (``_load_packed``): ~2 MiB, within the caches
# (at load 4: 83 ms a whole redraw of 10^8 cells, 96 ms with bands of 512 KiB, 112 ms unbanded).
PACKED_BAND_BITS = 1 << 21


class DrawingMixin:
    """The widget's view of its cells: fitting, the displayed window, borders and padding."""

    # index labels: at most this many px (a desk's screen needs no more), this share of a cell's height, and
    # none smaller than label_px_min; presenter mode asks for labels a hall can read or none
    label_px_cap, label_fraction, label_px_min = 15.0, 0.42, 7
    # a counter's value under its index (a lesson: counters as numbers, not only as shades)
    label_values = False

    def labels_show_values(self) -> bool:
        return self.label_values and self._max_value > 1

    def set_label_size(self, cap: float, fraction: float = 0.42, minimum: int = 7) -> None:
        """Index labels up to ``cap`` px high and ``fraction`` of a cell, none below ``minimum`` px; repainted."""
        self.label_px_cap, self.label_fraction, self.label_px_min = float(cap), float(fraction), int(minimum)
        self._decor.update()

    def _rebuild_base(self, empty: bool = False) -> None:
        """The 4 x 4 block sums of the whole picture (or None for a small grid), after it changed wholesale."""
        self._base_stale = False
        if self._rows * self._cols < BASE_MIN_CELLS:
            self._base = None
            return
        if empty:
            self._base = np.zeros((-(-self._rows // BASE), -(-self._cols // BASE)), np.uint16)
            return
        sums = gl.block_sums(self._cells, 0, self._rows, 0, self._cols, BASE, self._max_value)
        self._base = sums.astype(np.uint16, copy=False)     # at most 16 x 255

    def _update_base(self, rows: np.ndarray, cols: np.ndarray, old: np.ndarray, new: np.ndarray) -> None:
        base = self._base.reshape(-1)
        blocks = (rows // BASE) * self._base.shape[1] + cols // BASE
        up = new > old
        if up.any():
            np.add.at(base, blocks[up], (new[up] - old[up]).astype(np.uint16))
        down = new < old
        if down.any():
            np.subtract.at(base, blocks[down], (old[down] - new[down]).astype(np.uint16))

    def _window_sums(self, window, f: int) -> np.ndarray:
        r0, r1, c0, c1 = window
        if self._base is not None and f % BASE == 0:
            if self._base_stale:
                self._rebuild_base()
            b = BASE
            return gl.block_sums(self._base, r0 // b, -(-r1 // b), c0 // b, -(-c1 // b), f // b,
                                 b * b * self._max_value)
        return gl.block_sums(self._cells, *window, f, self._max_value)

    def fit(self) -> None:
        if self._m:
            self._vb.setRange(QtCore.QRectF(0, 0, self._cols, self._rows), padding=0.02)

    def cell_pixels(self) -> float:
        """Size of one cell on screen in pixels (0 when the view has no size yet)."""
        try:
            px = self._vb.viewPixelSize()[0]
        except Exception:  # no view or zero geometry yet: pyqtgraph raises from its matrix inversion
            return 0.0
        if not np.isfinite(px) or px <= 0:
            return 0.0
        return 1.0 / px

    def decor_plan(self):
        """(r0, r1, c0, c1, with_labels, font_px) of the visible cells to outline, or None when cells are
        smaller than ``BORDER_MIN_PX`` on screen."""
        if not self._m:
            return None
        cell_px = self.cell_pixels()
        if cell_px < BORDER_MIN_PX:
            return None
        rect = self._vb.viewRect()
        r0, r1, c0, c1 = gl.visible_range(rect.left(), rect.top(), rect.right(), rect.bottom(),
                                          self._rows, self._cols)
        if r1 <= r0 or c1 <= c0:
            return None
        digits = len(str(min(self._m - 1, r1 * self._cols)))
        lines = 2 if self.labels_show_values() else 1
        font_px = int(min(self.label_px_cap, cell_px * self.label_fraction / lines,
                          cell_px * 0.85 / (0.62 * (digits + 1 if lines > 1 else digits))))
        with_labels = (r1 - r0) * (c1 - c0) <= MAX_LABELS and font_px >= self.label_px_min
        return r0, r1, c0, c1, with_labels, font_px

    def _on_view_changed(self, *args) -> None:
        if not self._m:
            return
        self._refresh_display(force=False)
        self._marks.resize(self.marker_size())
        self._decor.update()

    def _wanted_window(self, f: int):
        rect = self._vb.viewRect()
        x0, y0, x1, y1 = rect.left(), rect.top(), rect.right(), rect.bottom()
        visible = gl.block_window(x0, y0, x1, y1, self._rows, self._cols, f, margin=0.0)
        window = gl.block_window(x0, y0, x1, y1, self._rows, self._cols, f, margin=0.25)
        return visible, window

    def _refresh_display(self, force: bool) -> None:
        cell_px = self.cell_pixels()
        if cell_px > 0:
            f = gl.block_factor(1.0 / cell_px)
            visible, window = self._wanted_window(f)
        else:  # not laid out yet: assume a ~800 px view of the whole grid
            f = gl.block_factor(max(self._rows, self._cols) / 800.0)
            window = visible = (0, self._rows, 0, self._cols)
        if self._base is not None and f > BASE and f % BASE:
            f = -(-f // BASE) * BASE
            if cell_px > 0:
                visible, window = self._wanted_window(f)
        if not force and f == self._factor and self._window is not None \
                and gl.window_contains(self._window, visible):
            return
        self._factor = f
        self._window = window
        if f == 1:
            self._levels = gl.window_levels(self._cells, window, f, self._max_value, self._cols, self._m)
            self._sums = self._counts = None
        else:
            # the block sums are kept so that a change of many cells adds its differences to them
            # (_update_levels_at) instead of summing the whole window again
            self._sums = self._window_sums(window, f).astype(np.int32)
            self._counts = gl.block_counts(*window, f, self._cols, self._m)
            self._levels = gl.shade_blocks(self._sums, self._counts, self._max_value)
        r0, _, c0, _ = window
        h, w = self._levels.shape
        self._image.setImage(self._levels, levels=(0, 255), autoDownsample=False)
        self._image.setRect(QtCore.QRectF(c0, r0, w * f, h * f))

    def _update_levels_at(self, positions: np.ndarray, old: np.ndarray, new: np.ndarray) -> None:
        """Redraw the blocks holding ``positions`` (unique), whose cells went from ``old`` to ``new``."""
        if self._window is None:
            return
        r0, r1, c0, c1 = self._window
        f = self._factor
        rows, cols = gl.index_to_cell(positions, self._cols)
        if self._base is not None:
            if positions.size <= 4096:
                self._update_base(rows, cols, old, new)
            else:   # a scattered add of this many costs more than summing the base again when next needed
                self._base_stale = True
        inside = (rows >= r0) & (rows < r1) & (cols >= c0) & (cols < c1)
        if not inside.all():
            if not inside.any():
                return
            rows, cols, old, new = rows[inside], cols[inside], old[inside], new[inside]
        br = (rows - r0) // f
        bc = (cols - c0) // f
        if f == 1:
            self._levels[br, bc] = self._shade[new]
        else:
            width = self._levels.shape[1]
            blocks = br * width + bc
            delta = new.astype(np.int32) - old.astype(np.int32)
            sums = self._sums.reshape(-1)
            if blocks.size <= 4096:
                np.add.at(sums, blocks, delta)
                touched = np.unique(blocks)
            else:   # one pass over the blocks beats a scattered add of this many
                added = np.bincount(blocks, weights=delta, minlength=sums.size).astype(np.int32)
                sums += added
                touched = np.flatnonzero(added)
            self._levels.reshape(-1)[touched] = gl.shade_blocks(sums[touched], self._counts.reshape(-1)[touched],
                                                                self._max_value)
        self._image.updateImage()

    def _load_packed(self, packed: np.ndarray, lo: int, hi: int) -> None:
        """Cells [lo, hi) from the little-endian packed bits ``packed``, then the blocks of their rows summed
        again. A band of rows at a time, its 4 x 4 sums taken while its cells are still in cache (summing the
        whole picture after it was written read it back from memory: 70 of 110 ms at 10^8 cells, loaded)."""
        flat = self._cells.reshape(-1)
        cols, b = self._cols, BASE
        ra, rb = lo // cols, (hi - 1) // cols + 1
        with_base = self._base is not None and not self._base_stale
        band = max(b, PACKED_BAND_BITS // cols // b * b)
        for r in range(ra // b * b, rb, band):
            r_end = min(rb, r + band)
            pos, end = max(lo, r * cols), min(hi, r_end * cols)
            b0 = pos >> 3
            bits = np.unpackbits(packed[b0:(end + 7) >> 3], bitorder="little")
            flat[pos:end] = bits[pos - 8 * b0:end - 8 * b0]
            if with_base:
                br0, br1 = r // b, -(-r_end // b)
                self._base[br0:br1] = gl.block_sums(self._cells, br0 * b, min(self._rows, br1 * b), 0, cols, b,
                                                    self._max_value)
        self._redraw_rows(ra, rb, base=not with_base)

    def _redraw_rows(self, ra: int, rb: int, base: bool = True) -> None:
        """The block sums and shades of rows [ra, rb) taken again from the cells (after they changed
        wholesale; ``base``: the kept 4 x 4 sums too): the cost is in proportion to the rows, not to the cells
        that changed."""
        b = BASE
        if base and self._base is not None and not self._base_stale:
            br0, br1 = ra // b, -(-rb // b)
            self._base[br0:br1] = gl.block_sums(self._cells, br0 * b, min(self._rows, br1 * b), 0, self._cols,
                                                b, self._max_value)
        if self._window is None:
            return
        r0, r1, c0, c1 = self._window
        f = self._factor
        lo, hi = max(ra, r0), min(rb, r1)
        if hi <= lo:
            return
        k0, k1 = (lo - r0) // f, -(-(hi - r0) // f)
        wr0, wr1 = r0 + k0 * f, min(r1, r0 + k1 * f)
        if f == 1:
            self._levels[k0:k1] = self._shade[self._cells[wr0:wr1, c0:c1]]
        else:
            if self._base is not None and not self._base_stale and f % b == 0:
                sums = self._window_sums((wr0, wr1, c0, c1), f)
            else:
                sums = gl.block_sums(self._cells, wr0, wr1, c0, c1, f, self._max_value)
            self._sums[k0:k1] = sums
            self._levels[k0:k1] = gl.shade_blocks(self._sums[k0:k1], self._counts[k0:k1], self._max_value)
        self._image.updateImage()

    def padding_rect(self) -> QtCore.QRectF | None:
        """The padding cells' rectangle in view coordinates, or None when m fills the grid exactly."""
        return QtCore.QRectF(self._pad_fill.rect()) if self._pad_fill.isVisible() else None

    def _place_padding(self) -> None:
        pad = self._rows * self._cols - self._m
        visible = pad > 0
        for item in (self._pad_fill, self._pad_hatch):
            item.setVisible(visible)
            if visible:
                item.setRect(QtCore.QRectF(self._cols - pad, self._rows - 1, pad, 1))

    def lookup_table(self) -> np.ndarray:
        return build_lut(self._theme, self._max_value)

    def _dark_cell_levels(self) -> np.ndarray:
        """bool per display level: whether its colour is dark (labels on it are drawn light)."""
        if self._dark_levels_cache is None:
            lut = self.lookup_table().astype(np.float64)
            luminance = 0.2126 * lut[:, 0] + 0.7152 * lut[:, 1] + 0.0722 * lut[:, 2]
            self._dark_levels_cache = luminance < 140
        return self._dark_levels_cache
