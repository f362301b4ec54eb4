"""The parameter explorer tab: calculator messages, use-these-parameters through the workbench, the plots,
background measurement (progress, cancel, new seed) and export of every plot."""

from __future__ import annotations

import csv
import math
import xml.etree.ElementTree as ET

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtGui

from bloomviz.hashing import schemes as hashing

from bloomviz.theory import rates as theory
from bloomviz.gui.explorer_tab.view import TAB_TITLE, ExplorerWidget, install
from bloomviz.workbench.limits import MAX_M
from window_helpers import settle


pytestmark = pytest.mark.window(probes=None, shown=False)


@pytest.fixture
def explorer(window, qtbot) -> ExplorerWidget:
    install(window)
    window.show_tab("explorer")
    ex = window.tab_view("explorer")
    window.show()
    qtbot.waitExposed(window)
    return ex


def _colours(image: QtGui.QImage, step: int = 5) -> set:
    return {image.pixel(x, y) for x in range(0, image.width(), step) for y in range(0, image.height(), step)}


def test_install_adds_a_tab_and_a_menu_entry(window, explorer):
    titles = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    assert TAB_TITLE in titles
    assert window.current_view() is explorer
    window.show_tab("filter")
    explorer.show_action.trigger()
    assert window.current_view() is explorer
    assert explorer.show_action in window.menu("&View").actions()


def test_starts_from_the_window_filter(window, explorer):
    d = explorer.design
    assert (d.m, d.k, d.n) == (window.wb.filter.m, window.wb.filter.k, window.wb.capacity)


def test_calculator_solves_and_shows_the_raised_m_note(explorer):
    d = explorer.calc.set_inputs(n="1,000,000", p="1%")
    assert d is not None and d.fp <= 0.01 and d.k == 7
    text = explorer.calc.result.text()
    assert f"{d.m:,}" in text and "9,585,059" in text          # both m: the textbook one and the raised one
    # memory in the one unit that reads best, with the exact bytes; never "2.235e-07 GiB"
    assert f"1.14 MiB ({(d.m + 7) // 8:,} bytes)" in text and "1 in 100" in text and "e-0" not in text
    assert explorer.calc.message.text() == ""


BAD_INPUTS = [
    ({"n": "lots", "p": "0.01"}, "'lots'"),
    ({"n": "100", "p": "2"}, "2"),
    ({"k": "3"}, "not enough"),
    ({"n": "1000", "p": "0.001", "m": "5000", "k": "3"}, "inconsistent"),
    ({"m": "1000", "n": "0"}, "no optimal k"),
]


def test_bad_input_is_an_inline_message_and_disables_use(explorer):
    # one window for every case: building a window is the slow part of these tests
    for values, words in BAD_INPUTS:
        explorer.calc.set_inputs(n="200", p="0.01")
        assert explorer.calc.use_button.isEnabled()
        assert explorer.calc.set_inputs(**values) is None
        assert words in explorer.calc.message.text(), values
        assert explorer.design is None and not explorer.calc.use_button.isEnabled()
        assert explorer.calc.use_parameters() is False


def test_use_these_parameters_goes_through_the_workbench(window, explorer, qtbot, monkeypatch):
    wb = window.wb
    calls = []
    original = wb.configure
    monkeypatch.setattr(wb, "configure", lambda *a, **kw: calls.append((a, kw)) or original(*a, **kw))
    wb.insert("apple")
    old_filter = wb.filter
    d = explorer.calc.set_inputs(n="500", p="0.001")
    explorer.calc.confirm = lambda question: False
    assert explorer.calc.use_parameters() is False
    assert wb.filter is old_filter and len(wb.filter) == 1 and calls == []
    asked = []
    explorer.calc.confirm = lambda question: asked.append(question) or True
    with qtbot.waitSignal(wb.filterReset, timeout=2000):
        assert explorer.calc.use_parameters() is True
    assert "1 inserted" in asked[0]
    assert calls and calls[0][0][:2] == (d.m, d.k) and calls[0][1]["capacity"] == 500
    assert (wb.filter.m, wb.filter.k, wb.filter.scheme, wb.capacity) == (d.m, d.k, hashing.DEFAULT_SCHEME, 500)
    assert len(wb.filter) == 0
    assert window.params_panel.m_edit.text() == str(d.m)     # the rest of the window followed


def test_a_design_too_large_for_the_window_is_refused_with_a_message(window, explorer):
    before = window.wb.filter
    explorer.calc.set_inputs(n="100000000", p="0.01")
    assert explorer.calc.use_parameters() is False
    assert f"{MAX_M:,}" in explorer.calc.use_message.text()   # 958 million bits asked for
    assert window.wb.filter is before


def _curves(plot) -> dict:
    """The plot's curves by the names its legend shows (pyqtgraph's own list of the plot's data items)."""
    return {item.name(): item for item in plot.plot_item.listDataItems() if item.name()}


def _marks(plot) -> list:
    """The lines and notes drawn on the plot beside its curves."""
    return [item for item in plot.plot_item.items if isinstance(item, (pg.InfiniteLine, pg.TextItem))]


def test_k_plot_marks_the_optimum_and_reads_out(explorer):
    explorer.calc.set_inputs(m="20000", n="2000")
    plot = explorer.k_plot
    ks, exact = _curves(plot)["exact"].xData, _curves(plot)["exact"].yData
    assert list(ks[:3]) == [1, 2, 3]
    assert int(ks[np.argmin(exact)]) in (6, 7, 8) and int(ks[np.argmin(exact)]) == explorer.design.k
    lines = [m for m in _marks(plot) if hasattr(m, "value")]
    assert any(math.isclose(line.value(), 10 * math.log(2)) for line in lines)
    text = plot.readout_at(7.2)
    assert "exact" in text and f"{theory.fp_exact(20000, 7, 2000):.4g}" in text


def test_n_zero_shows_a_note_and_no_optimum(explorer):
    explorer.calc.set_inputs(m="1000", n="0")
    plot = explorer.k_plot
    assert not any(name.startswith("best integer k") for name in _curves(plot))
    assert not any(hasattr(m, "value") and m.angle == 90 for m in _marks(plot))
    notes = [m for m in _marks(plot) if hasattr(m, "textItem")]
    assert notes and "no optimal k" in notes[0].textItem.toPlainText()


def test_small_m_shows_exact_approx_and_bound_apart(explorer):
    explorer.calc.set_inputs(m="64", n="10")
    curves = _curves(explorer.k_plot)
    exact, approx, bound = (curves[name].yData for name in ("exact", "approximation", "bound"))
    assert np.max(np.abs(exact - approx) / exact) > 0.01 and np.all(bound > exact)


def _wait_measured(qtbot, panel):
    qtbot.waitUntil(lambda: not panel.runner.busy, timeout=20_000)


def test_measure_k_in_the_background_agrees_with_theory(explorer, qtbot):
    # enough work for several steps of the event loop (10^4 items a k went through in one step once the
    # bit passes were compiled)
    explorer.calc.set_inputs(m="1000000", n="100000")
    explorer.k_from.setValue(3)
    explorer.k_to.setValue(10)
    panel = explorer.k_measure
    panel.probes.setValue(20_000)
    progress, ticks = [], []
    panel.runner.progress.connect(lambda done, total: progress.append((done, total)))
    other = QtCore.QTimer()
    other.setInterval(0)
    other.timeout.connect(lambda: ticks.append(panel.runner.busy))
    other.start()
    assert panel.measure() is True
    assert panel.runner.busy and panel.cancel_button.isEnabled() and not panel.measure_button.isEnabled()
    _wait_measured(qtbot, panel)
    other.stop()
    assert any(ticks), "the event loop did not run while measuring"
    assert len(progress) > 2 and progress[-1][0] == progress[-1][1]
    assert len(explorer.k_runs) == 1
    r = explorer.k_runs[0]["result"]
    assert list(r["k"]) == list(range(3, 11))
    sd = np.sqrt(r["fp_exact"] * (1 - r["fp_exact"]) / 20_000)
    assert np.all(np.abs(r["fp_measured"] - r["fp_exact"]) <= 5 * sd)
    assert "measured, seed 0" in _curves(explorer.k_plot)


def test_new_seed_adds_a_second_run_and_cancel_adds_none(explorer, qtbot):
    explorer.calc.set_inputs(m="20000", n="2000")
    panel = explorer.k_measure
    panel.measure()
    _wait_measured(qtbot, panel)
    panel.measure_new_seed()
    _wait_measured(qtbot, panel)
    assert [run["seed"] for run in explorer.k_runs] == [0, 1]
    assert not np.array_equal(explorer.k_runs[0]["result"]["hits"], explorer.k_runs[1]["result"]["hits"])
    assert "measured, seed 1" in _curves(explorer.k_plot)
    panel.measure()
    panel.runner.cancel()
    assert not panel.runner.busy and len(explorer.k_runs) == 2
    assert "Cancelled" in panel.message.text()
    explorer.calc.set_inputs(m="20000", n="3000")     # another design: its points no longer apply
    assert explorer.k_runs == []


def test_measure_n_points(explorer, qtbot):
    explorer.calc.set_inputs(m="20000", n="2000", k="7")
    panel = explorer.n_measure
    panel.probes.setValue(20_000)
    panel.measure()
    _wait_measured(qtbot, panel)
    r = explorer.n_runs[0]["result"]
    assert list(r["n"]) == [500, 1000, 2000, 3000, 4000]
    sd = np.sqrt(np.maximum(r["fp_exact"] * (1 - r["fp_exact"]), 1e-9) / 20_000)
    assert np.all(np.abs(r["fp_measured"] - r["fp_exact"]) <= 5 * sd)


def test_bad_measure_settings_are_a_message(explorer):
    explorer.k_from.setValue(9)
    explorer.k_to.setValue(3)
    assert explorer.k_measure.measure() is False
    assert "empty range" in explorer.k_measure.message.text()
    assert not explorer.k_measure.runner.busy


def test_export_writes_readable_png_svg_and_csv(explorer, tmp_path, qtbot):
    explorer.calc.set_inputs(m="20000", n="2000")
    for index in range(explorer.tabs.count()):   # lay every plot out before exporting it
        explorer.tabs.setCurrentIndex(index)
        settle(qtbot, explorer)
    paths = explorer.export_all(tmp_path)
    assert len(paths) == 9
    for path in paths:
        if path.endswith(".png"):
            image = QtGui.QImage(path)
            assert not image.isNull() and image.width() > 100 and len(_colours(image)) > 4
        elif path.endswith(".svg"):
            root = ET.parse(path).getroot()
            assert root.tag.endswith("svg") and len(list(root.iter())) > 10
        else:
            with open(path, newline="") as fh:
                rows = list(csv.reader(fh))
            assert len(rows) > 10
            numbers = [float(c) for c in rows[1] if c.strip() and c.strip().lower() != "nan"]
            assert numbers


def test_the_explorer_is_not_one_colour(window, explorer, tmp_path):
    image = window.grab().toImage()
    assert len(_colours(image, step=9)) > 10
    plot_image = explorer.k_plot.plot_widget.grab().toImage()
    blue = [c for c in _colours(plot_image, step=2) if QtGui.QColor(c).blue() > 150 and QtGui.QColor(c).red() < 60]
    assert blue, "the exact curve is not drawn"


def test_mouse_over_the_plot_updates_the_readout(explorer, qtbot):
    explorer.calc.set_inputs(m="20000", n="2000")
    explorer.tabs.setCurrentWidget(explorer.tabs.widget(1))
    settle(qtbot, explorer)
    plot = explorer.k_plot
    vb = plot.plot_item.getViewBox()
    y_mid = sum(vb.viewRange()[1]) / 2
    plot.plot_widget.scene().sigMouseMoved.emit(vb.mapViewToScene(QtCore.QPointF(4.0, y_mid)))   # the mouse there
    assert f"{theory.fp_exact(20000, 4, 2000):.4g}" in plot.readout.text()
    plot.plot_widget.scene().sigMouseMoved.emit(QtCore.QPointF(-50, -50))     # outside the view: the summary
    assert "best integer k is 7" in plot.readout.text()


def test_a_refused_input_clears_the_previous_table_and_use_says_why(explorer):
    explorer.calc.set_inputs(n="200", p="0.01")
    assert "1,921" in explorer.calc.result.text()
    assert explorer.calc.set_inputs(n="200", p="2") is None
    assert explorer.calc.result.text() == ""
    assert explorer.calc.use_parameters() is False
    use = explorer.calc.use_message.text()
    assert use.startswith("Nothing to use: ") and "p" in use and "Nothing solved yet" not in use


@pytest.mark.parametrize("values, m, p", [({"m": "512 MiB", "k": "20", "n": "440e6"}, 1 << 32, None),
                                          ({"m": "8 KiB", "n": "2000"}, 65536, None),
                                          ({"n": "1000", "p": "1 in 1000"}, None, 0.001),
                                          ({"n": "1000", "p": "1/1000"}, None, 0.001),
                                          ({"n": "1,000", "p": "1%"}, None, 0.01)])
def test_units_as_people_write_them(explorer, values, m, p):
    d = explorer.calc.set_inputs(**values)
    assert d is not None, explorer.calc.message.text()
    assert (m is None or d.m == m) and (p is None or d.p_target == pytest.approx(p))


def test_a_large_design_is_computed_off_the_gui_thread(explorer, qtbot):
    # typed, as a person does: the table comes at once, the exact curves on a worker, the plots when ready
    explorer.calc.edits["m"].setText(str(2 ** 32))
    explorer.calc.edits["k"].setText("20")
    explorer.calc.edits["p"].setText("")
    explorer.calc.edits["n"].setText("440000000")
    d = explorer.calc.solve()
    assert d is not None and "4,294,967,296" in explorer.calc.result.text()
    assert explorer.drawing                      # solve() returned with the curves still being computed
    qtbot.waitUntil(lambda: not explorer.drawing, timeout=60000)
    assert {"m = 1,073,741,824", "m = 4,294,967,296", "m = 17,179,869,184"} <= set(_curves(explorer.n_plot))
