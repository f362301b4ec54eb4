"""The plots' axes, whose grid lines are opaque: the colour pyqtgraph's faint grid shows on the theme's background.

pyqtgraph draws a grid (``PlotItem.showGrid``) as the axis' tick lines stretched across the view, in the axis'
pen with a low alpha (``AxisItem.generateDrawSpecs``: fainter for finer tick levels). Qt 6's raster engine
draws a one-pixel line with a translucent pen as a run of spans to blend, and splits a long run into segments
blended on its thread pool while the GUI thread waits (``QT_THREAD_PARALLEL_FILLS`` in qdrawhelper.cpp); a line
in an opaque pen took no such hand-off (measured: 0 against 200-650 voluntary context switches of the GUI
thread per paint of the plot widget; a composition mode such as Darken took them again). On a loaded machine
every hand-off waited for a core: a paint took 4-5x its CPU in wall time, and the auto-play's longest
event-loop turn 93-201 ms (issue 23).

So each grid line is drawn opaque, in the colour the translucent one showed on the flat background (the same
mix), and the axes are put beneath the view so the curves and the band lie over the lines rather than under them.
The lines stay on the axis' own ticks, in either scale (log y included).
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6 import QtCore, QtGui

#: Beneath the ViewBox (z -100, pyqtgraph's PlotItem): its curves are drawn over the opaque grid lines.
BENEATH_VIEW_Z = -101


def mixed(color: QtGui.QColor, background: QtGui.QColor) -> QtGui.QColor:
    """The opaque colour that ``color`` (with its alpha) shows on ``background``."""
    a = color.alphaF()
    return QtGui.QColor.fromRgbF(*(a * c + (1 - a) * b for c, b in (
        (color.redF(), background.redF()), (color.greenF(), background.greenF()),
        (color.blueF(), background.blueF()))), 1.0)


class GridAxis(pg.AxisItem):
    """An axis whose grid lines are drawn in opaque pens, mixed with ``set_background``'s colour."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._background = QtGui.QColor("white")
        # the opaque pen of each translucent one: a redraw of the axis (every frame of an auto-play, the range
        # growing) asked for ~45 of them, a new QPen and colour mix each (~1 ms of a plot's paint)
        self._pens: dict[tuple, QtGui.QPen] = {}

    def put_beneath_view(self) -> None:
        """Draw the axis before its plot's view (PlotItem puts every axis at z 0.5, over it): an opaque grid
        over the view would cross the curves. The axis' ticks and labels lie beside the view, not under it."""
        self.setZValue(BENEATH_VIEW_Z)

    def set_background(self, color) -> None:
        """The colour behind the plots (the theme's), with which the grid lines' colours are mixed."""
        self._background = pg.mkColor(color)
        self._pens.clear()
        self.picture = None     # the axis keeps its drawing in a QPicture until told to redraw
        self.update()

    def drawPicture(self, p, axisSpec, tickSpecs, textSpecs):
        if self.grid is not False:
            # Opaque lines overwrite where they cross (a composition mode such as Darken would go back to
            # the pool's blending): the fainter levels first, so a coarser line stays whole across finer ones,
            # and a line that shows as the background itself (a dense level's alpha near 0) is not drawn.
            lines = sorted(((pen.color().alpha(), self._opaque(pen), p1, p2) for pen, p1, p2 in tickSpecs),
                           key=lambda line: line[0])
            tickSpecs = [(pen, p1, p2) for _, pen, p1, p2 in lines if not self._unseen(pen.color())]
        super().drawPicture(p, axisSpec, tickSpecs, textSpecs)

    def _opaque(self, pen: QtGui.QPen) -> QtGui.QPen:
        if pen.color().alpha() == 255 or pen.brush().style() != QtCore.Qt.BrushStyle.SolidPattern:
            return pen
        key = (pen.color().rgba(), pen.widthF(), pen.style(), pen.capStyle(), pen.isCosmetic())
        opaque = self._pens.get(key)
        if opaque is None:
            opaque = self._pens[key] = QtGui.QPen(pen)
            opaque.setColor(mixed(pen.color(), self._background))
        return opaque

    def _unseen(self, color: QtGui.QColor) -> bool:
        bg = self._background
        return max(abs(color.red() - bg.red()), abs(color.green() - bg.green()), abs(color.blue() - bg.blue())) <= 2


def opaque_grid_axes() -> dict[str, GridAxis]:
    """The left and bottom axes of a plot with the opaque grid: ``pg.PlotWidget(axisItems=opaque_grid_axes())``,
    then ``beneath_the_view`` once the plot holds them."""
    return {"left": GridAxis(orientation="left"), "bottom": GridAxis(orientation="bottom")}


def beneath_the_view(plot_item: pg.PlotItem, background) -> None:
    """The plot's grid axes put beneath its view (the curves over the grid) and mixed with ``background``."""
    for side in ("left", "bottom"):
        axis = plot_item.getAxis(side)
        if isinstance(axis, GridAxis):
            axis.put_beneath_view()
            axis.set_background(background)
