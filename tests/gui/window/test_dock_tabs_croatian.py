"""The left column's dock tabs in Croatian at 250 % text in a 1280 x 720 window: short Croatian titles, each read
whole. They read "Automatsko umetanje | Scen…" behind scroll arrows, the Filter tab out of sight, and the short
title "Explain" was English (gui/window/dock_tabs.py)."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from bloomviz import i18n
from bloomviz.gui import theme
from window_helpers import new_window, settle


def test_croatian_dock_tabs_are_short_croatian_and_whole_at_250_percent(qtbot, tmp_path, monkeypatch):
    for name in (i18n.ENVIRONMENT, *i18n.SYSTEM_VARIABLES):
        monkeypatch.delenv(name, raising=False)
    settings = QtCore.QSettings(str(tmp_path / "settings.ini"), QtCore.QSettings.Format.IniFormat)
    settings.setValue(i18n.SETTING, "hr")
    settings.sync()
    window = new_window(qtbot, tmp_path, probes=200)
    try:
        window.install_parts()
        window.resize(1280, 720)
        window.set_font_scale(2.5)
        window.show()
        qtbot.waitExposed(window)
        settle(qtbot, window, *window.docks.values())
        direct = QtCore.Qt.FindChildOption.FindDirectChildrenOnly

        def titles():
            out = []
            for bar in window.findChildren(QtWidgets.QTabBar, options=direct):
                if bar.isVisible():
                    out += [(bar.tabText(i), bar.rect().contains(bar.tabRect(i))) for i in range(bar.count())]
            return out

        qtbot.waitUntil(lambda: {"Automatski", "Filtar", "Objašnjenje"} <= {t for t, _ in titles()}, timeout=10_000)
        assert all(whole for _t, whole in titles()), titles()
        assert not {"Auto-play", "Filter", "Explain", "Insert", "FP rate"} & {t for t, _ in titles()}, titles()
    finally:
        window.file_actions.discard_changes()
        window.wb.cancel()
        theme.apply_font_scale(QtWidgets.QApplication.instance(), theme.DEFAULT_FONT_SCALE)
        i18n.use("en")
