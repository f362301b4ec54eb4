"""The window in Croatian: BLOOMVIZ_LANG=hr (or the setting, or the locale) turns its menus Croatian, every
entry of them, and English stays where nothing asks for Croatian."""

from __future__ import annotations

import pytest
from PySide6 import QtCore

from bloomviz import i18n
from bloomviz.gui.extensions import install_all
from bloomviz.gui.main_window import MainWindow
from bloomviz.gui.workbench import Workbench

# Menu words kept as they are in Croatian too (names, not English words).
SAME_IN_CROATIAN: set[str] = set()


def whole_window(qtbot, tmp_path, language_setting: str | None = None) -> MainWindow:
    settings = QtCore.QSettings(str(tmp_path / "settings.ini"), QtCore.QSettings.Format.IniFormat)
    if language_setting is not None:
        settings.setValue(i18n.SETTING, language_setting)
    window = MainWindow(workbench=Workbench(probes=200), settings=settings)
    qtbot.addWidget(window)
    install_all(window)
    return window


def menu_texts(window) -> list[str]:
    """Every title, entry, status tip and tool tip of the menu bar, submenus (Open Recent) opened."""
    texts, stack = [], list(window.menuBar().actions())
    while stack:
        act = stack.pop()
        if act.isSeparator():
            continue
        if act.menu() is not None:
            act.menu().aboutToShow.emit()      # Open Recent fills itself when it opens
            stack.extend(act.menu().actions())
        texts += [t for t in (act.text(), act.statusTip(), act.toolTip()) if t]
    return texts


@pytest.fixture
def no_locale(monkeypatch):
    for name in (i18n.ENVIRONMENT, *i18n.SYSTEM_VARIABLES):
        monkeypatch.delenv(name, raising=False)
    yield monkeypatch
    i18n.use("en")


def test_croatian_menus_hold_no_english_entry(qtbot, tmp_path, no_locale):
    english = set(menu_texts(whole_window(qtbot, tmp_path / "en")))
    assert "&File" in english and "Find a &false positive" in english
    no_locale.setenv(i18n.ENVIRONMENT, "hr")
    croatian = menu_texts(whole_window(qtbot, tmp_path / "hr"))
    assert i18n.language() == "hr"
    left = sorted(set(croatian) & english - SAME_IN_CROATIAN)
    assert not left, f"English left in the Croatian menus (add them to bloomviz/i18n/hr.po): {left}"
    for word in ("&Datoteka", "&Uredi", "&Prikaz", "P&omoć", "Pronađi &lažno pozitivan", "Umetni element",
                 "Stopa lažno pozitivnih, uživo", "Bloomovi filtri na jednoj stranici", "Poništi",
                 "Odbij 29.292 najčešće lozinke (popis primjeren učionici); ponekad se odbije i dobra."):
        assert word in croatian, word


def test_the_setting_and_the_locale_choose_croatian_and_english_stays_the_default(qtbot, tmp_path, no_locale):
    window = whole_window(qtbot, tmp_path / "setting", language_setting="hr")
    assert window.menuBar().actions()[0].text() == "&Datoteka"
    assert window.windowTitle() == "bloomviz — Bloomovi filtri vidljivi"

    no_locale.setenv("LANG", "hr_HR.UTF-8")
    window = whole_window(qtbot, tmp_path / "locale")
    assert window.menuBar().actions()[0].text() == "&Datoteka"
    # a menu a later view asks for by its English title is the translated one, not a second one
    assert window.menu("Tools").title() == "Alati"
    assert [a.text() for a in window.menuBar().actions()].count("Alati") == 1

    no_locale.setenv("LANG", "de_DE.UTF-8")
    window = whole_window(qtbot, tmp_path / "german")
    assert window.menuBar().actions()[0].text() == "&File"
