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
BUILT: list[MainWindow] = []


def whole_window(qtbot, tmp_path, language_setting: str | None = None) -> MainWindow:
    settings = QtCore.QSettings(str(tmp_path / "settings.ini"), QtCore.QSettings.Format.IniFormat)
    if language_setting is not None:
        settings.setValue(i18n.SETTING, language_setting)
    # closed by the fixture, after its changes are discarded (qtbot would close it first, and be asked)
    window = MainWindow(workbench=Workbench(probes=200), settings=settings)
    install_all(window)
    BUILT.append(window)
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
    for window in BUILT:
        window.file_actions.discard_changes()      # no "save your changes?" question as the window closes
        window.wb.cancel()
        window.close()
        window.deleteLater()
    BUILT.clear()
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


def test_verdicts_are_croatian_with_numbers_written_the_croatian_way(qtbot, tmp_path, no_locale):
    no_locale.setenv(i18n.ENVIRONMENT, "hr")
    window = whole_window(qtbot, tmp_path)
    wb = window.wb
    wb.configure(2000, 3)
    words = [f"riječ{i}" for i in range(300)]
    for word in words[:40]:
        wb.insert(word)
    assert "Umetnut „riječ39”: od njegovih k = 3 bitova 0 → 1: " in window.item_panel.verdict_text
    wb.lookup("riječ7")
    assert window.item_panel.verdict_text.startswith("Vjerojatno u skupu")
    assert window.item_panel.verdict_text.endswith("„riječ7” je vjerojatno u skupu: svi njegovi bitovi (k = 3) "
                                                   "postavljeni su. (Bio je umetnut, pa je ovo stvarno pozitivan "
                                                   "rezultat.)")
    assert "STVARNO POZITIVAN" in window.explain_panel.toHtml()
    assert "Upit „riječ7”" in window.explain_panel.toPlainText()
    # a lookup of a word never inserted, until one is a true negative whose 0 bit is above 999 (1.234 in Croatian)
    for word in words[40:]:
        wb.lookup(word)
        text = window.item_panel.verdict_text
        if text.startswith("Sigurno nije u skupu") and "bit 1." in text:
            break
    assert text.startswith("Sigurno nije u skupu"), text
    assert "sigurno nije u skupu: bit 1." in text and "Element skupa postavio bi sve svoje bitove na 1." in text


def test_a_false_positive_is_named_in_croatian(qtbot, tmp_path, no_locale):
    no_locale.setenv(i18n.ENVIRONMENT, "hr")
    window = whole_window(qtbot, tmp_path)
    wb = window.wb
    wb.configure(16, 2)
    for word in ("ana", "ivo", "maja", "luka", "petra", "marko"):
        wb.insert(word)
    for i in range(200):
        wb.lookup(f"gost{i}")
        if window.item_panel.verdict_text.startswith("LAŽNO POZITIVAN"):
            break
    text = window.item_panel.verdict_text
    assert text.startswith("LAŽNO POZITIVAN")
    assert f"„gost{i}” nikad nije umetnut, a ipak su svi njegovi bitovi (k = 2) postavljeni — bit " in text, text
    assert "Tko je postavio bitove ovog lažno pozitivnog:" in window.explain_panel.toPlainText()
    i18n.use("en")                          # the next verdict in English again, as the command line says it
    wb.lookup(f"gost{i}")
    assert f"“gost{i}” was never inserted, yet all k = 2 bits are set — bit " in window.item_panel.verdict_text
