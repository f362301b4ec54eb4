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
view point x, y). How it draws: ``drawing.py``.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.gui.widgets.grid import layout as gl
from bloomviz.gui.widgets.grid.checks import checked_positions, checked_values, last_per_position
from bloomviz.gui.widgets.grid.drawing import CellDecor, GridImage, GridPicture
from bloomviz.gui.widgets.grid.hover import GridHover
from bloomviz.gui.widgets.grid.marks import GridMarks
from bloomviz.gui.widgets.grid.style import BORDER_MIN_PX, DARK, LIGHT, MAX_LABELS, MIN_MARKER_PX, build_lut


class BitGridWidget(QtWidgets.QWidget):
    """See the module docstring."""

    cellHovered = QtCore.Signal(int)

    # index labels: at most this many px (a desk's screen needs no more), this share of a cell's height, and
    # none smaller than label_px_min; presenter mode asks for labels a hall can read or none
    label_px_cap, label_fraction, label_px_min = 15.0, 0.42, 7
    # a counter's value under its index (a lesson: counters as numbers, not only as shades)
    label_values = False

    def __init__(self, parent: QtWidgets.QWidget | None = None):
        super().__init__(parent)
        self._theme = LIGHT
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
        self._pic = GridPicture(self._image, self._vb)

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
        return self._pic.m

    @property
    def rows(self) -> int:
        return self._pic.rows

    @property
    def cols(self) -> int:
        return self._pic.cols

    @property
    def max_value(self) -> int:
        return self._pic.max_value

    @property
    def picture(self) -> np.ndarray:
        view = self._pic.cells.view()
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
        return self._pic.factor

    @property
    def display_window(self) -> tuple[int, int, int, int] | None:
        """Cell window (r0, r1, c0, c1) currently held by the image item (None before the first reset)."""
        return self._pic.window

    @property
    def display(self) -> GridPicture:
        """The cells' picture as drawn: its kept block sums (``base``) and the levels the image shows."""
        return self._pic

    @property
    def style(self):
        """The grid's colours (``style.LIGHT`` or ``style.DARK``)."""
        return self._theme

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
            values = checked_values(values, m, max_value)
        self._pic.reset(m, rows, cols, max_value, values)
        self._dark_levels_cache = None
        self._marks.clear()
        self._marks.clear_bands()
        self._hover.set(-1, None)
        self._image.setLookupTable(build_lut(self._theme, max_value), update=False)
        self._place_padding()
        self._decor.set_bounds(QtCore.QRectF(0, 0, cols, rows))
        big = 3.0 * max(rows, cols)
        self._vb.setLimits(minXRange=min(2.0, cols), minYRange=min(2.0, rows), maxXRange=big, maxYRange=big)
        self.fit()
        self._pic.refresh(force=True)

    def set_all(self, values: np.ndarray) -> None:
        self._require_grid()
        self._pic.set_all(checked_values(values, self.m, self.max_value))
        self._hover.refresh()

    def set_packed(self, packed: np.ndarray, start: int = 0, stop: int | None = None) -> None:
        """A 0/1 grid's cells from little-endian packed bits (``bitstore.byte_view``, one bit a cell): all of
        them, or those of bytes [start, stop) only. No unpacked copy of the whole array is made, and the cost
        is in proportion to the bytes given, however many of their bits changed."""
        self._require_grid()
        if self.max_value != 1:
            raise ValueError(f"packed bits draw only a 0/1 grid; this one holds values up to {self.max_value}")
        packed = np.asarray(packed)
        size = (self.m + 7) // 8
        if packed.dtype != np.uint8 or packed.shape != (size,):
            raise ValueError(f"packed bits must be {size:,} bytes (uint8) for m = {self.m:,}, "
                             f"got {packed.dtype} of shape {packed.shape}")
        stop = size if stop is None else int(stop)
        if not 0 <= int(start) <= stop <= size:
            raise ValueError(f"byte range {start}..{stop} is outside 0..{size}")
        lo, hi = 8 * int(start), min(self.m, 8 * stop)
        if hi <= lo:
            return
        self._pic.load_packed(packed, lo, hi)
        self._hover.refresh()

    def update_cells(self, positions: np.ndarray, values, *, unique: bool = False, known: bool = False) -> None:
        """``known``: the cells come from the model's record (int64 indices in range, each once, uint8 values
        within the grid's range): drawn without checking them again."""
        if known:
            if positions.size:
                self._pic.update(positions, values)
                if self._hover.index >= 0 and np.any(positions == self._hover.index):
                    self._hover.refresh()
            return
        self._require_grid()
        positions = checked_positions(positions, self.m)
        values = np.asarray(values)
        if values.ndim == 0:
            values = np.full(positions.shape, values)
        if values.shape != positions.shape:
            raise ValueError(f"update_cells needs one value or one per position: {values.shape[0]} values "
                             f"for {positions.shape[0]} positions")
        if values.size and (values.dtype.kind not in "uib" or values.min() < 0 or values.max() > self.max_value):
            raise ValueError(f"cell values must be integers from 0 to {self.max_value}, "
                             f"got {values.min()!r}..{values.max()!r}")
        if positions.size == 0:
            return
        if not unique and positions.size > 1:
            positions, values = last_per_position(positions, values)
        self._pic.update(positions, values.astype(np.uint8, copy=False))
        if self._hover.index >= 0 and np.any(positions == self._hover.index):
            self._hover.refresh()

    def value(self, index: int) -> int:
        """The value of cell ``index`` (0 <= index < m)."""
        if not 0 <= index < self.m:
            raise IndexError(f"cell index {index} out of range 0..{self.m - 1}")
        return int(self._pic.cells.reshape(-1)[index])


    # ----------------------------------------------------------------- theme, export
    def set_theme(self, dark: bool) -> None:
        self._theme = DARK if dark else LIGHT
        t = self._theme
        self._dark_levels_cache = None
        self._marks.set_theme(t.halo)
        self._glw.setBackground(t.background)
        self._image.setLookupTable(build_lut(t, self.max_value), update=True)
        self._pad_fill.setBrush(QtGui.QBrush(QtGui.QColor(t.padding)))
        self._pad_hatch.setBrush(QtGui.QBrush(QtGui.QColor(t.hatch), QtCore.Qt.BrushStyle.BDiagPattern))
        fg = t.text_light if dark else t.text_dark
        fill = "rgba({},{},{},{})".format(*t.label_fill)
        self._hover.label.setStyleSheet(
            f"QLabel {{ background: {fill}; color: {fg}; border: 1px solid {t.border}; "
            f"border-radius: 4px; padding: 4px 6px; }}")
        self._marks.draw(self.cols, self.marker_size())
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
    def highlight(self, positions, kinds: str | Sequence[str], *, known: bool = False) -> None:
        """``known``: int64 cell indices in range, from the model's record (not checked again)."""
        if not known:
            self._require_grid()
            positions = checked_positions(positions, self.m)
        self._marks.highlight(positions, kinds, self.cols, self.marker_size())

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
        self._marks.set_bands(bands, self.m, self.cols, self._theme.label_fill)

    def bands(self) -> list[tuple[int, int, str]]:
        return list(self._marks.bands)

    def band_paths(self) -> list[QtGui.QPainterPath]:
        return self._marks.band_paths()

    def set_hover_text_provider(self, fn: Callable[[int], str] | None) -> None:
        self._hover.set_provider(fn)

    def hover_text(self, index: int) -> str:
        """The text the hover label would show for cell ``index`` without a provider."""
        return self._hover.default_text(index)

    def refresh_hover(self) -> None:
        """Ask the provider again for the hovered cell (it knows more now: the items behind a bit)."""
        self._hover.refresh()

    def hover_at_view(self, x: float, y: float) -> int:
        """Hover the cell under view point (x, y) as if the cursor were there; returns its index or -1."""
        return self._hover.at_view(x, y)

    # ----------------------------------------------------------------- view, labels, padding
    def labels_show_values(self) -> bool:
        return self.label_values and self.max_value > 1

    def set_label_size(self, cap: float, fraction: float = 0.42, minimum: int = 7) -> None:
        """Index labels up to ``cap`` px high and ``fraction`` of a cell, none below ``minimum`` px; repainted."""
        self.label_px_cap, self.label_fraction, self.label_px_min = float(cap), float(fraction), int(minimum)
        self._decor.update()

    def fit(self) -> None:
        if self.m:
            self._vb.setRange(QtCore.QRectF(0, 0, self.cols, self.rows), padding=0.02)

    def cell_pixels(self) -> float:
        """Size of one cell on screen in pixels (0 when the view has no size yet)."""
        return self._pic.cell_pixels()

    def decor_plan(self):
        """(r0, r1, c0, c1, with_labels, font_px) of the visible cells to outline, or None when cells are
        smaller than ``BORDER_MIN_PX`` on screen."""
        if not self.m:
            return None
        cell_px = self.cell_pixels()
        if cell_px < BORDER_MIN_PX:
            return None
        rect = self._vb.viewRect()
        r0, r1, c0, c1 = gl.visible_range(rect.left(), rect.top(), rect.right(), rect.bottom(),
                                          self.rows, self.cols)
        if r1 <= r0 or c1 <= c0:
            return None
        digits = len(str(min(self.m - 1, r1 * self.cols)))
        lines = 2 if self.labels_show_values() else 1
        font_px = int(min(self.label_px_cap, cell_px * self.label_fraction / lines,
                          cell_px * 0.85 / (0.62 * (digits + 1 if lines > 1 else digits))))
        with_labels = (r1 - r0) * (c1 - c0) <= MAX_LABELS and font_px >= self.label_px_min
        return r0, r1, c0, c1, with_labels, font_px

    def _on_view_changed(self, *args) -> None:
        if not self.m:
            return
        self._pic.refresh(force=False)
        self._marks.resize(self.marker_size())
        self._decor.update()

    def padding_rect(self) -> QtCore.QRectF | None:
        """The padding cells' rectangle in view coordinates, or None when m fills the grid exactly."""
        return QtCore.QRectF(self._pad_fill.rect()) if self._pad_fill.isVisible() else None

    def _place_padding(self) -> None:
        pad = self.rows * self.cols - self.m
        visible = pad > 0
        for item in (self._pad_fill, self._pad_hatch):
            item.setVisible(visible)
            if visible:
                item.setRect(QtCore.QRectF(self.cols - pad, self.rows - 1, pad, 1))

    def lookup_table(self) -> np.ndarray:
        return build_lut(self._theme, self.max_value)

    def dark_cell_levels(self) -> np.ndarray:
        """bool per display level: whether its colour is dark (labels on it are drawn light)."""
        if self._dark_levels_cache is None:
            lut = self.lookup_table().astype(np.float64)
            luminance = 0.2126 * lut[:, 0] + 0.7152 * lut[:, 1] + 0.0722 * lut[:, 2]
            self._dark_levels_cache = luminance < 140
        return self._dark_levels_cache

    def _require_grid(self) -> None:
        if not self.m:
            raise RuntimeError("the grid has no cells yet; call reset(m) first")
