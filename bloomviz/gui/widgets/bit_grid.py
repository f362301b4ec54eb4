"""The bit grid: a filter's bits (or counters) as a zoomable near-square grid of cells.

The widget knows nothing of filters or the workbench; the main window feeds it arrays and positions.

API
---
``BitGridWidget(parent=None)``
    A QWidget holding a pyqtgraph ``GraphicsLayoutWidget`` with one ViewBox (aspect locked, y inverted so
    index 0 is the top-left cell). Mouse drag pans, the wheel zooms. Cell ``i`` is row ``i // cols``,
    column ``i % cols``; in view coordinates it covers ``[col, col+1) x [row, row+1)``.

``reset(m, values=None, max_value=1)``
    New grid of m cells (1 <= m <= ``grid_layout.MAX_CELLS``), laid out ``rows x cols`` with
    ``cols = ceil(sqrt(m))``; the padding cells after m are drawn in a hatched neutral grey. ``values``: length
    m, integers 0..max_value (0/1 bits, or counters for a counting filter: max_value > 1 switches to a heat map).
    None means all zero. Clears highlights and bands, fits the view.
``set_all(values)``
    Replace every cell's value (full redraw).
``update_cells(positions, values)``
    Change only those cells (values: one value or one per position). Cheap: a single insert at
    m = 10^7 costs a few milliseconds including the repaint.
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
``f x f`` block means (``grid_layout.window_levels``), so a zoomed-out grid is shaded by the fraction of
bits set. pyqtgraph's own ``autoDownsample`` also averages (``functions.downsample`` takes a float64 mean),
but costs ~70 ms per render at 10^7 cells and drops the remainder rows and columns; the block means here cost
~5 ms and keep every cell. An update recomputes only the touched blocks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.gui.widgets import grid_layout as gl

HIGHLIGHT_KINDS = ("new", "old", "zero", "one", "culprit", "removed", "cleared", "stuck", "lost")
#: Kinds only a counting filter's removal produces (a legend lists them only for counters).
REMOVAL_KINDS = ("removed", "cleared", "stuck", "lost")

# Okabe-Ito colours (safe for the common colour-vision deficiencies), each with its own marker shape so
# colour is never the only cue.
HIGHLIGHT_STYLE = {
    "new": ("#D55E00", "s", "bit newly set by this insert"),
    "old": ("#56B4E9", "o", "bit was already 1 before this insert"),
    "zero": ("#009E73", "d", "lookup found this bit 0"),
    "one": ("#CC79A7", "t1", "lookup found this bit 1"),
    "culprit": ("#F0E442", "star", "bit set by an item that causes the false positive"),
    "removed": ("#0072B2", "t", "counter decremented by a removal"),
    "cleared": ("#E69F00", "x", "counter fell to 0 on a removal: the bit is clear"),
    "stuck": ("#999999", "+", "counter saturated at 2^c − 1: a removal leaves it"),
    "lost": ("#C00000", "star", "a cleared counter of an inserted item that now tests negative"),
}

BORDER_MIN_PX = 14.0  # cell size on screen from which borders are drawn
MAX_LABELS = 400  # index labels are drawn only when at most this many cells are visible
MIN_MARKER_PX = 16.0  # highlight markers never shrink below this, however small the cells
HOVER_MAX_WIDTH = 420  # px; longer hover texts wrap
_QWIDGETSIZE_MAX = (1 << 24) - 1  # Qt's QWIDGETSIZE_MAX, not exported by PySide6
_BAND_COLOURS = ("#E69F00", "#0072B2", "#009E73", "#CC79A7", "#D55E00", "#56B4E9")


@dataclass(frozen=True)
class _Theme:
    background: str
    zero: str
    one: str
    heat: tuple[str, ...]  # colours for counter value 1 .. max (spread evenly)
    padding: str
    hatch: str
    border: str
    halo: str
    text_dark: str
    text_light: str
    label_fill: tuple[int, int, int, int]


LIGHT = _Theme(background="#FFFFFF", zero="#F2F2EE", one="#1A4F9C",
               heat=("#A1DAB4", "#41B6C4", "#2C7FB8", "#253494", "#081D58"),
               padding="#B4B4B4", hatch="#8C8C8C", border="#9A9A9A", halo="#FFFFFF",
               text_dark="#202020", text_light="#FFFFFF", label_fill=(255, 255, 255, 220))
DARK = _Theme(background="#15171B", zero="#26292F", one="#FFB000",
              heat=("#3B528B", "#21918C", "#5EC962", "#B5DE2B", "#FDE725"),
              padding="#55585E", hatch="#6E7178", border="#5A5D63", halo="#000000",
              text_dark="#101010", text_light="#F0F0F0", label_fill=(20, 22, 26, 220))


def _rgb(colour: str) -> np.ndarray:
    c = QtGui.QColor(colour)
    return np.array([c.red(), c.green(), c.blue()], dtype=np.float64)


def build_lut(theme: _Theme, max_value: int) -> np.ndarray:
    """256 x 3 uint8 lookup table for display levels 0..255 (level = mean value / max_value * 255).

    Bits: a straight blend from the "0" colour to the "1" colour, so a block mean of 0.5 is drawn half-way.
    Counters: the "0" colour at level 0, then the heat colours from value 1 up to max_value; block means
    between 0 and 1 blend from the "0" colour to the first heat colour.
    """
    levels = np.arange(256, dtype=np.float64) / 255.0
    if max_value <= 1:
        stops_pos = np.array([0.0, 1.0])
        stops_rgb = np.stack([_rgb(theme.zero), _rgb(theme.one)])
    else:
        first = 1.0 / max_value
        heat_pos = np.linspace(first, 1.0, len(theme.heat))
        stops_pos = np.concatenate([[0.0], heat_pos])
        stops_rgb = np.stack([_rgb(theme.zero)] + [_rgb(c) for c in theme.heat])
    lut = np.empty((256, 3), dtype=np.float64)
    for ch in range(3):
        lut[:, ch] = np.interp(levels, stops_pos, stops_rgb[:, ch])
    return np.clip(np.round(lut), 0, 255).astype(np.uint8)


class _GridImage(pg.ImageItem):
    """ImageItem whose rendered picture is converted once to RGB32: Qt paints an indexed image ~4x slower
    on every repaint than RGB32, and the conversion of a screen-sized image costs well under a millisecond."""

    def render(self):
        super().render()
        q = self.qimage
        if q is not None and q.format() == QtGui.QImage.Format.Format_Indexed8:
            self.qimage = q.convertToFormat(QtGui.QImage.Format.Format_RGB32)


class _CellDecor(pg.GraphicsObject):
    """Cell borders and index labels, painted only for the visible cells when cells are large on screen."""

    def __init__(self, grid: "BitGridWidget"):
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
                painter.drawText(transform.mapRect(QtCore.QRectF(c, r, 1, 1)),
                                 QtCore.Qt.AlignmentFlag.AlignCenter, str(index))
        painter.restore()


class BitGridWidget(QtWidgets.QWidget):
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
        self._levels = np.zeros((1, 1), np.uint8)
        self._hl_positions = np.zeros(0, np.int64)
        self._hl_kinds: list[str] = []
        self._bands: list[tuple[int, int, str]] = []
        self._band_items: list[QtWidgets.QGraphicsItem] = []
        self._hover_index = -1
        self._hover_provider: Callable[[int], str] | None = None
        self._dark_levels_cache: np.ndarray | None = None

        self._glw = pg.GraphicsLayoutWidget()
        self._glw.ci.setContentsMargins(2, 2, 2, 2)
        self._vb = self._glw.addViewBox(lockAspect=True, invertY=True, enableMenu=True)
        self._vb.setDefaultPadding(0.02)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._glw)

        self._image = _GridImage(axisOrder="row-major")
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

        self._decor = _CellDecor(self)
        self._decor.setZValue(3)
        self._vb.addItem(self._decor)

        self._no_brush = QtGui.QBrush(QtCore.Qt.BrushStyle.NoBrush)
        self._halo = pg.ScatterPlotItem(pxMode=True)
        self._marks = pg.ScatterPlotItem(pxMode=True)
        self._halo.setZValue(6)
        self._marks.setZValue(7)
        self._vb.addItem(self._halo)
        self._vb.addItem(self._marks)

        self._hover_label = QtWidgets.QLabel(self)
        self._hover_label.setAttribute(QtCore.Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self._hover_label.hide()

        self._vb.sigTransformChanged.connect(self._on_view_changed)
        self._vb.sigResized.connect(self._on_view_changed)
        self._glw.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self._glw.viewport().installEventFilter(self)

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
        return self._marks

    @property
    def hover_label(self) -> QtWidgets.QLabel:
        return self._hover_label

    # ----------------------------------------------------------------- data
    def reset(self, m: int, values: np.ndarray | None = None, max_value: int = 1) -> None:
        rows, cols = gl.grid_shape(m)
        m = int(m)
        if isinstance(max_value, bool) or not isinstance(max_value, (int, np.integer)) \
                or not 1 <= int(max_value) <= 255:
            raise ValueError(f"max_value must be an integer from 1 to 255, got {max_value!r}")
        max_value = int(max_value)
        if values is not None:
            values = self._checked_values(values, m, max_value)
        cells = np.zeros((rows, cols), np.uint8)
        if values is not None:
            cells.reshape(-1)[:m] = values
        self._m, self._rows, self._cols, self._max_value = m, rows, cols, max_value
        self._cells = cells
        self._shade = gl.shade_table(max_value)
        self._dark_levels_cache = None
        self._window = None
        self._hl_positions = np.zeros(0, np.int64)
        self._hl_kinds = []
        self._halo.clear()
        self._marks.clear()
        self._clear_band_items()
        self._bands = []
        self._set_hover(-1, None)
        self._image.setLookupTable(build_lut(self._theme, max_value), update=False)
        self._place_padding()
        self._decor.set_bounds(QtCore.QRectF(0, 0, cols, rows))
        big = 3.0 * max(rows, cols)
        self._vb.setLimits(minXRange=min(2.0, cols), minYRange=min(2.0, rows), maxXRange=big, maxYRange=big)
        self.fit()
        self._refresh_display(force=True)

    def set_all(self, values: np.ndarray) -> None:
        self._require_grid()
        values = self._checked_values(values, self._m, self._max_value)
        self._cells.reshape(-1)[: self._m] = values
        self._refresh_display(force=True)
        if self._hover_index >= 0:
            self._set_hover(self._hover_index, None, refresh_only=True)

    def update_cells(self, positions: np.ndarray, values) -> None:
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
        flat = self._cells.reshape(-1)
        flat[positions] = values.astype(np.uint8)
        self._update_levels_at(positions)
        if self._hover_index >= 0 and np.any(positions == self._hover_index):
            self._set_hover(self._hover_index, None, refresh_only=True)

    def value(self, index: int) -> int:
        """The value of cell ``index`` (0 <= index < m)."""
        if not 0 <= index < self._m:
            raise IndexError(f"cell index {index} out of range 0..{self._m - 1}")
        return int(self._cells.reshape(-1)[index])

    # ----------------------------------------------------------------- highlights
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
            colour = QtGui.QColor(_BAND_COLOURS[i % len(_BAND_COLOURS)])
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

    # ----------------------------------------------------------------- view
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
        font_px = int(min(15.0, cell_px * 0.42, cell_px * 0.85 / (0.62 * digits)))
        with_labels = (r1 - r0) * (c1 - c0) <= MAX_LABELS and font_px >= 7
        return r0, r1, c0, c1, with_labels, font_px

    def _on_view_changed(self, *args) -> None:
        if not self._m:
            return
        self._refresh_display(force=False)
        if self._hl_positions.size:
            size = self.marker_size()
            self._halo.setSize(size)
            self._marks.setSize(size)
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
        if not force and f == self._factor and self._window is not None \
                and gl.window_contains(self._window, visible):
            return
        self._factor = f
        self._window = window
        self._levels = gl.window_levels(self._cells, window, f, self._max_value, self._cols, self._m)
        self._counts = None if f == 1 else gl.block_counts(*window, f, self._cols, self._m)
        r0, _, c0, _ = window
        h, w = self._levels.shape
        self._image.setImage(self._levels, levels=(0, 255), autoDownsample=False)
        self._image.setRect(QtCore.QRectF(c0, r0, w * f, h * f))

    def _update_levels_at(self, positions: np.ndarray) -> None:
        if self._window is None:
            return
        r0, r1, c0, c1 = self._window
        f = self._factor
        rows, cols = gl.index_to_cell(positions, self._cols)
        inside = (rows >= r0) & (rows < r1) & (cols >= c0) & (cols < c1)
        if not inside.any():
            return
        br = (rows[inside] - r0) // f
        bc = (cols[inside] - c0) // f
        if f == 1:
            self._levels[br, bc] = self._shade[self._cells[rows[inside], cols[inside]]]
        else:
            blocks = np.unique(br * self._levels.shape[1] + bc)
            if blocks.size > 256:  # many blocks: one vectorised pass over the window is cheaper
                self._refresh_display(force=True)
                return
            scale = 255.0 / self._max_value
            for b in blocks.tolist():
                i, j = divmod(b, self._levels.shape[1])
                ra, ca = r0 + i * f, c0 + j * f
                total = int(self._cells[ra: min(ra + f, r1), ca: min(ca + f, c1)].sum())
                count = int(self._counts[i, j])
                self._levels[i, j] = 0 if count == 0 else min(255, int(total * scale / count + 0.5))
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

    # ----------------------------------------------------------------- hover
    def set_hover_text_provider(self, fn: Callable[[int], str] | None) -> None:
        self._hover_provider = fn

    def _default_hover_text(self, index: int) -> str:
        word = "counter" if self._max_value > 1 else "bit"
        return f"{word} {index:,} = {self.value(index)}"

    def hover_at_view(self, x: float, y: float) -> int:
        """Hover the cell under view point (x, y) as if the cursor were there; returns its index or -1."""
        index = gl.point_to_index(x, y, self._rows, self._cols, self._m) if self._m else -1
        scene_pt = self._vb.mapViewToScene(QtCore.QPointF(x, y))
        self._set_hover(index, scene_pt)
        return index

    def _on_mouse_moved(self, scene_pos) -> None:
        if not self._m:
            return
        view_pt = self._vb.mapSceneToView(scene_pos)
        index = gl.point_to_index(view_pt.x(), view_pt.y(), self._rows, self._cols, self._m)
        self._set_hover(index, scene_pos)

    def _set_hover(self, index: int, scene_pos, refresh_only: bool = False) -> None:
        changed = index != self._hover_index
        self._hover_index = index
        if index < 0:
            self._hover_label.hide()
        elif changed or refresh_only:
            provider = self._hover_provider or self._default_hover_text
            text = provider(index)
            label = self._hover_label
            # QLabel's word wrap picks odd widths for short texts: wrap only what cannot fit on one line
            widest = max(label.fontMetrics().horizontalAdvance(line) for line in text.split("\n") or [""])
            label.setWordWrap(widest > HOVER_MAX_WIDTH - 16)
            label.setText(text)
            if label.wordWrap():
                label.setFixedWidth(HOVER_MAX_WIDTH)
                label.setFixedHeight(label.heightForWidth(HOVER_MAX_WIDTH))
            else:
                label.setMinimumSize(0, 0)
                label.setMaximumSize(_QWIDGETSIZE_MAX, _QWIDGETSIZE_MAX)
                label.adjustSize()
            self._hover_label.show()
            self._hover_label.raise_()
        if index >= 0 and scene_pos is not None:
            self._place_hover_label(scene_pos)
        if changed and not refresh_only:
            self.cellHovered.emit(index)

    def _place_hover_label(self, scene_pos) -> None:
        view_pt = self._glw.mapFromScene(scene_pos)
        pt = self._glw.viewport().mapTo(self, view_pt) + QtCore.QPoint(16, 18)
        label = self._hover_label
        x = min(pt.x(), max(0, self.width() - label.width() - 4))
        y = pt.y()
        if y + label.height() > self.height():
            y = max(0, pt.y() - label.height() - 30)
        label.move(x, y)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QtCore.QEvent.Type.Leave and self._hover_index >= 0:
            self._set_hover(-1, None)
        return False

    # ----------------------------------------------------------------- theme, export
    def set_theme(self, dark: bool) -> None:
        self._theme = DARK if dark else LIGHT
        t = self._theme
        self._dark_levels_cache = None
        # the halo separates a marker from both cell colours; yellow needs a dark one on either theme
        self._mark_pens = {k: pg.mkPen(style[0], width=3) for k, style in HIGHLIGHT_STYLE.items()}
        self._halo_pens = {k: pg.mkPen("#000000" if k == "culprit" else t.halo, width=7)
                           for k in HIGHLIGHT_STYLE}
        self._glw.setBackground(t.background)
        self._image.setLookupTable(build_lut(t, self._max_value), update=True)
        self._pad_fill.setBrush(QtGui.QBrush(QtGui.QColor(t.padding)))
        self._pad_hatch.setBrush(QtGui.QBrush(QtGui.QColor(t.hatch), QtCore.Qt.BrushStyle.BDiagPattern))
        fg = t.text_light if dark else t.text_dark
        fill = "rgba({},{},{},{})".format(*t.label_fill)
        self._hover_label.setStyleSheet(
            f"QLabel {{ background: {fill}; color: {fg}; border: 1px solid {t.border}; "
            f"border-radius: 4px; padding: 4px 6px; }}")
        self._draw_highlights()
        if self._bands:
            self.set_bands(self._bands)
        self._decor.update()

    @property
    def dark(self) -> bool:
        return self._theme is DARK

    def lookup_table(self) -> np.ndarray:
        return build_lut(self._theme, self._max_value)

    def _dark_cell_levels(self) -> np.ndarray:
        """bool per display level: whether its colour is dark (labels on it are drawn light)."""
        if self._dark_levels_cache is None:
            lut = self.lookup_table().astype(np.float64)
            luminance = 0.2126 * lut[:, 0] + 0.7152 * lut[:, 1] + 0.0722 * lut[:, 2]
            self._dark_levels_cache = luminance < 140
        return self._dark_levels_cache

    def export_png(self, path) -> None:
        """Save the grid as shown (current zoom, highlights, bands) to a PNG file."""
        from pyqtgraph.exporters import ImageExporter

        exporter = ImageExporter(self._vb)
        if exporter.parameters()["width"] < 1 or exporter.parameters()["height"] < 1:
            raise RuntimeError("the grid has no size yet; show the widget before exporting")
        exporter.export(str(path))

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
