"""The Explorer's and Compare's plots keep a readable least size at 250 % text on a 1280 x 720 projector
(gui/widgets/plot_room.py): their data areas had 26 px and ~40 px, the measure controls and Compare's note were
drawn over them. Now each data area is several lines of text high, nothing beside a plot overlaps it (the view
scrolls instead), Compare's lanes above its plot show their titles and grids, and at 100 % nothing scrolls."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.gui.widgets import plot_room
from window_helpers import settle

pytestmark = pytest.mark.window(probes=100, parts=True, size=(1280, 720))
DATA_LINES = 5      # the least data area, in lines of the window's text


def _rect(widget, view) -> QtCore.QRect:
    return QtCore.QRect(widget.mapTo(view, QtCore.QPoint(0, 0)), widget.size())


def _lines(px: float) -> float:
    return px / QtGui.QFontMetrics(QtWidgets.QApplication.font()).lineSpacing()


def _shown(window, qtbot, key):
    window.show_tab(key)
    view = window.tab_view(key)
    qtbot.waitUntil(view.isVisible)
    settle(qtbot, window, view)
    return view


def test_the_least_follows_the_text_size(qtbot):
    small, large = QtGui.QFont(), QtGui.QFont()
    small.setPointSizeF(10)
    large.setPointSizeF(25)
    a, b = plot_room.readable_size(small), plot_room.readable_size(large)
    assert b.height() > 2 * a.height() and b.width() > 2 * a.width()


def _explorer_at_250(window, qtbot) -> None:
    view = _shown(window, qtbot, "explorer")
    plot = view.k_plot
    data = plot.plot_item.getViewBox()
    assert _lines(data.height()) >= DATA_LINES, data.height()
    drawn = _rect(plot.plot_widget, view)
    for other in (plot.readout, plot.export_button, view.k_measure):
        assert not drawn.intersects(_rect(other, view)), (type(other).__name__, drawn, _rect(other, view))
    assert _rect(plot.readout, view).bottom() < _rect(view.k_measure, view).top()


def _compare_at_250(window, qtbot) -> None:
    """Its plot readable, its note below it, and the lanes above it showing their first row's titles and grids
    (the plot's least height had left the lanes' strip 70 px: half a title, no grid)."""
    view = _shown(window, qtbot, "compare")
    view.cancel()
    data = view.plot.getPlotItem().getViewBox()
    assert _lines(data.height()) >= DATA_LINES, data.height()
    note = _rect(view.plot_note, view)
    assert _rect(view.plot, view).bottom() < note.top()
    assert view.plot_note.heightForWidth(view.plot_note.width()) <= view.plot_note.height()
    strip = view.lane_box.parentWidget().parentWidget()
    first = view.lane_box.shown()[0]
    assert strip.height() >= view.lane_box.least_shown() > first.grid.minimumHeight(), strip.height()
    grid = QtCore.QRect(first.grid.mapTo(strip.viewport(), QtCore.QPoint(0, 0)), first.grid.size())
    assert grid.intersected(strip.viewport().rect()).height() >= first.grid.minimumHeight() - 2, grid


@pytest.mark.window(font_scale=2.5)
def test_at_250_percent_the_plots_are_readable_and_at_100_percent_nothing_scrolls(window, qtbot):
    """One window through both views at 250 % and back at 100 % (four windows took 29 s under load)."""
    _explorer_at_250(window, qtbot)
    _compare_at_250(window, qtbot)
    window.set_font_scale(1.0)
    for key in ("explorer", "compare"):
        _shown(window, qtbot, key)
        holder = window.tabs.currentWidget()
        qtbot.waitUntil(lambda: holder.verticalScrollBar().maximum() == 0, timeout=5_000)
