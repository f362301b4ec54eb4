"""A plot's legend put where it hides the least of the curves, chosen again when the curves or the plot's size
change.

Each explorer plot anchored its legend at one place chosen for its usual curves at 100 % text (the top middle of
the rate-vs-k U, the empty top left of the rate-vs-n curves). In a narrower plot (large text, a projector) the
same legend covers a larger share of the data: at 250 % on 1280 x 720 it lay over the exact curve of k = 8-11.
``LegendPlacer`` tries the plot's own place first, then the other corners and edges' middles, and keeps the first
that hides the least length of the drawn curves (each line measured every 2 px along it, so a line crossing the
legend counts, not only its marked points). It reads the curves as drawn (log axes included) and moves nothing
else.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore

# (the legend's point, the view's point, offset in px): the places tried after the plot's own
PLACES = (((0.5, 0), (0.5, 0), (0, 8)), ((0, 0), (0, 0), (10, 10)), ((1, 0), (1, 0), (-10, 10)),
          ((0, 1), (0, 1), (10, -10)), ((1, 1), (1, 1), (-10, -10)), ((0.5, 1), (0.5, 1), (0, -8)))
STEP_PX = 2.0        # px between the points a line is measured by
MAX_POINTS = 20_000  # a line longer than this many steps (a zigzag of thousands of points) is measured coarser


def curve_points(plot_item: pg.PlotItem) -> np.ndarray:
    """The drawn curves in the view box's own (pixel) coordinates, a point every ``STEP_PX`` along each line (so
    that the points under a legend measure how much of the lines it hides, a steep line as much as a flat one);
    n x 2."""
    view = plot_item.getViewBox()
    to_box = view.childGroup.transform()          # data (as drawn: log10 on a log axis) -> the box's pixels
    width, height = view.width(), view.height()
    parts = []
    for item in plot_item.listDataItems():
        if not item.isVisible():
            continue
        x, y = item.getData()
        if x is None or len(x) == 0:
            continue
        x, y = np.asarray(x, float), np.asarray(y, float)
        keep = np.isfinite(x) & np.isfinite(y)
        px = to_box.m11() * x[keep] + to_box.m21() * y[keep] + to_box.dx()
        py = to_box.m12() * x[keep] + to_box.m22() * y[keep] + to_box.dy()
        # a line beyond the box runs along its edge (no legend lies there): its length stays the box's
        px, py = np.clip(px, -1.0, width + 1.0), np.clip(py, -1.0, height + 1.0)
        if len(px) > 1:
            along = np.concatenate([[0.0], np.cumsum(np.hypot(np.diff(px), np.diff(py)))])
            step = max(STEP_PX, along[-1] / MAX_POINTS)
            at = np.arange(0.0, along[-1] + step, step)
            px, py = np.interp(at, along, px), np.interp(at, along, py)
        parts.append(np.column_stack([px, py]))
    return np.concatenate(parts) if parts else np.empty((0, 2))


def legend_rect(view_size: QtCore.QSizeF, legend_size: QtCore.QSizeF, place) -> QtCore.QRectF:
    """Where the legend lies in the view box at ``place`` (as ``GraphicsWidgetAnchor.anchor`` puts it)."""
    (ix, iy), (px, py), (ox, oy) = place
    left = px * view_size.width() + ox - ix * legend_size.width()
    top = py * view_size.height() + oy - iy * legend_size.height()
    return QtCore.QRectF(left, top, legend_size.width(), legend_size.height())


def covered(points: np.ndarray, rect: QtCore.QRectF) -> int:
    if not len(points):
        return 0
    inside = ((points[:, 0] >= rect.left()) & (points[:, 0] <= rect.right())
              & (points[:, 1] >= rect.top()) & (points[:, 1] <= rect.bottom()))
    return int(inside.sum())


def best_place(points: np.ndarray, view_size, legend_size, places) -> tuple:
    """The first of ``places`` whose legend covers the fewest points."""
    return min(places, key=lambda place: covered(points, legend_rect(view_size, legend_size, place)))


class LegendPlacer(QtCore.QObject):
    """Keeps ``legend`` of ``plot_item`` where it hides the least of the curves; ``own`` is the plot's first
    choice. ``place()`` chooses now; a change of the view's size (and of its range, with ``follow_range``) chooses
    again in a later turn."""

    def __init__(self, plot_item: pg.PlotItem, legend: pg.LegendItem, own: tuple, follow_range: bool = True):
        # a child of the plot, so that it and its timer go with the plot's window: a placer left behind fired its
        # timer after its window was deleted and read curves whose C++ objects were gone
        super().__init__(plot_item)
        self._plot, self._legend = plot_item, legend
        self.places = (own,) + tuple(p for p in PLACES if p != own)
        self.current = own
        self._timer = QtCore.QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.place)
        view = plot_item.getViewBox()
        if follow_range:     # (a plot whose range grows while a run draws asks with ``schedule`` when it ends)
            view.sigRangeChanged.connect(self._timer.start)
        view.sigResized.connect(self._timer.start)

    def schedule(self) -> None:
        self._timer.start()

    def set_own(self, own: tuple) -> None:
        """The plot's first choice (where its usual curves leave room), tried before the others."""
        self.places = (own,) + tuple(p for p in PLACES if p != own)
        self.current = own
        self._legend.anchor(*own)
        self.schedule()

    def place(self) -> tuple:
        view = self._plot.getViewBox()
        # the range set since the last paint, its auto-range and the data's transform are applied lazily, at the
        # view's next paint: apply them now, or the curves are read where they were (Compare, as a run ends)
        view.prepareForPaint()
        size = self._legend.boundingRect().size()
        if view.width() <= 0 or size.isEmpty():
            return self.current
        choice = best_place(curve_points(self._plot), view.boundingRect().size(), size, self.places)
        if choice != self.current:
            self.current = choice
            self._legend.anchor(*choice)
        return choice
