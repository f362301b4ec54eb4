"""The theme follows the system's light or dark scheme until the user picks one (issue 25, item 3). The offscreen
platform has no scheme of its own (Unknown, and it ignores a requested one), so the system's answer is stood in
for by replacing ``scheme.system_dark`` and sending Qt's own ``colorSchemeChanged`` signal."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtWidgets

from bloomviz.gui import theme
from bloomviz.gui.access import scheme
from window_helpers import FakeDialogs, new_window


@pytest.fixture(autouse=True)
def light_afterwards():
    yield
    theme.set_dark(False)          # the theme is the process's: no other test inherits a dark one


@pytest.fixture
def system(monkeypatch):
    said = {"dark": None}
    monkeypatch.setattr(scheme, "system_dark", lambda: said["dark"])
    return said


def built(qtbot, tmp_path):
    # windows of earlier tests are deleted first (pytest-qt defers it): each would follow the system too
    QtWidgets.QApplication.sendPostedEvents(None, QtCore.QEvent.Type.DeferredDelete)
    w = new_window(qtbot, tmp_path, probes=100)
    w.install_parts()
    w.file_actions.dialogs = FakeDialogs(unsaved_answer="discard")
    return w


def change_system(system, dark: bool) -> None:
    system["dark"] = dark
    hints = QtWidgets.QApplication.instance().styleHints()
    hints.colorSchemeChanged.emit(QtCore.Qt.ColorScheme.Dark if dark else QtCore.Qt.ColorScheme.Light)


def test_a_new_user_gets_the_systems_scheme_and_its_changes(qtbot, tmp_path, system):
    system["dark"] = True
    window = built(qtbot, tmp_path)
    assert window.dark and window.actions_["dark"].isChecked()
    assert window.settings.value(scheme.SETTING) is None            # following is not a pick
    change_system(system, False)
    assert not window.dark
    change_system(system, True)
    assert window.dark


def test_the_users_pick_wins_until_they_follow_the_system_again(qtbot, tmp_path, system):
    system["dark"] = True
    window = built(qtbot, tmp_path)
    window.actions_["dark"].trigger()                                # the user picks light
    assert not window.dark and scheme.picked(window.settings) is False
    change_system(system, True)
    assert not window.dark                                            # the pick holds
    window.actions_["follow_system_colours"].trigger()
    assert window.dark and scheme.picked(window.settings) is None


def test_an_unknown_system_scheme_is_light(qtbot, tmp_path, system):
    window = built(qtbot, tmp_path)
    assert scheme.system_dark() is None and not window.dark
