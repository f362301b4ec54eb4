"""One owner of the dark theme (gui/theme.py): the window and its panels read it, nobody keeps a copy."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtWidgets

from bloomviz.gui import theme
from bloomviz.gui.main_window import MainWindow
from bloomviz.gui.workbench import QtWorkbench


pytestmark = pytest.mark.window(probes=200, shown=False)


def test_set_dark_announces_only_a_change(qtbot):
    seen = []
    theme.notifier().changed.connect(seen.append)
    try:
        theme.set_dark(False)
        theme.set_dark(True)
        theme.set_dark(True)
        assert theme.is_dark() and seen == [True]
        assert QtWidgets.QApplication.instance().palette().color(
            QtWidgets.QApplication.instance().palette().ColorRole.Window).lightness() < 100
    finally:
        theme.set_dark(False)
        theme.notifier().changed.disconnect(seen.append)
    assert seen == [True, False] and not theme.is_dark()


def test_colours_follow_the_theme():
    assert theme.colour("error", dark=False) != theme.colour("error", dark=True)
    assert theme.verdict_colour("false positive", False) == theme.VERDICT_COLOURS[False]["false positive"]
    theme.set_dark(True)
    try:
        assert theme.colour("error") == theme.MESSAGE_COLOURS["error"][1]
        assert theme.verdict_colour("inserted") == theme.VERDICT_COLOURS[True]["inserted"]
    finally:
        theme.set_dark(False)
    with pytest.raises(KeyError):
        theme.colour("no such colour")


def test_the_panels_redraw_in_the_new_theme(window, qtbot):
    window.show()                 # the Explain panel explains what it shows: only once it is visible
    qtbot.waitExposed(window)
    window.wb.insert("apple")
    window.wb.lookup("apple")
    window.wb.flush()
    window.explain_panel.render_now()
    light_html = window.explain_panel.toHtml()
    light = theme.VERDICT_COLOURS[False]["true positive"].lower()
    dark = theme.VERDICT_COLOURS[True]["true positive"].lower()
    assert light in light_html.lower()
    window.set_dark(True)
    assert window.dark and window.actions_["dark"].isChecked()
    assert dark in window.explain_panel.toHtml().lower()
    colour = window.history_panel.model().data(window.history_panel.model().index(1, 3),
                                                QtCore.Qt.ItemDataRole.ForegroundRole).color().name()
    assert colour.lower() == dark
    window.set_dark(False)
    assert light in window.explain_panel.toHtml().lower()


def test_a_new_window_starts_in_its_saved_theme(qtbot, tmp_path, window):
    window.set_dark(True, remember=False)          # like --dark: this run only
    settings = QtCore.QSettings(str(tmp_path / "other.ini"), QtCore.QSettings.Format.IniFormat)
    other = MainWindow(workbench=QtWorkbench(probes=100), settings=settings)
    qtbot.addWidget(other)
    assert not other.dark and not theme.is_dark()   # its preference is light
    assert settings.value("view/dark") is None       # and nothing was written for it
