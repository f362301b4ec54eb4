"""The plots' grid (widgets/grid_axis.py): opaque lines in the colour the translucent grid showed on the theme's
background, through every number on the axes in the linear and the log scale, and a paint of the plot that
hands no work to Qt's thread pool (the translucent lines did, 100-650 times a paint: issue 23's stalls)."""

import os
import resource
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pyqtgraph as pg
import pytest
from PySide6 import QtGui

from bloomviz.gui.filter_tab.plot import FpPlotWidget
from bloomviz.gui.widgets.grid_axis import GridAxis, mixed
from bloomviz.gui.filter_tab.plot.style import THEMES
from test_fp_plot import FakeSeries


def _plot(qtbot, dark: bool, log_y: bool) -> FpPlotWidget:
    plot = FpPlotWidget()
    qtbot.addWidget(plot)
    plot.set_series(FakeSeries(400))
    plot.set_theme(dark)
    plot.set_log_y(log_y)
    plot.resize(900, 600)
    plot.show()
    qtbot.waitExposed(plot)
    return plot


def _drawn(monkeypatch, plot: FpPlotWidget, axis: GridAxis):
    """What the axis hands pyqtgraph to draw on its next paint: (grid lines, labels)."""
    seen = []
    draw = pg.AxisItem.drawPicture

    def noted(self, p, axis_spec, ticks, texts):
        seen.append((self, ticks, texts))
        draw(self, p, axis_spec, ticks, texts)
    monkeypatch.setattr(pg.AxisItem, "drawPicture", noted)
    axis.picture = None
    plot.grab()
    monkeypatch.undo()
    return next((ticks, texts) for item, ticks, texts in seen if item is axis)


def test_mixed_is_the_colour_a_translucent_one_shows_on_the_background():
    shown = mixed(QtGui.QColor(0, 0, 0, 64), QtGui.QColor("#ffffff"))
    assert shown.alpha() == 255
    assert (shown.red(), shown.green(), shown.blue()) == pytest.approx((191, 191, 191), abs=1)


@pytest.mark.parametrize("dark, log_y", [(False, False), (True, True)])
def test_grid_lines_are_opaque_and_run_through_every_number_on_both_axes(qtbot, monkeypatch, dark, log_y):
    plot = _plot(qtbot, dark, log_y)
    item = plot.plot_item
    assert item.getViewBox().state["logMode"][1] == log_y
    background = QtGui.QColor(THEMES[dark]["background"])
    for side, along in (("left", 1), ("bottom", 0)):
        axis = item.getAxis(side)
        assert isinstance(axis, GridAxis) and axis.grid is not False
        ticks, texts = _drawn(monkeypatch, plot, axis)
        assert ticks and texts, side
        for pen, _, _ in ticks:
            colour = pen.color()
            assert colour.alpha() == 255, side
            assert colour != background   # a line that would show as the background is left out
        across = 1 - along
        view = axis.mapRectFromItem(item.getViewBox(), item.getViewBox().boundingRect())
        positions = []
        for _, p1, p2 in ticks:
            assert p1[along] == pytest.approx(p2[along])
            # The line crosses the whole view (it starts at the view's far edge and ends at the axis).
            assert {round(p1[across]), round(p2[across])} & {round(view.left() if along else view.top()),
                                                              round(view.right() if along else view.bottom())}
            positions.append(p1[along])
        for rect, _, text in texts:    # each number shown has its grid line through it, in either scale
            centre = rect.center().y() if along else rect.center().x()
            assert min(abs(centre - pos) for pos in positions) <= 1.5, (side, text)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="counts the GUI thread's context switches "
                    "with getrusage(RUSAGE_THREAD), which is Linux's")
def test_a_paint_of_the_plot_hands_no_work_to_qts_thread_pool(qtbot):
    plot = _plot(qtbot, dark=False, log_y=True)
    plot.grab()
    before = resource.getrusage(resource.RUSAGE_THREAD).ru_nvcsw
    for _ in range(5):
        plot.grab()
    switches = resource.getrusage(resource.RUSAGE_THREAD).ru_nvcsw - before
    # A translucent grid waited on the pool 300-650 times a paint of this plot; opaque lines, none.
    assert switches <= 20, f"{switches} voluntary context switches in 5 paints"
