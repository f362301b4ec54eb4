"""The plots' tick labels in the window's language: pyqtgraph's own axes (the explorer's, Compare's) and the live
plot's items axis write 0,0003 and 1,5M in Croatian, 0.0003 and 1.5M in English."""

from __future__ import annotations

import pyqtgraph as pg
import pytest

from bloomviz import i18n
from bloomviz.gui import axis_numbers


@pytest.fixture
def croatian():
    axis_numbers.install()
    i18n.use("hr")
    yield
    i18n.use("en")


def test_pyqtgraphs_axes_write_the_languages_decimal_mark(qtbot, croatian):
    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    left = plot.getAxis("left")
    assert left.tickStrings([0.0001, 0.0002, 0.0003], 1.0, 0.0001) == ["0,0001", "0,0002", "0,0003"]
    plot.setLogMode(y=True)
    assert left.tickStrings([-3.0, -2.0], 1.0, 1.0) == ["0,001", "0,01"]       # a log axis' decades too
    i18n.use("en")
    plot.setLogMode(y=False)
    assert left.tickStrings([0.0001, 0.0002], 1.0, 0.0001) == ["0.0001", "0.0002"]
    assert axis_numbers.installed()


def test_the_live_plots_items_axis_too(qtbot, croatian):
    from bloomviz.gui.filter_tab.plot.items import new_plot
    bottom = new_plot().getAxis("bottom")
    assert bottom.tickStrings([1_000_000, 1_500_000, 2_000_000], 1.0, 500_000) == ["1,0M", "1,5M", "2,0M"]
    left = new_plot().getAxis("left")
    assert left.tickStrings([0.5, 1.0], 1.0, 0.5) == ["0,5", "1,0"]


def test_the_window_installs_it(qtbot, tmp_path, monkeypatch):
    from window_helpers import new_window
    monkeypatch.setattr(pg.AxisItem, "tickStrings", axis_numbers._PYQTGRAPH_TICKS)     # as pyqtgraph has it
    assert not axis_numbers.installed()
    new_window(qtbot, tmp_path, probes=50)
    assert axis_numbers.installed()
