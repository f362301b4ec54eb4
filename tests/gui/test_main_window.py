"""The window, driven as a person would: typing, Enter, buttons, shortcuts, hovering, menus."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.hashing import schemes as hashing
from bloomviz.gui.main_window import MainWindow
from bloomviz.gui.workbench import QtWorkbench
from bloomviz.workbench.limits import MAX_M


pytestmark = pytest.mark.window(probes=2_000, confirm=True)


def set_filter(qtbot, win, m, k):
    panel = win.params_panel
    panel.m_edit.clear()
    qtbot.keyClicks(panel.m_edit, str(m))
    panel.k_edit.clear()
    qtbot.keyClicks(panel.k_edit, str(k))
    qtbot.mouseClick(panel.apply_button, QtCore.Qt.MouseButton.LeftButton)
    assert (win.wb.filter.m, win.wb.filter.k) == (m, k), panel.message.text()


def type_item(qtbot, win, text):
    line = win.item_panel.line
    line.clear()
    qtbot.keyClicks(line, text)


def insert_by_enter(qtbot, win, text):
    type_item(qtbot, win, text)
    qtbot.keyClick(win.item_panel.line, QtCore.Qt.Key.Key_Return)
    win.wb.flush()      # the views draw it in the next turn of the event loop: that turn, now


def grid_cell(win, index):
    return int(win.grid.picture.reshape(-1)[index])


def test_enter_inserts_and_the_grid_lights_the_bits(window, qtbot):
    set_filter(qtbot, window, 400, 3)
    insert_by_enter(qtbot, window, "cat")
    flt = window.wb.filter
    positions = flt.positions("cat")
    assert len(flt) == 1 and window.wb.is_member("cat")
    assert all(grid_cell(window, p) == 1 for p in positions)
    assert int(window.grid.picture.sum()) == len(set(positions))
    _, _, kinds = window.grid.highlight_points()
    assert kinds == ["new"] * len(positions) or set(kinds) <= {"new", "old"}
    assert window.item_panel.verdict_text.startswith("Inserted")
    # the second insert of "cat" finds its bits already set
    insert_by_enter(qtbot, window, "cat")
    assert window.grid.highlight_points()[2] == ["old"] * 3


def test_lookup_button_and_shortcut_give_the_verdict(window, qtbot):
    set_filter(qtbot, window, 1000, 4)
    insert_by_enter(qtbot, window, "apple")
    type_item(qtbot, window, "apple")
    qtbot.mouseClick(window.item_panel.lookup_button, QtCore.Qt.MouseButton.LeftButton)
    window.wb.flush()
    assert "Probably in the set" in window.item_panel.verdict_text
    flt = window.wb.filter
    absent = next(x for x in (f"q{i}" for i in range(1000)) if not all(flt.bits[p] for p in flt.positions(x)))
    zero = next(p for p in flt.positions(absent) if not flt.bits[p])
    type_item(qtbot, window, absent)
    qtbot.keyClick(window.item_panel.line, QtCore.Qt.Key.Key_L, QtCore.Qt.KeyboardModifier.ControlModifier)
    window.wb.flush()
    text = window.item_panel.verdict_text
    assert "definitely not in the set" in text and f"bit {zero:,} is 0" in text
    x, y, kinds = window.grid.highlight_points()
    assert set(kinds) <= {"zero", "one"} and "zero" in kinds
    assert window.wb.history[-1].verdict == "true negative"
    assert len(flt) == 1  # lookups insert nothing


def test_a_false_positive_is_reported_with_its_culprits(window, qtbot):
    set_filter(qtbot, window, 16, 2)
    inserted = [f"item{i}" for i in range(6)]
    for x in inserted:
        insert_by_enter(qtbot, window, x)
    flt = window.wb.filter
    fp_item = next(c for c in (f"cand{i}" for i in range(100_000))
                   if all(flt.bits[p] for p in flt.positions(c)))
    type_item(qtbot, window, fp_item)
    qtbot.mouseClick(window.item_panel.lookup_button, QtCore.Qt.MouseButton.LeftButton)
    window.wb.flush()
    text = window.item_panel.verdict_text
    assert text.startswith("FALSE POSITIVE:")
    assert "never inserted, yet all k = 2 bits are set" in text
    for p in set(flt.positions(fp_item)):
        culprit = next(x for x in inserted if p in flt.positions(x))
        assert f"bit {p:,} by “{culprit}”" in text
    assert window.grid.highlight_points()[2] == ["culprit", "culprit"]
    # the explanation is drawn in the next turn of the event loop
    qtbot.waitUntil(lambda: "Who set the bits" in window.explain_panel.toPlainText())
    html = window.explain_panel.toPlainText()
    assert "Who set the bits of this false positive" in html
    last = window.history_panel.model().index(window.history_panel.model().rowCount() - 1, 3)
    assert last.data() == "false positive"


def test_hover_shows_the_bit_and_the_items_that_set_it(window, qtbot):
    set_filter(qtbot, window, 64, 2)
    for x in ("alpha", "beta", "gamma"):
        insert_by_enter(qtbot, window, x)
    flt = window.wb.filter
    bit = flt.positions("beta")[0]
    setters = [x for x in ("alpha", "beta", "gamma") if bit in flt.positions(x)]
    cols = window.grid.cols
    index = window.grid.hover_at_view(bit % cols + 0.5, bit // cols + 0.5)
    assert index == bit
    label = window.grid.hover_label
    assert label.isVisible()
    assert label.text() == f"bit {bit} = 1; set by: {', '.join(setters)}"
    empty = next(i for i in range(64) if not flt.bits[i])
    window.grid.hover_at_view(empty % cols + 0.5, empty // cols + 0.5)
    # a provider whose last call took over SLOW_PROVIDER_S (a loaded machine can stall any call that long) answers
    # once the cursor rests, and the plain text shows meanwhile
    qtbot.waitUntil(lambda: label.text() == f"bit {empty} = 0; no inserted item maps here")


def test_bad_items_through_the_widgets_give_a_message_and_change_nothing(window, qtbot):
    insert_by_enter(qtbot, window, "keep")
    wb = window.wb
    before = (wb.filter.bits.copy(), len(wb.filter), len(wb.history), len(wb.series))
    window.item_panel.line.clear()
    qtbot.keyClick(window.item_panel.line, QtCore.Qt.Key.Key_Return)
    assert window.item_panel.verdict_text.startswith("Refused") and "empty" in window.item_panel.verdict_text
    # An item past the item limit but within the box (a paste past the box is refused by the box itself:
    # test_bounded_text.py) reaches the model whole and is refused there with its size
    window.item_panel.line.setText("z" * 100_000)
    assert len(window.item_panel.line.text()) == 100_000   # not cut by the line edit
    qtbot.mouseClick(window.item_panel.insert_button, QtCore.Qt.MouseButton.LeftButton)
    assert "100,000 bytes" in window.item_panel.verdict_text
    qtbot.mouseClick(window.item_panel.lookup_button, QtCore.Qt.MouseButton.LeftButton)
    assert "100,000 bytes" in window.item_panel.verdict_text
    assert "100,000 bytes" in window.statusBar().currentMessage()
    after = (wb.filter.bits.copy(), len(wb.filter), len(wb.history), len(wb.series))
    assert after == before


def test_a_lone_surrogate_is_accepted_and_shown_escaped(window, qtbot):
    # Qt strings cannot hold a lone surrogate, so it arrives as programmatic input (a file, a script)
    window.wb.insert("a\udc80b")
    window.wb.flush()
    model = window.history_panel.model()
    assert model.index(model.rowCount() - 1, 2).data() == "a\\udc80b"
    assert "a\\udc80b" in window.item_panel.verdict_text
    qtbot.waitUntil(lambda: "a\\udc80b" in window.explain_panel.toPlainText())
    assert len(window.wb.filter) == 1


@pytest.mark.parametrize("m, k, needle", [
    ("3", "3", "m (bits) must be between 8"),
    (str(2 * MAX_M), "3", "m (bits) must be between 8"),
    ("100", "0", "k (hash functions) must be between 1"),
    ("100", "99", "k (hash functions) must be between 1"),
    ("abc", "3", "m must be a whole number"),
    ("", "3", "m is empty"),
])
def test_out_of_range_parameters_get_an_inline_message(window, qtbot, m, k, needle):
    insert_by_enter(qtbot, window, "keep")
    flt = window.wb.filter
    panel = window.params_panel
    panel.m_edit.setText(m)
    panel.k_edit.setText(k)
    qtbot.mouseClick(panel.apply_button, QtCore.Qt.MouseButton.LeftButton)
    assert needle in panel.message.text()
    assert "not changed" in panel.message.text()
    assert window.wb.filter is flt and len(flt) == 1


def test_apply_asks_before_discarding_items(window, qtbot):
    insert_by_enter(qtbot, window, "precious")
    asked = []
    window.params_panel.confirm = lambda q: asked.append(q) or False
    window.params_panel.m_edit.setText("500")
    qtbot.mouseClick(window.params_panel.apply_button, QtCore.Qt.MouseButton.LeftButton)
    assert asked and "1 inserted items" in asked[0]
    assert len(window.wb.filter) == 1 and window.wb.filter.m != 500
    window.params_panel.confirm = lambda q: True
    qtbot.mouseClick(window.params_panel.apply_button, QtCore.Qt.MouseButton.LeftButton)
    assert window.wb.filter.m == 500 and len(window.wb.filter) == 0
    assert window.grid.m == 500 and int(window.grid.picture.sum()) == 0


def test_design_fills_in_m_and_k_and_apply_marks_the_capacity(window, qtbot):
    from bloomviz.theory.rates import optimal_params
    panel = window.params_panel
    panel.n_edit.setText("1,000")
    panel.p_edit.setText("1%")
    qtbot.mouseClick(panel.design_button, QtCore.Qt.MouseButton.LeftButton)
    k, m = optimal_params(1000, 0.01)
    assert (panel.m_edit.text(), panel.k_edit.text()) == (str(m), str(k))
    qtbot.mouseClick(panel.apply_button, QtCore.Qt.MouseButton.LeftButton)
    assert (window.wb.filter.m, window.wb.filter.k, window.wb.capacity) == (m, k, 1000)
    assert window.plot.capacity == 1000
    panel.p_edit.setText("2")
    qtbot.mouseClick(panel.design_button, QtCore.Qt.MouseButton.LeftButton)
    assert "strictly between 0 and 1" in panel.message.text()


def test_the_scheme_combo_offers_every_scheme_with_a_teaching_tooltip(window):
    from bloomviz.hashing import schemes as hashing
    combo = window.params_panel.scheme_combo
    assert [combo.itemData(i) for i in range(combo.count())] == list(hashing.SCHEMES)
    for i in range(combo.count()):
        assert combo.itemText(i) == hashing.SCHEMES[combo.itemData(i)].title
        assert combo.itemData(i, QtCore.Qt.ItemDataRole.ToolTipRole) == hashing.SCHEMES[combo.itemData(i)].summary


def test_the_plot_follows_the_series(window, qtbot):
    set_filter(qtbot, window, 600, 3)
    window.wb.insert_batch([f"p{i}" for i in range(150)])
    insert_by_enter(qtbot, window, "one more")
    assert window.plot.series is window.wb.series and len(window.wb.series) == 151
    qtbot.waitUntil(lambda: window.plot.values_at(151) is not None)
    row = window.plot.values_at(151)
    brute = int(np.count_nonzero(window.wb.filter.contains_many(window.wb.probes)))
    assert row["n"] == 151 and row["fp_measured"] == brute / len(window.wb.probes)
    # the drawn curve reaches the latest insert once the plot's throttled redraw has run
    qtbot.waitUntil(lambda: window.plot.curve("fp_measured").getData()[0] is not None
                    and window.plot.curve("fp_measured").getData()[0][-1] == 151, timeout=3_000)
    # a bulk job replaces the series with a roomier one; the plot follows it
    with qtbot.waitSignal(window.wb.jobFinished, timeout=20_000):
        window.wb.insert_many([f"q{i}" for i in range(30_000)])
    assert window.plot.series is window.wb.series and len(window.plot.series) == 30_151


def test_status_bar_names_the_parameters_and_counts(window, qtbot):
    set_filter(qtbot, window, 300, 2)
    window.wb.insert_batch(["a", "b", "c"])
    window.update_status()
    text = window.status_label.text()
    assert "m = 300 " in text and "k = 2 " in text and "n = 3 " in text and hashing.DEFAULT_SCHEME in text
    fill = window.wb.filter.bits_set / 300 * 100
    assert f"fill {fill:.1f}%" in text


def test_menus_and_shortcuts(window):
    titles = [a.text() for a in window.menuBar().actions()]
    assert titles == ["&File", "&Edit", "&View", "&Help"]
    a = window.actions_
    assert a["lookup"].shortcut().toString() == "Ctrl+L"
    assert [s.toString() for s in a["bigger"].shortcuts()] == ["Ctrl++", "Ctrl+="]
    assert a["smaller"].shortcut().toString() == "Ctrl+-"
    assert a["quit"].shortcut().toString() == "Ctrl+Q"
    for key, act in a.items():
        assert act.statusTip(), key


def test_font_scale_keys_and_theme_are_remembered(window, qtbot):
    app = QtWidgets.QApplication.instance()
    base = app.font().pointSizeF()
    qtbot.keyClick(window, QtCore.Qt.Key.Key_Plus, QtCore.Qt.KeyboardModifier.ControlModifier)
    assert window.font_scale > 1.0
    assert app.font().pointSizeF() > base
    assert window.plot.font_scale == window.font_scale
    qtbot.keyClick(window, QtCore.Qt.Key.Key_Minus, QtCore.Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(window, QtCore.Qt.Key.Key_Minus, QtCore.Qt.KeyboardModifier.ControlModifier)
    assert window.font_scale < 1.0
    window.actions_["dark"].trigger()
    assert window.dark and window.grid.dark and window.plot.dark
    assert app.palette().color(QtGui.QPalette.ColorRole.Window).lightness() < 100
    window.settings.sync()
    assert float(window.settings.value("view/font_scale")) == window.font_scale
    assert str(window.settings.value("view/dark")).lower() == "true"
    # a new window with the same settings starts dark at the same scale
    again = MainWindow(workbench=QtWorkbench(probes=100), settings=window.settings)
    qtbot.addWidget(again)
    assert again.dark and again.font_scale == window.font_scale


def test_clear_asks_then_empties(window, qtbot):
    window.wb.insert_batch(["a", "b"])
    window.params_panel.confirm = lambda q: False
    window.actions_["clear"].trigger()
    assert len(window.wb.filter) == 2
    window.params_panel.confirm = lambda q: True
    window.actions_["clear"].trigger()
    assert len(window.wb.filter) == 0 and int(window.grid.picture.sum()) == 0


def test_export_grid_and_window_picture(window, qtbot, tmp_path, monkeypatch):
    window.grid.export_png(tmp_path / "empty.png")
    window.wb.insert_batch([f"e{i}" for i in range(50)])
    target = tmp_path / "grid.png"
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    window.export_grid()
    exported = QtGui.QImage(str(target))
    # the batch of this turn is in the picture: the export draws what is pending first
    assert exported.width() > 10 and exported != QtGui.QImage(str(tmp_path / "empty.png"))
    shot = tmp_path / "window.png"
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName", lambda *a, **k: (str(shot), ""))
    window.save_window_picture()
    assert QtGui.QImage(str(shot)).width() == window.width()


def test_demo_inserts_and_looks_up(window):
    window.demo(120)
    wb = window.wb
    assert len(wb.filter) == 120
    assert wb.history[-1].op == "lookup"
    assert not wb.is_member(window.item_panel.line.text())
