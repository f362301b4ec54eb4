"""The explorer calculator's engine presets put the m and k a real system allocates into the calculator, say
what the system did, and refuse a setting the system refuses without touching the fields."""

from __future__ import annotations

import pytest

from bloomviz import i18n
from bloomviz.gui.explorer_tab import engine_preset
from bloomviz.gui.explorer_tab.calc import CalculatorPanel
from bloomviz.i18n import catalogue
from bloomviz.gui.workbench import QtWorkbench
from bloomviz.theory import engines


@pytest.fixture
def calc(qtbot):
    panel = CalculatorPanel(QtWorkbench())
    qtbot.addWidget(panel)
    return panel


def test_a_preset_fills_m_and_k_and_the_calculator_solves_them(calc):
    calc.edits["n"].setText("1000")
    rows = calc.presets
    rows.engine.setCurrentIndex(rows.engine.findData("cassandra"))
    rows.setting.setText("0.001")
    assert rows.apply()
    assert (calc.edits["m"].text(), calc.edits["k"].text()) == ("15040", "7")
    assert calc.design is not None and (calc.design.m, calc.design.k, calc.design.n) == (15_040, 7, 1000)
    assert "15 bits per key" in rows.notes.text()
    rows.engine.setCurrentIndex(rows.engine.findData("rocksdb"))
    assert rows.setting.placeholderText() == "bits per key: 10" and rows.apply()
    assert "bits_per_key" in rows.setting.toolTip()
    built = engines.rocksdb(1000, 10.0)
    assert calc.design.m == built.m and "lines-512 layout gives" in rows.notes.text()


def test_a_refused_setting_leaves_the_fields(calc):
    calc.edits["n"].setText("1000")
    calc.presets.engine.setCurrentIndex(calc.presets.engine.findData("cassandra"))
    calc.presets.setting.setText("0.00001")
    assert not calc.presets.apply()
    assert "Not applied" in calc.presets.message.text() and calc.edits["m"].text() == ""


def test_in_croatian_the_setting_is_in_words_with_a_decimal_comma(qtbot):
    """The field said "fp_chance = 0.01" in Croatian too; now it says the setting in words, 0,01, and takes 0,001."""
    i18n.use("hr")
    try:
        calc = CalculatorPanel(QtWorkbench())
        qtbot.addWidget(calc)
        rows = calc.presets
        calc.edits["n"].setText("1000")
        rows.engine.setCurrentIndex(rows.engine.findData("cassandra"))
        assert rows.setting.placeholderText() == "vjerojatnost lažno pozitivnih: 0,01"
        rows.setting.setText("0,001")
        assert rows.apply() and (calc.edits["m"].text(), calc.edits["k"].text()) == ("15040", "7")
        assert "m = 15.040, k = 7." in rows.notes.text()
    finally:
        i18n.use("en")


def test_every_engine_setting_has_croatian_words():
    po = i18n.HERE / "hr.po"
    entries = {e.msgid: e for e in catalogue.parse_po(po.read_text(encoding="utf-8"), po.name)}
    keys = {found[0] for name in engines.ENGINES if (found := engine_preset.setting_of(name)) is not None}
    assert keys <= set(engine_preset.SETTING_WORDS), keys - set(engine_preset.SETTING_WORDS)
    assert all(entries[engine_preset.SETTING_WORDS[key]].translated for key in keys)



@pytest.mark.parametrize("typed", ["1e3", "10^3", "1,000", "1_000"])
def test_the_preset_reads_n_as_the_calculator_does(calc, typed):
    rows = calc.presets
    rows.engine.setCurrentIndex(rows.engine.findData("cassandra"))
    calc.edits["n"].setText(typed)
    assert rows.apply() and calc.edits["n"].text() == "1000"
    calc.edits["n"].setText("1,0")
    assert not rows.apply() and "n must be a whole number such as 1000, 1,000" in rows.message.text()


def test_a_setting_that_is_no_number_is_refused_by_name(calc):
    calc.edits["n"].setText("1000")
    calc.presets.engine.setCurrentIndex(calc.presets.engine.findData("cassandra"))
    calc.presets.setting.setText("inf")             # float() took it
    assert not calc.presets.apply()
    assert "fp_chance must be a number" in calc.presets.message.text() and calc.edits["m"].text() == ""
