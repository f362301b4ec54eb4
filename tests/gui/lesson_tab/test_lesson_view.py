"""The Lesson tab and presenter mode: steps forward and back exactly, the lesson's own filter on its grid, a
malformed lesson refused with its line, and full screen with a clicker's keys that gives every panel back."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore, QtWidgets

from bloomviz import lessons
from bloomviz.filters import bitstore
from bloomviz.gui.lesson_tab import view as lesson_view


pytestmark = pytest.mark.window(probes=200, size=(1280, 800), prepare=lesson_view.install)


def test_next_and_back_walk_the_first_lesson_exactly(window):
    view = window.lesson_view
    lesson = lessons.load_builtin("1")
    assert view.lesson.title == lesson.title and view.steps.count() == len(lesson.steps)
    assert view.next() and view.next()
    assert view.animation.kind == "slow"                 # step 2 inserts k1 slowly: Next steps to its end
    while view.animation.running:
        assert view.next()
    flt = view.runner.state.filter
    assert np.array_equal(view.grid.picture.ravel()[:flt.m], bitstore.unpack(flt.bits))
    assert view.progress.text() == f"step 2 of {len(lesson.steps)}"
    assert lesson.steps[1].title in view.narration.toPlainText()
    picture = view.grid.picture.copy()
    view.next()
    assert view.back()                                   # back to step 2: the same bits, the same words
    assert np.array_equal(view.grid.picture, picture) and view.progress.text().startswith("step 2 ")
    assert window.wb.filter.bits_set == 0                # the window's own filter is never touched


def test_every_built_in_lesson_plays_to_its_end_in_the_window(window):
    view = window.lesson_view
    for i in range(view.choice.count()):
        assert view.load_builtin(view.choice.itemData(i))
        view.go_to(len(view.lesson.steps))
        assert view.runner.finished and not view.next_button.isEnabled()


def test_a_malformed_lesson_is_refused_with_its_line_and_the_lesson_kept(window, tmp_path):
    view = window.lesson_view
    title = view.lesson.title
    bad = tmp_path / "bad.md"
    bad.write_text("# A lesson\n\n## Step\n\n```bloomviz\nfilter m=64 k=3\ninsert\nfrobnicate x\n```\n")
    assert view.open_path(str(bad)) and view.opening.wait() is False
    assert "bad.md:" in view.message.text() and view.lesson.title == title


def test_presenter_mode_full_screen_keys_blank_and_back(window, qtbot):
    view, presenter = window.lesson_view, window.presenter
    docks_before = [d.objectName() for d in window.findChildren(QtWidgets.QDockWidget) if d.isVisible()]
    presenter.enter()
    assert presenter.active and window.isFullScreen() and not window.menuBar().isVisible()
    assert not any(d.isVisible() for d in window.findChildren(QtWidgets.QDockWidget))
    assert window.tabs.currentWidget().widget() is view
    before = view.runner.position
    qtbot.keyClick(window, QtCore.Qt.Key.Key_PageDown)
    qtbot.keyClick(window, QtCore.Qt.Key.Key_Space)
    assert view.runner.position == before + 2
    qtbot.keyClick(window, QtCore.Qt.Key.Key_Left)
    assert view.runner.position == before + 1
    qtbot.keyClick(window, QtCore.Qt.Key.Key_B)
    assert presenter.blanked
    qtbot.keyClick(window, QtCore.Qt.Key.Key_B)
    assert not presenter.blanked
    qtbot.keyClick(window, QtCore.Qt.Key.Key_Escape)
    assert not presenter.active and not window.isFullScreen() and window.menuBar().isVisible()
    assert sorted(d.objectName() for d in window.findChildren(QtWidgets.QDockWidget) if d.isVisible()) == \
        sorted(docks_before)


def test_view_reset_layout_puts_every_panel_back(window):
    docks = window.findChildren(QtWidgets.QDockWidget)
    for dock in docks[:3]:
        dock.setFloating(True)
    docks[3].hide()
    window.settings.setValue("window/state", window.saveState())
    window.reset_layout()
    assert not any(d.isFloating() for d in docks)
    assert all(d.isVisible() for key, d in window.docks.items() if key in window._default_docks)
    assert window.settings.value("window/state") is None
