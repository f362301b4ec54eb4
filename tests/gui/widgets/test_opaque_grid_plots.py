"""The Parameter explorer's and Compare's plots draw the opaque grid (widgets/grid_axis.py) as the live plot does:
lines in the colour the see-through grid showed, beneath the curves, mixed with the theme's background, and a
paint that hands no work to Qt's thread pool (the see-through lines did, 100-230 times a paint of these plots:
benchmarks/bench_plot_grid.py)."""

import os
import resource
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6 import QtGui

from bloomviz.gui import theme, theme_views
from bloomviz.gui.compare_tab.view import CompareView
from bloomviz.gui.explorer_tab.plots import FpVsKPlot
from bloomviz.gui.widgets.grid_axis import BENEATH_VIEW_Z, GridAxis


def _explorer(qtbot):
    plot = FpVsKPlot()
    qtbot.addWidget(plot)
    plot.resize(900, 600)
    plot.show_design(32, 3, 8)      # log y
    plot.show()
    qtbot.waitExposed(plot)
    return plot, plot.plot_widget


def _compare(qtbot):
    view = CompareView()
    qtbot.addWidget(view)
    view.resize(1300, 800)
    view.show()
    qtbot.waitExposed(view)
    return view, view.plot


@pytest.mark.parametrize("make", [_explorer, _compare], ids=["explorer", "compare"])
def test_the_grid_is_opaque_beneath_the_curves_and_follows_the_theme(qtbot, make):
    root, widget = make(qtbot)
    item = widget.getPlotItem()
    for side in ("left", "bottom"):
        axis = item.getAxis(side)
        assert isinstance(axis, GridAxis) and axis.grid is not False
        assert axis.zValue() == BENEATH_VIEW_Z < item.getViewBox().zValue()
        assert axis._opaque(QtGui.QPen(QtGui.QColor(0, 0, 0, 64))).color().alpha() == 255
    dark = QtGui.QColor(theme.VIEW_COLOURS[True]["background"])
    theme_views.apply(root, True)
    light_line = QtGui.QColor(0, 0, 0, 64)
    mixed_dark = item.getAxis("left")._opaque(QtGui.QPen(light_line)).color()
    assert mixed_dark.alpha() == 255 and mixed_dark.lightness() <= dark.lightness() + 1   # on the dark background
    theme_views.apply(root, False)
    assert item.getAxis("left")._opaque(QtGui.QPen(light_line)).color().lightness() > 150


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="counts the GUI thread's context switches "
                    "with getrusage(RUSAGE_THREAD), which is Linux's")
@pytest.mark.parametrize("make", [_explorer, _compare], ids=["explorer", "compare"])
def test_a_paint_hands_no_work_to_qts_thread_pool(qtbot, make):
    root, widget = make(qtbot)      # (the root held: the plot is its child)
    widget.grab()
    before = resource.getrusage(resource.RUSAGE_THREAD).ru_nvcsw
    for _ in range(5):
        widget.grab()
    switches = resource.getrusage(resource.RUSAGE_THREAD).ru_nvcsw - before
    assert switches <= 20 and root.isVisible(), f"{switches} voluntary context switches in 5 paints"
