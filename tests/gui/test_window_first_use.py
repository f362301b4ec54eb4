"""What a new user met in the window (issue 13): each as they would meet it, through keys, panels and tabs."""

from __future__ import annotations

import os
from collections import Counter

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtGui, QtWidgets
from PySide6.QtTest import QTest
from window_helpers import settle



pytestmark = pytest.mark.window(parts=True, confirm=True)


@pytest.fixture
def win(window):
    """The shared window (tests/conftest.py), every part installed, nothing asked."""
    window.file_actions.maybe_discard = lambda action: True
    return window


def test_ctrl_l_in_the_item_box_looks_the_item_up(win, qtbot):
    win.activateWindow()
    win.show_tab("filter")
    win.item_panel.line.setFocus()
    qtbot.waitUntil(lambda: QtWidgets.QApplication.focusWidget() is win.item_panel.line)
    win.item_panel.line.setText("never inserted")
    # through the window, as a key press reaches it (shortcuts are resolved there, not in the line edit)
    QTest.keyClick(win.windowHandle(), QtCore.Qt.Key.Key_L, QtCore.Qt.KeyboardModifier.ControlModifier)
    assert [e.op for e in win.wb.history] == ["lookup"]
    assert "never inserted" in win.item_panel.verdict_text


def test_no_key_is_bound_twice(win):
    # Among the shortcuts enabled at the same time: two of them on one key make it ambiguous, and Qt runs none.
    keys = Counter()
    for act in win.findChildren(QtGui.QAction):
        for seq in act.shortcuts() if act.isEnabled() else ():
            if not seq.isEmpty():
                keys[seq.toString()] += 1
    for shortcut in win.findChildren(QtGui.QShortcut):
        if shortcut.isEnabled() and not shortcut.key().isEmpty():
            keys[shortcut.key().toString()] += 1
    assert [key for key, n in keys.items() if n > 1] == []


def test_a_refusal_says_refused_once(win):
    win.item_panel.line.setText("")
    win.item_panel.insert()
    text = win.item_panel.verdict_text
    assert text.startswith("Refused: ") and "Refused" not in text[len("Refused: "):]


def test_a_new_filter_starts_without_the_old_verdict(win):
    assert win.wb.configure(variant="counting", m=64, k=3, counter_bits=4)
    for word in ("a", "b", "c", "d", "e", "f"):
        win.wb.insert(word)
    victim = next(f"x{i}" for i in range(10_000) if f"x{i}" in win.wb.filter and not win.wb.is_member(f"x{i}"))
    win.item_panel.line.setText(victim)
    win.item_panel.remove()
    win.wb.flush()      # (shown in the next turn of the event loop)
    assert win.item_panel.verdict_text.startswith("FORCED")
    win.params_panel.apply()
    assert win.item_panel.verdict_text == ""
    win.wb.insert("new")
    win.wb.reset()
    assert win.item_panel.verdict_text == ""


def test_removing_an_item_with_a_zero_counter_offers_nothing_to_confirm(win):
    assert win.wb.configure(variant="counting", m=256, k=3, counter_bits=4)
    win.wb.insert("present")
    absent = next(f"y{i}" for i in range(1000) if f"y{i}" not in win.wb.filter)
    asked = []
    win.item_panel.confirm = lambda question: asked.append(question) or True
    win.item_panel.line.setText(absent)
    win.item_panel.remove()
    text = win.item_panel.verdict_text
    assert asked == [] and "confirm" not in text and "definitely not in the set" in text
    assert len(win.wb.filter) == 1 and len(win.wb.history) == 1


def test_after_a_scenario_the_filter_panel_shows_its_design(win, qtbot):
    scenario = win.scenarios.runner.get("urls")
    design = scenario.design()
    with qtbot.waitSignal(win.scenarios.runner.finished, timeout=60_000):
        win.scenarios.run("urls")
    panel = win.params_panel
    assert panel.m_edit.text() == str(design.m) and panel.n_edit.text() == str(design.capacity)
    assert abs(float(panel.p_edit.text()) - design.p) <= 0.1 * design.p


def test_history_shows_every_column_and_whole_labels(win, qtbot):
    win.resize(1440, 900)
    win.default_layout()
    win.wb.insert("well-known-hyphenated-item")
    table = win.history_panel
    qtbot.waitUntil(lambda: table.model().rowCount() == 1)
    settle(qtbot, win)
    assert not table.wordWrap()
    last = table.model().columnCount() - 1
    assert table.columnViewportPosition(last) < table.viewport().width()


def test_dark_theme_reaches_every_tab(win):
    win.set_dark(True)
    views = [win.tab_view(key) for key in ("explorer", "compare", "setops")]
    plots = [p for v in views for p in v.findChildren(pg.PlotWidget)]
    assert plots
    for plot in plots:
        assert plot.backgroundBrush().color().lightnessF() < 0.3
    from bloomviz.gui.widgets.grid import BitGridWidget
    grids = [g for v in views for g in v.findChildren(BitGridWidget)]
    assert grids and all(g.style.background == win.grid.style.background for g in grids)
    win.set_dark(False)
    for plot in plots:
        assert plot.backgroundBrush().color().lightnessF() > 0.9


def test_history_never_shows_a_count_cut_short(win, qtbot):
    """A million inserts make n seven digits wide: its column grows so that '1,000,000' is never '1,00…'."""
    win.resize(1440, 900)
    win.default_layout()
    win.wb.insert_batch([f"w{i}" for i in range(120_000)])
    win.wb.insert("one more")
    table = win.history_panel
    qtbot.waitUntil(lambda: table.columnWidth(4) >= table.fontMetrics().horizontalAdvance("120,001"), timeout=2000)
    for col in table.NUMBER_COLUMNS:
        text = table.model().index(table.model().rowCount() - 1, col).data()
        assert table.fontMetrics().horizontalAdvance(str(text)) < table.columnWidth(col), (col, text)
