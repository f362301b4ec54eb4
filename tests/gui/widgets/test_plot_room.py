"""The Explorer's and Compare's plots keep a readable least size at 250 % text on a 1280 x 720 projector
(gui/widgets/plot_room.py): their data areas had 26 px and ~40 px, the measure controls and Compare's note were
drawn over them. Now each data area is several lines of text high, nothing beside a plot overlaps it (the view
scrolls instead), and at 100 % nothing scrolls."""

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


@pytest.mark.window(font_scale=2.5)
def test_the_explorers_plot_is_readable_and_nothing_lies_over_it(window, qtbot):
    view = _shown(window, qtbot, "explorer")
    plot = view.k_plot
    data = plot.plot_item.getViewBox()
    assert _lines(data.height()) >= DATA_LINES, data.height()
    drawn = _rect(plot.plot_widget, view)
    for other in (plot.readout, plot.export_button, view.k_measure):
        assert not drawn.intersects(_rect(other, view)), (type(other).__name__, drawn, _rect(other, view))
    assert _rect(plot.readout, view).bottom() < _rect(view.k_measure, view).top()


@pytest.mark.window(font_scale=2.5)
def test_compares_plot_is_readable_and_its_note_lies_below_it(window, qtbot):
    view = _shown(window, qtbot, "compare")
    view.cancel()
    data = view.plot.getPlotItem().getViewBox()
    assert _lines(data.height()) >= DATA_LINES, data.height()
    note = _rect(view.plot_note, view)
    assert _rect(view.plot, view).bottom() < note.top()
    assert view.plot_note.heightForWidth(view.plot_note.width()) <= view.plot_note.height()


@pytest.mark.parametrize("key", ["explorer", "compare"])
def test_at_100_percent_the_views_do_not_scroll(window, qtbot, key):
    _shown(window, qtbot, key)
    holder = window.tabs.currentWidget()
    assert holder.verticalScrollBar().maximum() == 0
