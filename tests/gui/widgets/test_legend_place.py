"""Explorer plots put their legend where it hides the least of the curves (gui/widgets/legend_place.py): at 250 %
text on 1280 x 720 the rate-vs-k legend, anchored at the top middle, lay over the exact curve of k = 8-11."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore

from bloomviz.gui.widgets import legend_place
from window_helpers import settle

TOP_MIDDLE, TOP_LEFT = legend_place.PLACES[0], legend_place.PLACES[1]


def test_the_plots_own_place_wins_a_tie_and_loses_to_an_emptier_one():
    view, legend = QtCore.QSizeF(400, 300), QtCore.QSizeF(100, 60)
    nothing = np.empty((0, 2))
    assert legend_place.best_place(nothing, view, legend, (TOP_LEFT, TOP_MIDDLE)) == TOP_LEFT
    # a line across the top middle: the top left is emptier
    line = np.column_stack([np.linspace(150, 250, 51), np.full(51, 30.0)])
    assert legend_place.covered(line, legend_place.legend_rect(view, legend, TOP_MIDDLE)) == 51
    assert legend_place.best_place(line, view, legend, (TOP_MIDDLE, TOP_LEFT)) == TOP_LEFT


def test_a_steep_line_counts_by_its_length(qtbot):
    import pyqtgraph as pg
    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    widget.resize(300, 300)
    widget.plot([0, 1], [0, 100])      # two points, one long line
    widget.show()
    qtbot.waitExposed(widget)
    box = widget.getPlotItem().getViewBox()
    qtbot.waitUntil(lambda: not box.childGroup.transform().isIdentity())   # its range taken
    points = legend_place.curve_points(widget.getPlotItem())
    height = widget.getPlotItem().getViewBox().height()
    assert len(points) >= height / legend_place.STEP_PX - 2


@pytest.mark.window(probes=100, parts=True, size=(1280, 720), font_scale=2.5, first_filter=True)
def test_at_250_percent_the_rate_vs_k_legend_hides_none_of_its_curves(window, qtbot):
    window.show_tab("explorer")
    view = window.tab_view("explorer")
    plot = view.k_plot
    qtbot.waitUntil(lambda: plot.isVisible() and bool(plot.plot_item.listDataItems()))
    settle(qtbot, window, view, state=lambda: plot.legend_place.current)
    box = plot.plot_item.getViewBox().boundingRect().size()
    points = legend_place.curve_points(plot.plot_item)
    hidden = {place: legend_place.covered(points, legend_place.legend_rect(box, plot.legend.boundingRect().size(),
                                                                             place)) for place in plot.legend_place.places}
    # the fewest (the legend's sixth row, the (m/n)·ln 2 line's name, leaves no place at 250 % that hides none:
    # its corner covers one sampled point of one curve, where the line's own label crossed them from k = 3 to 8)
    assert hidden[plot.legend_place.current] == min(hidden.values()) <= 1, hidden
    assert hidden[TOP_MIDDLE] > 0, "the plot's own place would hide a curve here: the test shows no move"
    # the legend is drawn where the placer says
    drawn = plot.legend.mapRectToParent(plot.legend.boundingRect())
    expected = legend_place.legend_rect(box, plot.legend.boundingRect().size(), plot.legend_place.current)
    assert abs(drawn.left() - expected.left()) < 2 and abs(drawn.top() - expected.top()) < 2


def test_a_line_far_beyond_the_view_is_measured_by_the_part_in_view(qtbot):
    """A design of 10^9 bits drew a curve whose length in pixels asked 1.9 TiB of sample points."""
    import pyqtgraph as pg
    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    widget.resize(300, 300)
    widget.plot([0, 1e12], [0, 1e12])
    widget.setRange(xRange=(0, 1), yRange=(0, 1), padding=0)
    widget.show()
    qtbot.waitExposed(widget)
    box = widget.getPlotItem().getViewBox()
    qtbot.waitUntil(lambda: not box.childGroup.transform().isIdentity())
    points = legend_place.curve_points(widget.getPlotItem())
    assert 0 < len(points) <= 4 * (box.width() + box.height()) / legend_place.STEP_PX


def _hidden(plot_item, legend, places) -> dict:
    box = plot_item.getViewBox().boundingRect().size()
    points = legend_place.curve_points(plot_item)
    return {place: legend_place.covered(points, legend_place.legend_rect(box, legend.boundingRect().size(), place))
            for place in places}


@pytest.mark.window(probes=100, parts=True, size=(1280, 720), font_scale=2.5)
def test_compares_legend_moves_off_the_curves_when_a_run_ends(window, qtbot):
    window.show_tab("compare")
    view = window.tab_view("compare")
    qtbot.waitUntil(lambda: view.comparison is not None and not view.running, timeout=60_000)
    placer = view.legend_place
    settle(qtbot, window, view, state=lambda: placer.current)
    hidden = _hidden(view.plot.getPlotItem(), view.legend, placer.places)
    assert hidden[placer.current] == min(hidden.values()), hidden


def test_a_placer_goes_with_its_plot(qtbot):
    """A placer whose window was deleted with a place pending read curves already gone (a RuntimeError in the
    event loop of a later test): it is the plot's child, deleted with it."""
    import pyqtgraph as pg
    import shiboken6
    widget = pg.PlotWidget()
    widget.plot([0, 1], [0, 1])
    plot_item = widget.getPlotItem()
    placer = legend_place.LegendPlacer(plot_item, plot_item.addLegend(), ((0, 0), (0, 0), (10, 10)))
    placer.schedule()
    shiboken6.delete(widget)
    assert not shiboken6.isValid(placer)
    qtbot.wait(10)           # the pending place's turn: nothing left to run it
