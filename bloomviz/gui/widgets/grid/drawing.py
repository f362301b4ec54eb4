"""Painting the cells: the image of block means around the visible range, cell borders and index labels.

``GridPicture`` owns the cells (the padded rows x cols array), the block sums kept for them and the levels the
image shows; it is handed the image item and the view box and keeps the displayed window in step with the
zoom. ``BitGridWidget`` (``widget.py``) checks what it is given and hands it on. ``CellDecor`` paints borders
and index labels from the widget's public queries.

How it draws: One padded ``rows x cols`` uint8 array is the only picture of the cells. A pyqtgraph ``ImageItem``
(``axisOrder='row-major'`` on the item, explicit ``levels=(0, 255)`` and a 256-entry lookup table) shows the
part of it around the visible range: at full resolution when a cell is at least one screen pixel, otherwise as
``f x f`` block means (``layout.window_levels``), so a zoomed-out grid is shaded by the fraction of
bits set. The block sums of the window are kept, so that changed cells only add their differences; a grid of
at least ``BASE_MIN_CELLS`` cells also keeps its 4 x 4 block sums and zooms from those (its blocks are
then a multiple of 4 cells on a side).
pyqtgraph's own ``autoDownsample`` also averages (``functions.downsample`` takes a float64 mean),
but costs ~70 ms per render at 10^7 cells and drops the remainder rows and columns; the block means here cost
~5 ms and keep every cell. An update recomputes only the touched blocks.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from bloomviz.gui.widgets.grid import layout as gl
from bloomviz.unique_ints import sorted_unique


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
        theme = self._grid.style
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
        block = grid.picture[r0:r1, c0:c1]
        values = grid.labels_show_values()
        light_text = grid.dark_cell_levels()[grid.display.shade[block]]
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


class GridPicture:
    """The cells, their kept block sums and the levels shown by ``image`` in ``view_box``."""

    def __init__(self, image: pg.ImageItem, view_box: pg.ViewBox):
        self._image = image
        self._vb = view_box
        self.m = self.rows = self.cols = 0
        self.max_value = 1
        self.cells = np.zeros((1, 1), np.uint8)
        self.shade = gl.shade_table(1)
        self.factor = 1
        self.window: tuple[int, int, int, int] | None = None
        self.counts: np.ndarray | None = None
        self.sums: np.ndarray | None = None
        self.base: np.ndarray | None = None      # 4 x 4 block sums of a large grid
        self._base_stale = False
        self.levels = np.zeros((1, 1), np.uint8)

    def reset(self, m: int, rows: int, cols: int, max_value: int, values: np.ndarray | None) -> None:
        """A new picture of m cells (``values`` checked by the widget, or None for all zero)."""
        # The last picture's memory is reused when the shape is the same: new memory costs a page fault per
        # 4 KiB page at its first write, ~0.4-0.6 s for 10^8 cells here (~1 ms to refill). A new picture is
        # written now rather than left as np.zeros' untouched pages, whose faults would fall on the first
        # redraw during bulk work instead (~0.3 s in one turn of the event loop).
        if self.cells.shape == (rows, cols):
            cells = self.cells
        else:
            self.cells = cells = np.empty(0, np.uint8)   # the old picture freed before the new one is made
            cells = np.empty((rows, cols), np.uint8)
        cells.fill(0)
        if values is not None:
            cells.reshape(-1)[:m] = values
        self.m, self.rows, self.cols, self.max_value = m, rows, cols, max_value
        self.cells = cells
        self.shade = gl.shade_table(max_value)
        self.window = None
        self.rebuild_base(empty=values is None)

    def set_all(self, values: np.ndarray) -> None:
        self.cells.reshape(-1)[: self.m] = values
        self.rebuild_base()
        self.refresh(force=True)

    def update(self, positions: np.ndarray, values: np.ndarray) -> None:
        """Cells ``positions`` (unique) take ``values``; only their blocks are drawn again."""
        flat = self.cells.reshape(-1)
        old = flat[positions]
        flat[positions] = values
        self._update_levels_at(positions, old, values)

    def rebuild_base(self, empty: bool = False) -> None:
        """The 4 x 4 block sums of the whole picture (or None for a small grid), after it changed wholesale."""
        self._base_stale = False
        if self.rows * self.cols < BASE_MIN_CELLS:
            self.base = None
            return
        if empty:
            self.base = np.zeros((-(-self.rows // BASE), -(-self.cols // BASE)), np.uint16)
            return
        sums = gl.block_sums(self.cells, 0, self.rows, 0, self.cols, BASE, self.max_value)
        self.base = sums.astype(np.uint16, copy=False)     # at most 16 x 255

    def _update_base(self, rows: np.ndarray, cols: np.ndarray, old: np.ndarray, new: np.ndarray) -> None:
        base = self.base.reshape(-1)
        blocks = (rows // BASE) * self.base.shape[1] + cols // BASE
        up = new > old
        if up.any():
            np.add.at(base, blocks[up], (new[up] - old[up]).astype(np.uint16))
        down = new < old
        if down.any():
            np.subtract.at(base, blocks[down], (old[down] - new[down]).astype(np.uint16))

    def _window_sums(self, window, f: int) -> np.ndarray:
        r0, r1, c0, c1 = window
        if self.base is not None and f % BASE == 0:
            if self._base_stale:
                self.rebuild_base()
            b = BASE
            return gl.block_sums(self.base, r0 // b, -(-r1 // b), c0 // b, -(-c1 // b), f // b,
                                 b * b * self.max_value)
        return gl.block_sums(self.cells, *window, f, self.max_value)

    def cell_pixels(self) -> float:
        """Size of one cell on screen in pixels (0 when the view has no size yet)."""
        try:
            px = self._vb.viewPixelSize()[0]
        except Exception:  # no view or zero geometry yet: pyqtgraph raises from its matrix inversion
            return 0.0
        if not np.isfinite(px) or px <= 0:
            return 0.0
        return 1.0 / px

    def _wanted_window(self, f: int):
        rect = self._vb.viewRect()
        x0, y0, x1, y1 = rect.left(), rect.top(), rect.right(), rect.bottom()
        visible = gl.block_window(x0, y0, x1, y1, self.rows, self.cols, f, margin=0.0)
        window = gl.block_window(x0, y0, x1, y1, self.rows, self.cols, f, margin=0.25)
        return visible, window

    def refresh(self, force: bool) -> None:
        """The image for the current zoom: a new window of levels when the view left the one held (or
        ``force``)."""
        cell_px = self.cell_pixels()
        if cell_px > 0:
            f = gl.block_factor(1.0 / cell_px)
            visible, window = self._wanted_window(f)
        else:  # not laid out yet: assume a ~800 px view of the whole grid
            f = gl.block_factor(max(self.rows, self.cols) / 800.0)
            window = visible = (0, self.rows, 0, self.cols)
        if self.base is not None and f > BASE and f % BASE:
            f = -(-f // BASE) * BASE
            if cell_px > 0:
                visible, window = self._wanted_window(f)
        if not force and f == self.factor and self.window is not None \
                and gl.window_contains(self.window, visible):
            return
        self.factor = f
        self.window = window
        if f == 1:
            self.levels = gl.window_levels(self.cells, window, f, self.max_value, self.cols, self.m)
            self.sums = self.counts = None
        else:
            # the block sums are kept so that a change of many cells adds its differences to them
            # (_update_levels_at) instead of summing the whole window again
            self.sums = self._window_sums(window, f).astype(np.int32)
            self.counts = gl.block_counts(*window, f, self.cols, self.m)
            self.levels = gl.shade_blocks(self.sums, self.counts, self.max_value)
        r0, _, c0, _ = window
        h, w = self.levels.shape
        self._image.setImage(self.levels, levels=(0, 255), autoDownsample=False)
        self._image.setRect(QtCore.QRectF(c0, r0, w * f, h * f))

    def _update_levels_at(self, positions: np.ndarray, old: np.ndarray, new: np.ndarray) -> None:
        """Redraw the blocks holding ``positions`` (unique), whose cells went from ``old`` to ``new``."""
        if self.window is None:
            return
        r0, r1, c0, c1 = self.window
        f = self.factor
        rows, cols = gl.index_to_cell(positions, self.cols)
        if self.base is not None:
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
            self.levels[br, bc] = self.shade[new]
        else:
            width = self.levels.shape[1]
            blocks = br * width + bc
            delta = new.astype(np.int32) - old.astype(np.int32)
            sums = self.sums.reshape(-1)
            if blocks.size <= 4096:
                np.add.at(sums, blocks, delta)
                touched = sorted_unique(blocks)
            else:   # one pass over the blocks beats a scattered add of this many
                added = np.bincount(blocks, weights=delta, minlength=sums.size).astype(np.int32)
                sums += added
                touched = np.flatnonzero(added)
            self.levels.reshape(-1)[touched] = gl.shade_blocks(sums[touched], self.counts.reshape(-1)[touched],
                                                                self.max_value)
        self._image.updateImage()

    def load_packed(self, packed: np.ndarray, lo: int, hi: int) -> None:
        """Cells [lo, hi) from the little-endian packed bits ``packed``, then the blocks of their rows summed
        again. A band of rows at a time, its 4 x 4 sums taken while its cells are still in cache (summing the
        whole picture after it was written read it back from memory: 70 of 110 ms at 10^8 cells, loaded)."""
        flat = self.cells.reshape(-1)
        cols, b = self.cols, BASE
        ra, rb = lo // cols, (hi - 1) // cols + 1
        with_base = self.base is not None and not self._base_stale
        band = max(b, PACKED_BAND_BITS // cols // b * b)
        for r in range(ra // b * b, rb, band):
            r_end = min(rb, r + band)
            pos, end = max(lo, r * cols), min(hi, r_end * cols)
            b0 = pos >> 3
            bits = np.unpackbits(packed[b0:(end + 7) >> 3], bitorder="little")
            flat[pos:end] = bits[pos - 8 * b0:end - 8 * b0]
            if with_base:
                br0, br1 = r // b, -(-r_end // b)
                self.base[br0:br1] = gl.block_sums(self.cells, br0 * b, min(self.rows, br1 * b), 0, cols, b,
                                                    self.max_value)
        self._redraw_rows(ra, rb, base=not with_base)

    def _redraw_rows(self, ra: int, rb: int, base: bool = True) -> None:
        """The block sums and shades of rows [ra, rb) taken again from the cells (after they changed
        wholesale; ``base``: the kept 4 x 4 sums too): the cost is in proportion to the rows, not to the cells
        that changed."""
        b = BASE
        if base and self.base is not None and not self._base_stale:
            br0, br1 = ra // b, -(-rb // b)
            self.base[br0:br1] = gl.block_sums(self.cells, br0 * b, min(self.rows, br1 * b), 0, self.cols,
                                                b, self.max_value)
        if self.window is None:
            return
        r0, r1, c0, c1 = self.window
        f = self.factor
        lo, hi = max(ra, r0), min(rb, r1)
        if hi <= lo:
            return
        k0, k1 = (lo - r0) // f, -(-(hi - r0) // f)
        wr0, wr1 = r0 + k0 * f, min(r1, r0 + k1 * f)
        if f == 1:
            self.levels[k0:k1] = self.shade[self.cells[wr0:wr1, c0:c1]]
        else:
            if self.base is not None and not self._base_stale and f % b == 0:
                sums = self._window_sums((wr0, wr1, c0, c1), f)
            else:
                sums = gl.block_sums(self.cells, wr0, wr1, c0, c1, f, self.max_value)
            self.sums[k0:k1] = sums
            self.levels[k0:k1] = gl.shade_blocks(self.sums[k0:k1], self.counts[k0:k1], self.max_value)
        self._image.updateImage()
