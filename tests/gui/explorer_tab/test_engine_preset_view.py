"""The explorer calculator's engine presets put the m and k a real system allocates into the calculator, say
what the system did, and refuse a setting the system refuses without touching the fields."""

from __future__ import annotations

import pytest

from bloomviz.gui.explorer_tab.calc import CalculatorPanel
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
    assert rows.setting.placeholderText() == "bits_per_key = 10.0" and rows.apply()
    built = engines.rocksdb(1000, 10.0)
    assert calc.design.m == built.m and "lines-512 layout gives" in rows.notes.text()


def test_a_refused_setting_leaves_the_fields(calc):
    calc.edits["n"].setText("1000")
    calc.presets.engine.setCurrentIndex(calc.presets.engine.findData("cassandra"))
    calc.presets.setting.setText("0.00001")
    assert not calc.presets.apply()
    assert "Not applied" in calc.presets.message.text() and calc.edits["m"].text() == ""
