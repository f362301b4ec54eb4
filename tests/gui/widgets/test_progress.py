"""A progress bar's new value is painted with the window's next paint, not by a repaint inside the caller."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6 import QtCore, QtWidgets

from bloomviz.gui.widgets.progress import show_value


class _Bar(QtWidgets.QProgressBar):
    def __init__(self):
        super().__init__()
        self.paints = 0

    def paintEvent(self, event):
        self.paints += 1
        super().paintEvent(event)


def _shown_bar(qtbot) -> _Bar:
    bar = _Bar()
    qtbot.addWidget(bar)
    bar.setRange(0, 100)
    bar.show()
    qtbot.waitExposed(bar)
    qtbot.waitUntil(lambda: bar.paints > 0)
    return bar


def test_set_value_alone_repaints_at_once(qtbot):
    bar = _shown_bar(qtbot)      # what show_value avoids: Qt's own setValue paints inside the call
    before = bar.paints
    bar.setValue(50)
    assert bar.paints > before


def test_show_value_paints_later(qtbot):
    bar = _shown_bar(qtbot)
    before = bar.paints
    show_value(bar, 50)
    assert bar.value() == 50 and bar.paints == before and bar.updatesEnabled()
    qtbot.waitUntil(lambda: bar.paints > before)
    show_value(bar, 50)           # the same value: nothing to paint
    assert bar.value() == 50


def test_a_bar_held_by_its_owner_stays_held(qtbot):
    bar = _shown_bar(qtbot)
    bar.setUpdatesEnabled(False)
    show_value(bar, 70)
    assert bar.value() == 70 and not bar.updatesEnabled()
    QtCore.QCoreApplication.processEvents()
