"""What the window shows of a filter variant beyond bits and curves: bands on the grid, a bound on the plot.

``connect_variant_views(window)`` wires the workbench of a ``MainWindow`` to its grid, grid legend and plot:

- the grid outlines and labels ``Workbench.grid_bands()``: a scalable filter's stages (each with its fill), a
  partitioned filter's k slices, a blocked filter's blocks (all of them when there are few, else the block of
  the last operation); the legend says what the bands are;
- the rate plot draws ``Workbench.bound_line()`` (a scalable filter's compound bound p₀/(1 − r) = p) as a
  labelled horizontal line, and names the theory curve after the variant's own formula.

What the labels say is the variant's own (``bloomviz.explain.variants``: ``theory_label``, ``bands_text``).

Call it once, after the window has wired its own slots: Qt calls slots in the order they were connected, so
the bands are drawn after the window has reset the grid (a reset clears them). Band labels follow the fill with
a short delay (at most five redraws a second) and not at all while bulk work runs; the end of the work redraws.
"""

from __future__ import annotations

from PySide6 import QtCore

from bloomviz.explain import variants as variant_words
from bloomviz.filters.registry import standard_formulas_apply
from bloomviz.gui.timing import Throttle
from bloomviz.i18n import tr

BAND_DELAY_MS = 200


class VariantViews(QtCore.QObject):
    def __init__(self, window):
        super().__init__(window)
        self._window = window
        wb = window.wb
        self._bands_later = Throttle(BAND_DELAY_MS, self.refresh_bands, self)
        wb.filterReset.connect(self.refresh)
        wb.filterGrown.connect(self.refresh)
        wb.operated.connect(self._later)
        wb.jobFinished.connect(lambda *_: self.refresh())
        self.refresh()

    def _later(self, rec) -> None:
        # a job's chunks are not outlined one by one (its end refreshes); a single operation always is
        if rec.op != "insert batch" or not self._window.wb.busy:
            self._bands_later.request()

    def refresh(self) -> None:
        w = self._window
        wb = w.wb
        bound = wb.bound_line()
        if bound is None:
            w.plot.set_reference(None)
        else:
            w.plot.set_reference(*bound)
        label = variant_words.theory_label(wb.filter)
        w.plot.set_theory_label(tr(label) if label else None)
        # the standard filter's formulas describe a counting filter too, but not the others (see Workbench._rows)
        for key in ("fp_classic", "fp_approx", "fp_bound"):
            w.plot.set_curve_visible(key, standard_formulas_apply(wb.filter))
        self.refresh_bands()

    def refresh_bands(self) -> None:
        self._bands_later.cancel()
        w = self._window
        if w.grid.m != w.wb.filter.m:
            return   # the grid is not at the new size yet: the window redraws it first, then calls this again
        bands = w.wb.grid_bands()
        if bands != w.grid.bands():
            w.grid.set_bands(bands)
        w.grid_legend.set_bands_text(variant_words.bands_text(w.wb.filter) if bands else "")


def connect_variant_views(window) -> VariantViews:
    """Wire a MainWindow's grid, legend and plot to its workbench's variant (see the module docstring)."""
    return VariantViews(window)
