"""A 95 % (Wilson) interval drawn as a band between two curves; used by the live plot and the Compare tab."""

from __future__ import annotations

import contextlib

import numpy as np
import pyqtgraph as pg
from PySide6 import QtGui


class WilsonBand(pg.FillBetweenItem):
    """The interval band between two curves, drawn from what those curves display.

    pyqtgraph's own FillBetweenItem pairs the curves' sub-paths, which go wrong as soon as one edge has gaps
    (on a log axis the lower Wilson bound is 0, hence missing, until the first false positive). This band
    builds one polygon from both edges' displayed points instead, sending missing points to the bottom of the
    view, and it follows the edges' re-downsampling and the view's range when zoomed or panned.
    """

    def __init__(self, lower: pg.PlotDataItem, upper: pg.PlotDataItem, brush):
        self._ready = False
        self._has_gaps = False
        self._held = self._stale = False
        super().__init__(lower, upper, brush=brush)
        # A legend sample reads ``opts``: a filled swatch without a line.
        self.opts = {"pen": None, "fillLevel": 0, "fillBrush": brush, "antialias": False}
        self._ready = True
        self.updatePath()

    def setCurves(self, curve1, curve2):
        super().setCurves(curve1, curve2)
        for c in (curve1, curve2):
            # The inner curve changes on zoom too (new downsample) without the data item announcing it.
            c.curve.sigPlotChanged.connect(self.curveChanged)

    def setBrush(self, *args, **kwds):
        super().setBrush(*args, **kwds)
        if getattr(self, "opts", None) is not None:
            self.opts["fillBrush"] = self.brush()

    def has_gaps(self) -> bool:
        return self._has_gaps

    @contextlib.contextmanager
    def held(self):
        """Within: the edges' changes build the path once, at the end. A redraw that sets both edges and moves
        the view's range built it 4-6 times (a polygon of every displayed point of both edges each time)."""
        if self._held:
            yield
            return
        self._held, self._stale = True, False
        try:
            yield
        finally:
            self._held = False
            if self._stale:
                self.updatePath()

    def updatePath(self):
        if not getattr(self, "_ready", False) or self.curves is None:
            return
        if self._held:
            self._stale = True
            return
        lower, upper = (c.curve.getData() for c in self.curves)
        if lower[0] is None or upper[0] is None or not self.curves[0].curve.isVisible():
            self._has_gaps = False
            self.setPath(QtGui.QPainterPath())
            return
        size = min(len(lower[0]), len(upper[0]))
        if size == 0:
            self.setPath(QtGui.QPainterPath())
            return
        low_y = lower[1][:size]
        if np.array_equal(lower[0][:size], upper[0][:size]):
            # Where the low edge has no value (a measured 0 on a log axis) the band closes onto the high edge:
            # the interval's top is then an upper limit, drawn as such by the plot, not a bar to the axis.
            missing = ~np.isfinite(low_y) & np.isfinite(upper[1][:size])
            if missing.any():
                low_y = np.where(missing, upper[1][:size], low_y)
        x = np.concatenate([lower[0][:size], upper[0][:size][::-1]])
        y = np.concatenate([low_y, upper[1][:size][::-1]])
        bad = ~np.isfinite(y)
        self._has_gaps = bool(bad.any())
        if self._has_gaps:
            y = y.copy()
            y[bad] = self._floor(y[~bad])
        keep = np.isfinite(x)
        path = pg.arrayToQPath(x[keep], y[keep], connect="all")
        path.closeSubpath()
        self.setPath(path)

    def _floor(self, finite: np.ndarray) -> float:
        # Exactly the bottom of the view: the band reaches the axis, and an SVG export (which does not clip)
        # shows nothing outside the plot.
        vb = self.curves[0].getViewBox()
        if vb is not None:
            return vb.viewRange()[1][0]
        return (float(finite.min()) - 1.0) if finite.size else 0.0
