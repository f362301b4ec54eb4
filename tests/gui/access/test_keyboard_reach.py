"""Every feature by keyboard (issue 25, item 3): on every tab, pressing Tab from the tab bar visits every
control a user can act on and comes back round (no table or item box keeps the keyboard); presenter mode and
the window's dialogs too; and the focus is seen where it is, in both themes."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtGui, QtWidgets
from PySide6.QtTest import QTest

from bloomviz.gui.access import names
from bloomviz.gui.files import file_dialogs
from bloomviz.gui.window import help_pages

TABS = ("filter", "start", "lesson", "explorer", "compare", "setops", "foreign")
TAB = QtCore.Qt.FocusPolicy.TabFocus
# Read, not operated: the lesson's text is turned by Next/Back (Space, PageDown) and read by a screen reader by
# its name; taking Tab it would take the clicker's keys too (lesson_tab/view.py).
NOT_A_STOP = {"LessonTextBrowser"}


pytestmark = pytest.mark.window(probes=100, parts=True, size=(1440, 900))


@pytest.fixture
def window(window):
    """The shared window (tests/conftest.py), a few items in it and a lookup made, active for the keys."""
    window.wb.insert_batch([f"word{i}" for i in range(30)])
    window.wb.lookup("never inserted")
    window.activateWindow()
    return window


def _controls(root: QtWidgets.QWidget) -> list[QtWidgets.QWidget]:
    """What a user acts on, shown now (a scroll bar scrolls what its focused neighbour shows; a tab bar's
    scroll arrows move what its own arrow keys move)."""
    return [w for w in root.findChildren(QtWidgets.QWidget)
            if isinstance(w, names.INTERACTIVE) and not isinstance(w, QtWidgets.QScrollBar)
            and not isinstance(w.parentWidget(), QtWidgets.QTabBar)
            and not names.qt_internal(w) and type(w).__name__ not in NOT_A_STOP
            and w.isVisible() and w.isEnabled() and w.window() is root.window()]


def _walk(qtbot, start: QtWidgets.QWidget, limit: int = 300) -> list[QtWidgets.QWidget]:
    """The widgets Tab visits from ``start`` until it is back there; fails where Tab stays put."""
    start.setFocus(QtCore.Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(lambda: QtWidgets.QApplication.focusWidget() is start)
    seen = []
    for _ in range(limit):
        here = QtWidgets.QApplication.focusWidget()
        QTest.keyClick(here, QtCore.Qt.Key.Key_Tab)
        there = QtWidgets.QApplication.focusWidget()
        assert there is not here, f"Tab stays in {type(here).__name__} {here.accessibleName()!r}"
        if there is start:
            return seen
        seen.append(there)
    raise AssertionError(f"Tab did not come back round in {limit} presses")


def _missed(controls, seen) -> list[str]:
    reached = set(map(id, seen))
    missed = []
    for w in controls:
        if id(w) in reached:
            continue
        # an exclusive group of radio buttons is one stop: Tab reaches the checked one, the arrows the others
        group = [b for b in w.parentWidget().findChildren(QtWidgets.QRadioButton)] if isinstance(
            w, QtWidgets.QRadioButton) and w.autoExclusive() else []
        if any(id(b) in reached for b in group):
            continue
        missed.append(f"{type(w).__name__} {w.accessibleName()!r} (focus policy {w.focusPolicy().name})")
    return missed


def test_tab_reaches_every_control_of_every_view(window, qtbot):
    """One window through its seven views (a window each would take seven times as long)."""
    for tab in TABS:
        window.show_tab(tab)
        view = window.tab_view(tab)
        qtbot.waitUntil(lambda: view.isVisible())
        controls = _controls(window)
        assert len(controls) >= 5, tab
        no_tab = [f"{type(w).__name__} {w.accessibleName()!r}" for w in controls if not w.focusPolicy() & TAB]
        assert not no_tab, f"{tab}: controls Tab cannot reach: {no_tab}"
        seen = _walk(qtbot, window.tabs.tabBar())
        assert all(w.isVisible() for w in seen), f"{tab}: Tab visited a hidden widget"
        assert not _missed([w for w in controls if w is not window.tabs.tabBar()], seen), tab


def test_presenter_mode_keeps_the_keyboard_on_what_it_shows(window, qtbot):
    view = window.lesson_view
    view.load_builtin("1")
    window.presenter.enter()
    qtbot.waitUntil(lambda: QtWidgets.QApplication.focusWidget() is view)
    for _ in range(10):                # Tab never lands on a control the full screen hides
        QTest.keyClick(QtWidgets.QApplication.focusWidget(), QtCore.Qt.Key.Key_Tab)
        assert QtWidgets.QApplication.focusWidget().isVisible()
    QTest.keyClick(QtWidgets.QApplication.focusWidget(), QtCore.Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not window.presenter.active)


def _dialogs(window):
    from bloomviz.gui.filter_tab.find_fp import FindFalsePositiveDialog
    find = window.findChild(FindFalsePositiveDialog, "findFalsePositiveDialog")
    find.show()
    yield find
    find.hunt.cancel()
    find.close()
    for box in (file_dialogs.unsaved_box(window, "Discard the changes?"),
                file_dialogs.message_box(window, "Not opened", "not a .bloom file", "details"),
                help_pages.show_settings_place(window, "/tmp/settings.ini")):
        box.show()
        yield box
        box.close()


def test_tab_reaches_every_button_of_the_windows_dialogs(window, qtbot):
    made = 0
    for dialog in _dialogs(window):
        qtbot.waitExposed(dialog)
        dialog.activateWindow()
        controls = _controls(dialog)
        assert controls and all(w.focusPolicy() & TAB for w in controls), dialog.windowTitle()
        made += 1
        if len(controls) == 1:          # one button: it has the focus, there is nowhere else to go
            continue
        seen = _walk(qtbot, controls[0])
        assert not _missed(controls[1:], seen + [controls[0]]), dialog.windowTitle()
    assert made == 4


def _around(widget: QtWidgets.QWidget) -> QtGui.QImage:
    """The window's picture of ``widget`` and a few pixels round it (where a focus ring is drawn)."""
    QtWidgets.QApplication.processEvents()
    QtWidgets.QApplication.processEvents()      # the ring follows on the next turn of the event loop
    window = widget.window()
    return window.grab(QtCore.QRect(widget.mapTo(window, QtCore.QPoint(0, 0)), widget.size()).adjusted(
        -3, -3, 3, 3)).toImage()


def test_the_focus_is_seen_in_both_themes(window, qtbot):
    """Each kind of control looks different with the keyboard's focus than without, light and dark."""
    window.show_tab("filter")
    kinds = {"button": window.item_panel.insert_button, "field": window.item_panel.line,
             "combo box": window.autoplay_panel.findChild(QtWidgets.QComboBox),
             "check box": window.plot.check_boxes[0], "table": window.history_panel,
             "grid": window.grid.graphics_widget, "plot": window.plot.graphics}
    try:
        for dark in (False, True):
            window.set_dark(dark, remember=False)
            bar = window.tabs.tabBar()
            bar.setFocus()
            qtbot.waitUntil(lambda: QtWidgets.QApplication.focusWidget() is bar)
            before = {kind: _around(widget) for kind, widget in kinds.items()}
            looked = set()
            for _ in range(120):            # Tab through the chain, as a keyboard user goes, looking at each
                QTest.keyClick(QtWidgets.QApplication.focusWidget(), QtCore.Qt.Key.Key_Tab)
                here = QtWidgets.QApplication.focusWidget()
                for kind, widget in kinds.items():
                    if here is widget:
                        assert _around(widget) != before[kind], f"{kind}: focus not drawn (dark={dark})"
                        looked.add(kind)
                if here is bar:
                    break
            assert looked == set(kinds), f"never focused: {set(kinds) - looked} (dark={dark})"
    finally:
        window.set_dark(False, remember=False)
