"""The bit grid widget: a filter's bits (or counters) as a zoomable near-square grid of cells.

The widget knows nothing of filters or the workbench; the main window feeds it arrays and positions.

API
---
``BitGridWidget(parent=None)``
    A QWidget holding a pyqtgraph ``GraphicsLayoutWidget`` with one ViewBox (aspect locked, y inverted so
    index 0 is the top-left cell). Mouse drag pans, the wheel zooms. Cell ``i`` is row ``i // cols``,
    column ``i % cols``; in view coordinates it covers ``[col, col+1) x [row, row+1)``.

``reset(m, values=None, max_value=1)``
    New grid of m cells (1 <= m <= ``layout.MAX_CELLS``), laid out ``rows x cols`` with
    ``cols = ceil(sqrt(m))``; the padding cells after m are drawn in a hatched neutral grey. ``values``: length
    m, integers 0..max_value (0/1 bits, or counters for a counting filter: max_value > 1 switches to a heat map).
    None means all zero. Clears highlights and bands, fits the view.
``set_all(values)``
    Replace every cell's value (full redraw).
``set_packed(packed, start=0, stop=None)``
    A 0/1 grid's cells from little-endian packed bits (one byte per 8 cells), all or bytes [start, stop) only:
    the rows touched are summed again, at a cost in proportion to the bytes (a full redraw of 10^8 cells
    without the 95 MB unpacked copy; a band of many changed bits at a fraction of ``update_cells``' cost).
``update_cells(positions, values, *, unique=False)``
    Change only those cells (values: one value or one per position; a repeated position takes its last
    value). Cheap: a single insert at m = 10^7 costs a few milliseconds including the repaint, and a million
    changed cells cost tens of milliseconds at any m (their differences are added to the kept block sums).
    ``unique=True`` promises each position once and skips the sort that would otherwise find repeats.
``highlight(positions, kinds)`` / ``clear_highlight()``
    Overlay markers of fixed screen size on cells; ``kinds``: one string or one per position among
    ``HIGHLIGHT_KINDS`` = 'new' (bit newly set by an insert), 'old' (already 1 on insert),
    'zero' (lookup found 0), 'one' (lookup found 1), 'culprit', and for a counting filter's removal
    'removed' (decremented), 'cleared' (fell to 0), 'stuck' (saturated, left alone), 'lost' (a false negative's
    cleared counter). ``HIGHLIGHT_STYLE[kind]`` gives
    (colour, symbol, description) for legends.
``set_bands(bands)``
    ``bands``: list of ``(start, end, label)``; outlines and labels each index range [start, end) (e.g. the
    stages of a scalable filter concatenated into one array). An empty list removes them.
``set_hover_text_provider(fn)``
    ``fn(index) -> str``; the text is shown beside the cursor while it is over cell ``index``. Without a
    provider the text is "bit i = v" (or "counter i = v").
``cellHovered``
    Signal(int): the hovered cell index, -1 when the cursor leaves the grid.
``set_theme(dark)``; ``fit()``; ``export_png(path)`` (pyqtgraph's ImageExporter of the grid view).

Read-only properties for callers and tests: ``m``, ``rows``, ``cols``, ``max_value``, ``picture`` (the padded
rows x cols uint8 array, read-only view), ``view_box``, ``graphics_widget``, ``image_item``, ``highlight_item``,
``hover_label``, ``block_factor`` (cells per displayed block side), ``display_window``, ``dark``. Queries:
``value(index)``, ``cell_pixels()``, ``padding_rect()``, ``marker_size()``, ``highlight_points()``, ``bands()``,
``band_paths()``, ``decor_plan()``, ``lookup_table()``, ``hover_at_view(x, y)`` (hover as if the cursor were at
view point x, y).

How it draws
------------
One padded ``rows x cols`` uint8 array is the only picture of the cells. A pyqtgraph ``ImageItem``
(``axisOrder='row-major'`` on the item, explicit ``levels=(0, 255)`` and a 256-entry lookup table) shows the
part of it around the visible range: at full resolution when a cell is at least one screen pixel, otherwise as
``f x f`` block means (``layout.window_levels``), so a zoomed-out grid is shaded by the fraction of
bits set. The block sums of the window are kept, so that changed cells only add their differences; a grid of
at least ``drawing.BASE_MIN_CELLS`` cells also keeps its 4 x 4 block sums and zooms from those (its blocks are
then a multiple of 4 cells on a side).
pyqtgraph's own ``autoDownsample`` also averages (``functions.downsample`` takes a float64 mean),
but costs ~70 ms per render at 10^7 cells and drops the remainder rows and columns; the block means here cost
~5 ms and keep every cell. An update recomputes only the touched blocks.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.gui.widgets.grid import layout as gl
from bloomviz.gui.widgets.grid.drawing import CellDecor, DrawingMixin, GridImage
from bloomviz.gui.widgets.grid.hover import GridHover
from bloomviz.gui.widgets.grid.marks import GridMarks
from bloomviz.gui.widgets.grid.style import DARK, LIGHT, MIN_MARKER_PX, build_lut


class BitGridWidget(DrawingMixin, QtWidgets.QWidget):
    """See the module docstring."""

    cellHovered = QtCore.Signal(int)

    def __init__(self, parent: QtWidgets.QWidget | None = None):
        super().__init__(parent)
        self._theme = LIGHT
        self._m = 0
        self._rows = self._cols = 0
        self._max_value = 1
        self._cells = np.zeros((1, 1), np.uint8)
        self._shade = gl.shade_table(1)
        self._factor = 1
        self._window: tuple[int, int, int, int] | None = None
        self._counts: np.ndarray | None = None
        self._sums: np.ndarray | None = None
        self._base: np.ndarray | None = None      # 4 x 4 block sums of a large grid (drawing.py)
        self._base_stale = False
        self._levels = np.zeros((1, 1), np.uint8)
        self._dark_levels_cache: np.ndarray | None = None

        self._glw = pg.GraphicsLayoutWidget()
        self._glw.ci.setContentsMargins(2, 2, 2, 2)
        self._vb = self._glw.addViewBox(lockAspect=True, invertY=True, enableMenu=True)
        self._vb.setDefaultPadding(0.02)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._glw)

        self._image = GridImage(axisOrder="row-major")
        self._image.setZValue(0)
        self._vb.addItem(self._image)

        self._pad_fill = QtWidgets.QGraphicsRectItem()
        self._pad_hatch = QtWidgets.QGraphicsRectItem()
        for z, item in enumerate((self._pad_fill, self._pad_hatch), start=1):
            item.setPen(QtGui.QPen(QtCore.Qt.PenStyle.NoPen))
            item.setZValue(z)
            item.setVisible(False)
            item.setToolTip("padding: beyond the last bit of the filter")
            self._vb.addItem(item)

        self._decor = CellDecor(self)
        self._decor.setZValue(3)
        self._vb.addItem(self._decor)

        self._marks = GridMarks(self._vb)
        self._hover = GridHover(self)

        self._vb.sigTransformChanged.connect(self._on_view_changed)
        self._vb.sigResized.connect(self._on_view_changed)

        self.set_theme(False)

    # ----------------------------------------------------------------- properties
    @property
    def m(self) -> int:
        return self._m

    @property
    def rows(self) -> int:
        return self._rows

    @property
    def cols(self) -> int:
        return self._cols

    @property
    def max_value(self) -> int:
        return self._max_value

    @property
    def picture(self) -> np.ndarray:
        view = self._cells.view()
        view.flags.writeable = False
        return view

    @property
    def view_box(self) -> pg.ViewBox:
        return self._vb

    @property
    def graphics_widget(self) -> pg.GraphicsLayoutWidget:
        return self._glw

    @property
    def block_factor(self) -> int:
        return self._factor

    @property
    def display_window(self) -> tuple[int, int, int, int] | None:
        """Cell window (r0, r1, c0, c1) currently held by the image item (None before the first reset)."""
        return self._window

    @property
    def image_item(self) -> pg.ImageItem:
        return self._image

    @property
    def highlight_item(self) -> pg.ScatterPlotItem:
        return self._marks.marks

    @property
    def hover_label(self) -> QtWidgets.QLabel:
        return self._hover.label

    @property
    def hovered(self) -> int:
        """The index of the hovered cell, -1 when none is."""
        return self._hover.index

    # ----------------------------------------------------------------- data
    def reset(self, m: int, values: np.ndarray | None = None, max_value: int = 1, aspect: float = 1.0) -> None:
        rows, cols = gl.grid_shape(m, aspect)
        m = int(m)
        if isinstance(max_value, bool) or not isinstance(max_value, (int, np.integer)) \
                or not 1 <= int(max_value) <= 255:
            raise ValueError(f"max_value must be an integer from 1 to 255, got {max_value!r}")
        max_value = int(max_value)
        if values is not None:
            values = self._checked_values(values, m, max_value)
        # The last picture's memory is reused when the shape is the same: new memory costs a page fault per
        # 4 KiB page at its first write, ~0.4-0.6 s for 10^8 cells here (~1 ms to refill). A new picture is
        # written now rather than left as np.zeros' untouched pages, whose faults would fall on the first
        # redraw during bulk work instead (~0.3 s in one turn of the event loop).
        if self._cells.shape == (rows, cols):
            cells = self._cells
        else:
            self._cells = cells = np.empty(0, np.uint8)   # the old picture freed before the new one is made
            cells = np.empty((rows, cols), np.uint8)
        cells.fill(0)
        if values is not None:
            cells.reshape(-1)[:m] = values
        self._m, self._rows, self._cols, self._max_value = m, rows, cols, max_value
        self._cells = cells
        self._shade = gl.shade_table(max_value)
        self._dark_levels_cache = None
        self._window = None
        self._marks.clear()
        self._marks.clear_bands()
        self._hover.set(-1, None)
        self._image.setLookupTable(build_lut(self._theme, max_value), update=False)
        self._place_padding()
        self._decor.set_bounds(QtCore.QRectF(0, 0, cols, rows))
        self._rebuild_base(empty=values is None)
        big = 3.0 * max(rows, cols)
        self._vb.setLimits(minXRange=min(2.0, cols), minYRange=min(2.0, rows), maxXRange=big, maxYRange=big)
        self.fit()
        self._refresh_display(force=True)

    def set_all(self, values: np.ndarray) -> None:
        self._require_grid()
        values = self._checked_values(values, self._m, self._max_value)
        self._cells.reshape(-1)[: self._m] = values
        self._rebuild_base()
        self._refresh_display(force=True)
        self._hover.refresh()

    def set_packed(self, packed: np.ndarray, start: int = 0, stop: int | None = None) -> None:
        """A 0/1 grid's cells from little-endian packed bits (``bitstore.byte_view``, one bit a cell): all of
        them, or those of bytes [start, stop) only. No unpacked copy of the whole array is made, and the cost
        is in proportion to the bytes given, however many of their bits changed."""
        self._require_grid()
        if self._max_value != 1:
            raise ValueError(f"packed bits draw only a 0/1 grid; this one holds values up to {self._max_value}")
        packed = np.asarray(packed)
        size = (self._m + 7) // 8
        if packed.dtype != np.uint8 or packed.shape != (size,):
            raise ValueError(f"packed bits must be {size:,} bytes (uint8) for m = {self._m:,}, "
                             f"got {packed.dtype} of shape {packed.shape}")
        stop = size if stop is None else int(stop)
        if not 0 <= int(start) <= stop <= size:
            raise ValueError(f"byte range {start}..{stop} is outside 0..{size}")
        lo, hi = 8 * int(start), min(self._m, 8 * stop)
        if hi <= lo:
            return
        self._load_packed(packed, lo, hi)
        self._hover.refresh()

    def update_cells(self, positions: np.ndarray, values, *, unique: bool = False) -> None:
        self._require_grid()
        positions = self._checked_positions(positions)
        values = np.asarray(values)
        if values.ndim == 0:
            values = np.full(positions.shape, values)
        if values.shape != positions.shape:
            raise ValueError(f"update_cells needs one value or one per position: {values.shape[0]} values "
                             f"for {positions.shape[0]} positions")
        if values.size and (values.dtype.kind not in "uib" or values.min() < 0 or values.max() > self._max_value):
            raise ValueError(f"cell values must be integers from 0 to {self._max_value}, "
                             f"got {values.min()!r}..{values.max()!r}")
        if positions.size == 0:
            return
        if not unique and positions.size > 1:
            positions, values = _last_per_position(positions, values)
        flat = self._cells.reshape(-1)
        values = values.astype(np.uint8, copy=False)
        old = flat[positions]
        flat[positions] = values
        self._update_levels_at(positions, old, values)
        if self._hover.index >= 0 and np.any(positions == self._hover.index):
            self._hover.refresh()

    def value(self, index: int) -> int:
        """The value of cell ``index`` (0 <= index < m)."""
        if not 0 <= index < self._m:
            raise IndexError(f"cell index {index} out of range 0..{self._m - 1}")
        return int(self._cells.reshape(-1)[index])


    # ----------------------------------------------------------------- theme, export
    def set_theme(self, dark: bool) -> None:
        self._theme = DARK if dark else LIGHT
        t = self._theme
        self._dark_levels_cache = None
        self._marks.set_theme(t.halo)
        self._glw.setBackground(t.background)
        self._image.setLookupTable(build_lut(t, self._max_value), update=True)
        self._pad_fill.setBrush(QtGui.QBrush(QtGui.QColor(t.padding)))
        self._pad_hatch.setBrush(QtGui.QBrush(QtGui.QColor(t.hatch), QtCore.Qt.BrushStyle.BDiagPattern))
        fg = t.text_light if dark else t.text_dark
        fill = "rgba({},{},{},{})".format(*t.label_fill)
        self._hover.label.setStyleSheet(
            f"QLabel {{ background: {fill}; color: {fg}; border: 1px solid {t.border}; "
            f"border-radius: 4px; padding: 4px 6px; }}")
        self._marks.draw(self._cols, self.marker_size())
        if self._marks.bands:
            self.set_bands(self._marks.bands)
        self._decor.update()

    @property
    def dark(self) -> bool:
        return self._theme is DARK

    def export_png(self, path) -> None:
        """Save the grid as shown (current zoom, highlights, bands) to a PNG file."""
        from pyqtgraph.exporters import ImageExporter

        from bloomviz.gui.widgets.plot_export import save_png

        exporter = ImageExporter(self._vb)
        if exporter.parameters()["width"] < 1 or exporter.parameters()["height"] < 1:
            raise RuntimeError("the grid has no size yet; show the widget before exporting")
        save_png(exporter.export(toBytes=True), path, "the grid picture")

    # ----------------------------------------------------------------- marks, hover (marks.py, hover.py)
    def highlight(self, positions, kinds: str | Sequence[str]) -> None:
        self._require_grid()
        self._marks.highlight(self._checked_positions(positions), kinds, self._cols, self.marker_size())

    def clear_highlight(self) -> None:
        self._marks.clear()

    def highlighted(self) -> tuple[np.ndarray, list[str]]:
        """The highlighted cells' indices and their kinds."""
        return self._marks.positions.copy(), list(self._marks.kinds)

    def highlight_points(self) -> tuple[np.ndarray, np.ndarray, list[str]]:
        """x and y view coordinates of the current highlight markers and their kinds."""
        return self._marks.points()

    def marker_size(self) -> float:
        """Screen size in pixels of the highlight markers: a little larger than a cell, never tiny."""
        # whole pixels: the symbol atlas keeps one rendering per size
        return float(round(np.clip(self.cell_pixels() + 4.0, MIN_MARKER_PX, 120.0)))

    def set_bands(self, bands: list[tuple[int, int, str]]) -> None:
        self._marks.set_bands(bands, self._m, self._cols, self._theme.label_fill)

    def bands(self) -> list[tuple[int, int, str]]:
        return list(self._marks.bands)

    def band_paths(self) -> list[QtGui.QPainterPath]:
        return self._marks.band_paths()

    def set_hover_text_provider(self, fn: Callable[[int], str] | None) -> None:
        self._hover.set_provider(fn)

    def hover_text(self, index: int) -> str:
        """The text the hover label would show for cell ``index`` without a provider."""
        return self._hover.default_text(index)

    def hover_at_view(self, x: float, y: float) -> int:
        """Hover the cell under view point (x, y) as if the cursor were there; returns its index or -1."""
        return self._hover.at_view(x, y)

    # ----------------------------------------------------------------- checks
    def _require_grid(self) -> None:
        if not self._m:
            raise RuntimeError("the grid has no cells yet; call reset(m) first")

    def _checked_values(self, values, m: int, max_value: int) -> np.ndarray:
        arr = np.asarray(values)
        if arr.ndim != 1 or arr.shape[0] != m:
            raise ValueError(f"values must be a 1-D array of length m = {m:,}, got shape {arr.shape}")
        if arr.dtype.kind not in "uib":
            raise ValueError(f"values must be integers, got dtype {arr.dtype}")
        if arr.dtype != np.uint8 and arr.dtype != np.bool_:
            if m and (arr.min() < 0 or arr.max() > max_value):
                raise ValueError(f"values must lie in 0..{max_value}, got {arr.min()}..{arr.max()}")
            return arr.astype(np.uint8)
        if arr.dtype == np.bool_:
            return arr.view(np.uint8)
        if max_value < 255 and m and arr.max() > max_value:
            raise ValueError(f"values must lie in 0..{max_value}, got a maximum of {arr.max()}")
        return arr

    def _checked_positions(self, positions) -> np.ndarray:
        pos = np.asarray(positions)
        if pos.ndim == 0:
            pos = pos.reshape(1)
        if pos.ndim != 1:
            raise ValueError(f"positions must be a 1-D sequence of cell indices, got shape {pos.shape}")
        if pos.size == 0:
            return pos.astype(np.int64)
        if pos.dtype.kind not in "ui":
            raise ValueError(f"positions must be integers, got dtype {pos.dtype}")
        lo, hi = int(pos.min()), int(pos.max())
        if lo < 0 or hi >= self._m:
            bad = lo if lo < 0 else hi
            raise ValueError(f"position {bad} is outside the grid's 0..{self._m - 1}")
        return pos.astype(np.int64, copy=False)


def _last_per_position(positions: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each position once, with the last value given for it (as repeated assignment would leave it)."""
    order = np.argsort(positions, kind="stable")
    ordered = positions[order]
    last = np.ones(ordered.size, bool)
    last[:-1] = ordered[1:] != ordered[:-1]
    return ordered[last], values[order[last]]
