"""Work the first screen does not need waits for the first paint (gui/timing.AfterFirstPaint): the window's
warm-up thread (numba's load, ~0.6 s mostly holding the interpreter's lock), which started from the event
loop's first turn ran beside that paint and delayed it, and the tabs the Start page does not show."""

import shiboken6
from PySide6 import QtCore, QtWidgets

from bloomviz.gui import extensions
from bloomviz.gui import workbench as adapter
from bloomviz.gui.timing import AfterFirstPaint
from window_helpers import new_window


class _Paints(QtCore.QObject):
    def __init__(self):
        super().__init__()
        self.count = 0

    def eventFilter(self, obj, event):  # noqa: N802 - Qt's name
        if event.type() == QtCore.QEvent.Type.Paint:
            self.count += 1
        return False


def test_a_callback_waits_for_the_first_paint_and_runs_once(qtbot):
    widget = QtWidgets.QLabel("painted")
    qtbot.addWidget(widget)
    paints = _Paints()
    widget.installEventFilter(paints)
    called = []
    watch = AfterFirstPaint(widget, lambda: called.append(paints.count))
    for _ in range(5):
        QtWidgets.QApplication.processEvents()
    assert called == [] and watch.waiting, "not shown, not painted: nothing ran"
    widget.show()
    qtbot.waitUntil(lambda: bool(called))
    assert called[0] >= 1 and not watch.waiting
    widget.update()
    qtbot.waitUntil(lambda: paints.count > called[0])
    QtWidgets.QApplication.processEvents()
    assert len(called) == 1


def test_the_warm_up_is_started_by_the_first_paint_of_a_shown_window(qtbot, monkeypatch):
    started = []
    monkeypatch.setattr(adapter, "_start_warm_up", lambda: started.append(True))
    monkeypatch.setattr(adapter, "_after_paint", [])
    widget = QtWidgets.QLabel("painted")
    qtbot.addWidget(widget)
    widget.show()
    adapter._watch_first_paint()
    assert not started and adapter._after_paint[0].waiting
    qtbot.waitUntil(lambda: bool(started))
    assert started == [True] and not adapter._after_paint[0].waiting
    widget.update()
    QtWidgets.QApplication.processEvents()
    assert started == [True], "once"


def test_the_application_itself_is_not_watched(qtbot, monkeypatch):
    """A Python event filter on the application sees every event of every object, those being destroyed too:
    PySide crashed in it."""
    monkeypatch.setattr(adapter, "_start_warm_up", lambda: None)
    widget = QtWidgets.QLabel("painted")
    qtbot.addWidget(widget)
    widget.show()
    before = len(QtWidgets.QApplication.instance().findChildren(AfterFirstPaint))
    adapter._watch_first_paint()
    assert len(QtWidgets.QApplication.instance().findChildren(AfterFirstPaint)) == before
    assert widget.findChildren(AfterFirstPaint)


def test_no_window_shown_starts_the_warm_up_at_once(qtbot, monkeypatch):
    started = []
    monkeypatch.setattr(adapter, "_start_warm_up", lambda: started.append(True))
    monkeypatch.setattr(QtWidgets.QApplication, "topLevelWidgets", staticmethod(lambda: []))
    adapter._watch_first_paint()
    assert started == [True]


def test_a_window_closed_before_it_painted_does_not_leave_the_warm_up_waiting(qtbot, monkeypatch):
    started = []
    monkeypatch.setattr(adapter, "_start_warm_up", lambda: started.append(True))
    monkeypatch.setattr(adapter, "_after_paint", [])
    widget = QtWidgets.QLabel("never painted")
    widget.show()
    adapter._watch_first_paint()
    assert not started
    shiboken6.delete(widget)        # gone before the event loop turns to paint it
    assert started == [True] and not adapter._after_paint[0].waiting


def test_a_window_hidden_before_it_painted_starts_the_warm_up_when_no_window_is_left_shown(qtbot, monkeypatch):
    started = []
    monkeypatch.setattr(adapter, "_start_warm_up", lambda: started.append(True))
    monkeypatch.setattr(adapter, "_after_paint", [])
    widget = QtWidgets.QLabel("hidden before it painted")
    qtbot.addWidget(widget)
    monkeypatch.setattr(QtWidgets.QApplication, "topLevelWidgets", staticmethod(lambda: [widget]))
    widget.show()
    adapter._watch_first_paint()
    assert not started
    widget.hide()                   # before the event loop turned to paint it: it paints only if shown again
    qtbot.waitUntil(lambda: bool(started))
    assert started == [True] and not adapter._after_paint[0].waiting


class _NoPaints(QtCore.QObject):
    def eventFilter(self, obj, event):  # noqa: N802 - Qt's name
        return event.type() == QtCore.QEvent.Type.Paint


def test_a_shown_window_that_never_paints_starts_the_warm_up_after_a_bounded_time(qtbot, monkeypatch):
    started = []
    monkeypatch.setattr(adapter, "_start_warm_up", lambda: started.append(True))
    monkeypatch.setattr(adapter, "_after_paint", [])
    monkeypatch.setattr(adapter, "WARM_UP_LATEST_MS", 50)
    widget = QtWidgets.QLabel("shown, never painted (minimised before it could be)")
    qtbot.addWidget(widget)
    widget.show()
    adapter._watch_first_paint()
    no_paints = _NoPaints(widget)
    widget.installEventFilter(no_paints)     # installed last, so it sees the paints first and keeps them
    qtbot.waitUntil(lambda: bool(started))
    assert started == [True] and widget.isVisible()


def test_the_first_screen_shows_before_the_other_tabs_are_installed(qtbot, tmp_path):
    w = new_window(qtbot, tmp_path, probes=100)
    w.install_parts(first_screen=True)
    assert w.scenarios is not None and w.file_actions is not None and w.lesson_view is None
    with qtbot.waitSignal(w.partsInstalled, timeout=60_000):
        w.show()
    assert w.lesson_view is not None and w.fill_gauge is not None
    titles = [w.tabs.tabText(i) for i in range(w.tabs.count())]
    whole = new_window(qtbot, tmp_path / "whole", probes=100)
    extensions.install_all(whole)
    assert titles == [whole.tabs.tabText(i) for i in range(whole.tabs.count())], "the same tabs, same order"
    keys = w.scenarios.start_page.shortcuts_label.text()
    assert "Ctrl+Shift+F" in keys and "F5" in keys, "the Start page lists the later parts' keys too"
    for win in (w, whole):
        win.file_actions.discard_changes()


def test_an_open_before_the_idle_turns_installs_the_parts_it_needs(qtbot, tmp_path, monkeypatch):
    # another library's file opened before the foreign view's turn came was refused as "not a session"
    from pathlib import Path
    shown = []
    monkeypatch.setattr(QtWidgets.QMessageBox, "exec", lambda box: shown.append(box.text()) or 0)
    w = new_window(qtbot, tmp_path, probes=100)
    w.install_parts(first_screen=True)
    assert w.foreign is None and w.lesson_view is None
    parquet = Path(__file__).resolve().parents[1] / "data" / "foreign" / "pyarrow-bloom.parquet"
    assert w.file_actions.open_path(str(parquet), ask=False), shown
    assert w.foreign is not None and w.foreign.path == str(parquet) and w.current_tab() == "foreign"
    assert w.lesson_view is not None and not shown
    with qtbot.waitSignal(w.partsInstalled, timeout=60_000):
        w.show()                    # the chain still ends once, after the first paint
    w.file_actions.discard_changes()
