"""Text at 100-250 % in a 1280 x 800 window (issue 14): the window keeps its size, every main widget lies
inside it, the grid keeps a share of it, and the wrapped texts around the grid and the plot are not cut."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6 import QtCore

from bloomviz.gui.window import docks
from window_helpers import settle

SIZE = (1280, 800)
GRID_SHARE = 0.15      # of the window's area, at any text size (at 250 % it was 172 x 462 px: 7.8 %)
GRID_SIDE = 250        # px: the shorter side of the grid's view


pytestmark = pytest.mark.window(probes=500, size=SIZE)


@pytest.fixture
def window(window):
    """The shared window (tests/conftest.py) with 300 items and a lookup in it."""
    window.wb.insert_batch([f"word{i}" for i in range(300)])
    window.wb.lookup("never inserted")
    return window


def _rect_in_window(win, widget) -> QtCore.QRect:
    return QtCore.QRect(widget.mapTo(win, QtCore.QPoint(0, 0)), widget.size())


@pytest.mark.parametrize("scale", [1.0, 1.5, 1.75, 2.0, 2.5])
def test_text_size_keeps_the_window_and_the_grid(qtbot, window, scale):
    window.set_font_scale(scale)
    window.resize(*SIZE)
    settle(qtbot, window)
    win = window
    assert (win.width(), win.height()) == SIZE, "the window grew past the screen it was made for"
    assert win.minimumSizeHint().width() <= SIZE[0] and win.minimumSizeHint().height() <= SIZE[1]
    inside = win.rect()
    shown = [win.grid, win.grid_legend, win.statusBar(), win.menuBar()]
    # a dock behind another one's tab (the explanation beside the history at large text) is not on screen
    shown += [dock for dock in win.docks.values() if dock.isVisible() and not dock.visibleRegion().isEmpty()]
    if scale >= docks.LARGE_TEXT:   # the plot has the right column to itself, the explanation a tab by the history
        assert win.docks["explain"] in win.tabifiedDockWidgets(win.docks["history"])
    for widget in shown:
        rect = _rect_in_window(win, widget)
        assert inside.contains(rect), f"{widget.objectName() or type(widget).__name__} at {rect} is outside {inside}"
    grid = win.grid
    assert grid.width() * grid.height() >= GRID_SHARE * SIZE[0] * SIZE[1], (grid.width(), grid.height())
    assert min(grid.width(), grid.height()) >= GRID_SIDE
    # wrapped texts: the whole text fits the label (the plot's readout) or its scroll area (the grid's key)
    readout = win.plot.readout_label
    assert readout.heightForWidth(readout.width()) <= readout.height() + 1
    key = win.grid_legend.label
    assert key.heightForWidth(key.width()) <= key.height() + 1
    assert key.width() <= win.grid_legend.viewport().width()
    # the plot keeps its width (its height at 250 % is what the right column has left: about 40 px)
    data = win.plot.plot_item.getViewBox()
    assert data.width() >= 150 and data.height() > 0, (data.width(), data.height())


def test_the_explanation_returns_under_the_plot_below_large_text(qtbot, window):
    window.set_font_scale(2.5)
    assert window.docks["explain"] in window.tabifiedDockWidgets(window.docks["history"])
    window.set_font_scale(1.0)
    settle(qtbot, window)
    assert window.docks["explain"] not in window.tabifiedDockWidgets(window.docks["history"])
    assert window.dockWidgetArea(window.docks["explain"]) == window.dockWidgetArea(window.docks["plot"])
