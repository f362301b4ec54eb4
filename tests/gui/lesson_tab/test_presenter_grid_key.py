"""Presenter mode's grid key is as high as its lines, after the window is resized and the text size changed: the
key under lesson 1's grid at 250 % on 1280 x 720 showed its two lines, a blank third and a scroll bar (its height
fitted at another width and font, ``GridLegend._fit_height``)."""

from __future__ import annotations

import pytest
from PySide6 import QtCore

from bloomviz.gui.widgets.grid.legend import MAX_LINES
from window_helpers import settle

pytestmark = pytest.mark.window(probes=200, parts=True, font_scale=2.5)


def _fits(legend) -> bool:
    full = legend.contentsRect().width()
    need = legend.label.heightForWidth(full)
    most = MAX_LINES * legend.label.fontMetrics().lineSpacing() + 6
    return need <= most and legend.height() == need and not legend.verticalScrollBar().isVisible()


def test_the_presenters_grid_key_keeps_no_blank_line_after_a_resize(window, qtbot):
    window.show_tab("lesson")
    view = window.lesson_view
    assert view.load_builtin("01-what-is-a-bloom-filter")
    view.go_to(3)
    window.presenter.enter()
    window.setWindowState(window.windowState() & ~QtCore.Qt.WindowState.WindowFullScreen)
    legend = view.legend
    for size in ((1600, 900), (1280, 720)):
        window.setGeometry(0, 0, *size)
        qtbot.waitUntil(lambda: (window.width(), window.height()) == size)
        settle(qtbot, view)
        assert legend.isVisible() and legend.label.text()
        assert _fits(legend)
    window.presenter.leave()
