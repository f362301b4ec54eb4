"""The live plot's parts are made when it is first shown or first needed (plot/parts.py), and it then shows
exactly what a plot built at once shows for the same calls: a window opened on the Start page no longer makes
the Filter tab's four plots before its first paint."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
import pytest
from PySide6 import QtGui, QtWidgets

from bloomviz.gui.filter_tab.plot import FpPlotWidget
from test_fp_plot import FakeSeries
from window_helpers import settle

SIZE = (900, 640)


def _configure(plot: FpPlotWidget, series) -> None:
    """Every setter the window calls before the plot is shown, with values that differ from the defaults."""
    plot.set_series(series)
    plot.set_capacity(180)
    plot.set_reference(0.02, "compound bound p")
    plot.set_theory_label("theory: exact, this variant")
    plot.set_curve_visible("fp_bound", False)
    plot.set_log_y(True)
    plot.set_show_fill(True)
    plot.set_theme(True)
    plot.set_font_scale(1.25)


def _shown(qtbot, plot: FpPlotWidget) -> QtGui.QImage:
    plot.resize(*SIZE)
    plot.show()
    qtbot.waitExposed(plot)
    settle(qtbot, plot)
    return plot.grab().toImage()


def test_the_parts_wait_for_the_first_showing_and_then_draw_what_was_set(qtbot):
    series = FakeSeries(400)
    later, at_once = FpPlotWidget(), FpPlotWidget()
    for plot in (later, at_once):
        qtbot.addWidget(plot)
    at_once.build()
    for plot in (later, at_once):
        _configure(plot, series)
    assert at_once.built and not later.built, "set, not shown: nothing made yet"
    assert later.findChildren(QtWidgets.QGraphicsView) == []
    assert later.dark and later.log_y and later.show_fill and later.font_scale == 1.25   # the state is kept
    assert later.drawn_n == at_once.drawn_n == int(series.column("n")[-1])

    picture = _shown(qtbot, later)
    assert later.built
    assert [box.isChecked() for box in later.check_boxes] == [True, True, False]
    assert later.plot_item.getViewBox().state["logMode"][1]
    assert later.capacity_line.isVisible() and later.capacity_line.value() == 180
    assert not later.curve("fp_bound").isVisible() and later.curve("fp_exact").isVisible()
    assert later.entry_texts() == at_once.entry_texts()
    assert "compound bound p" in later.entry_texts() and "theory: exact, this variant" in later.entry_texts()
    for key in ("fp_measured", "fp_exact", "fill", "fill_expected"):
        for mine, theirs in zip(later.curve(key).getData(), at_once.curve(key).getData()):
            np.testing.assert_array_equal(mine, theirs)
    assert later.readout_text() == at_once.readout_text()
    # the whole picture: legend placement, colours, text sizes, the fill plot under the rate plot
    assert picture == _shown(qtbot, at_once), "the plot built on its showing looks different"


def test_a_call_that_needs_an_item_builds_the_plot(qtbot):
    plot = FpPlotWidget()
    qtbot.addWidget(plot)
    plot.set_capacity(50)
    assert not plot.built
    line = plot.capacity_line            # the window and the tests reach the items directly
    assert plot.built and line.value() == 50 and "measured" in plot.entry_texts()


def test_a_refused_value_is_refused_before_the_plot_is_built(qtbot):
    plot = FpPlotWidget()
    qtbot.addWidget(plot)
    with pytest.raises(ValueError, match="font scale"):
        plot.set_font_scale(20)
    with pytest.raises(ValueError, match="reference rate"):
        plot.set_reference(-1.0)
    with pytest.raises(KeyError, match="no curve"):
        plot.set_curve_visible("fp_nonsense", False)
    assert plot.font_scale == 1.0 and plot.reference is None and not plot.built


def test_redraws_before_the_build_still_tell_the_panels_the_n(qtbot):
    plot = FpPlotWidget()
    qtbot.addWidget(plot)
    told = []
    plot.redrawn.connect(told.append)
    series = FakeSeries(25)
    plot.set_series(series)
    assert told == [24] and not plot.built
    series.grow(10)
    plot.refresh()
    qtbot.waitUntil(lambda: told[-1] == 34)
    assert not plot.built
