"""Limits and bad values in the window: refused in words, never an exception or a window that will not start
(issue 13, items 4 and 8)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6 import QtCore, QtWidgets

from bloomviz.gui import theme, window_limits
from bloomviz.gui.main_window import MainWindow
from bloomviz.gui.workbench import QtWorkbench
from bloomviz.workbench import limits
from bloomviz.workbench.limits import MAX_M

ROOT = Path(__file__).resolve().parents[2]


def make_window(qtbot, path, **values):
    settings = QtCore.QSettings(str(path), QtCore.QSettings.Format.IniFormat)
    for key, value in values.items():
        settings.setValue(key, value)
    settings.sync()
    w = MainWindow(workbench=QtWorkbench(probes=200), settings=settings)
    qtbot.addWidget(w)
    return w


@pytest.mark.parametrize("saved", ["nan", "inf", "-inf", "1e400", "abc", "0", "-2", "99"])
def test_a_damaged_font_scale_in_the_settings_starts_at_the_default(qtbot, tmp_path, saved):
    w = make_window(qtbot, tmp_path / "settings.ini", **{"view/font_scale": saved})
    assert w.font_scale == theme.DEFAULT_FONT_SCALE
    w.show()


def test_a_valid_saved_font_scale_is_used(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path / "settings.ini", **{"view/font_scale": "1.3"})
    try:
        assert w.font_scale == 1.3
    finally:
        theme.apply_font_scale(QtWidgets.QApplication.instance(), theme.DEFAULT_FONT_SCALE)


def test_a_scalable_filter_larger_than_the_grid_is_refused_before_allocating(qtbot):
    wb = QtWorkbench(probes=100)
    errors = []
    wb.error.connect(errors.append)
    before = (wb.variant, wb.filter.m)
    assert not wb.configure(variant="scalable", initial_capacity=100_000_000, p=0.01)
    assert (wb.variant, wb.filter.m) == before
    assert errors and f"{MAX_M:,}" in errors[-1] and "100,000,000" in errors[-1]
    assert QtWorkbench.validate_config(None, None, variant="scalable", initial_capacity=10 ** 8, p=0.01)


def test_a_scalable_filter_may_not_grow_past_the_grid(qtbot, monkeypatch):
    # The window's limit (10^8 bits) read where it is checked, made small so that a stage past it is a few items
    monkeypatch.setattr(limits, "MAX_M", 10_000_000)
    MAX_M = limits.MAX_M
    wb = QtWorkbench(probes=100)
    assert wb.configure(variant="scalable", initial_capacity=300_000, p=0.01)
    errors = []
    wb.error.connect(errors.append)
    first = wb.filter.m
    assert first <= MAX_M and limits.scalable_m_after(wb.filter, 300_001) > MAX_M
    items = [f"i{i}" for i in range(300_001)]
    assert wb.insert_batch(items) == 0
    assert len(wb.filter) == 0 and wb.filter.m == first and not wb.history
    assert errors and f"{MAX_M:,}" in errors[-1]


def test_probes_are_capped_and_the_dialog_offers_no_more(qtbot, tmp_path, monkeypatch):
    w = make_window(qtbot, tmp_path / "settings.ini")
    errors = []
    w.wb.error.connect(errors.append)
    assert not w.wb.set_probe_count(1_000_000)
    assert len(w.wb.probes) == 200 and f"{window_limits.MAX_PROBES:,}" in errors[-1]
    asked = []
    monkeypatch.setattr(QtWidgets.QInputDialog, "getInt",
                        staticmethod(lambda *args: (asked.append(args), (args[4], True))[1]))
    w.ask_probe_count()
    assert asked and asked[0][5] == window_limits.MAX_PROBES


def test_the_explorer_takes_m_beyond_32_bits(qtbot, tmp_path):
    from bloomviz.gui.explorer_tab.view import install
    w = make_window(qtbot, tmp_path / "settings.ini")
    install(w)
    explorer = w.tab_view("explorer")
    seen = []
    explorer.calc.zeroItems.connect(lambda m, k: seen.append((m, k)))
    explorer.calc.set_inputs(m=str(2 ** 33), n="0")
    assert seen == [(2 ** 33, 1)]


def test_compare_refuses_a_design_below_its_smallest_m(qtbot):
    from bloomviz.gui.compare_tab.view import CompareView
    view = CompareView()
    qtbot.addWidget(view)
    view.set_sizing(n=1, p=0.9)     # designs m = 1: the spin boxes never offer it
    assert not view.start()
    assert "m = 1;" in view.message.text() and "8 ≤ m" in view.message.text()
    assert not view.running


def test_dark_option_does_not_change_the_saved_preference(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", BLOOMVIZ_SETTINGS=str(tmp_path / "settings.ini"))
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    out = tmp_path / "shot.png"
    proc = subprocess.run([sys.executable, "-m", "bloomviz", "--screenshot", str(out), "--dark", "--demo", "5"],
                          env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    settings = QtCore.QSettings(str(tmp_path / "settings.ini"), QtCore.QSettings.Format.IniFormat)
    assert str(settings.value("view/dark", "false")).lower() in ("false", "0")
