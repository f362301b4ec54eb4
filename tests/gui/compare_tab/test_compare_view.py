"""The compare view: runs from the event loop, shows every configuration, cancels cleanly, installs as a tab."""

import numpy as np
import pytest
from PySide6 import QtCore

from bloomviz.studies.compare import Config
from bloomviz.filters.capabilities import grid_values
from bloomviz.gui.compare_tab.view import TAB_KEY, CompareView, install


@pytest.fixture
def view(qtbot):
    v = CompareView()
    qtbot.addWidget(v)
    v.resize(1200, 800)
    v.show()
    return v


def test_lesson_preset_run_marks_weak_shift_above_theory(view, qtbot):
    assert [c.scheme for c in view.configs()][-1] == "weak-shift"
    assert view.start()
    assert view.running and view.cancel_button.isEnabled() and not view.run_button.isEnabled()
    with qtbot.waitSignal(view.finished, timeout=20_000) as blocker:
        pass
    assert blocker.args == [False]
    cmp = view.comparison
    assert cmp.finished and cmp.k == 10
    summaries = {s.label: s for s in cmp.summaries()}
    assert summaries["weak-shift"].low > summaries["weak-shift"].theory
    assert "weak-shift" in view.message.text() and "×" in view.message.text()
    for lane, frame in zip(cmp.lanes, view.lanes):
        assert frame.isVisibleTo(view)
        # the grid shows the lane's own filter, in full
        assert np.array_equal(frame.grid.picture.ravel()[:lane.filter.m], grid_values(lane.filter))
        assert "formula" in frame.stats.text() and "fill explains" in frame.stats.text()
    # judged against what each lane's own bits explain: weak-shift alone is called dependent
    assert "positions dependent" in view.lanes[3].stats.text()
    assert not any("dependent" in frame.stats.text() for frame in view.lanes[:3])
    assert view.message.text().count("not independent") == 1
    # every lane's measured curve is drawn, to the last insert
    for lane, low, high, measured, th in view.pictures.curves:
        x, y = measured.getData()
        assert x[-1] == cmp.n


def test_two_configurations_hide_the_other_lanes_and_mk_sizing(view):
    view.set_sizing(m=3000, k=3)
    view.set_configs([Config("standard", "murmur3-km"), Config("partitioned", "murmur3-km")])
    view.settings.items_spin.setValue(300)
    view.settings.probes_spin.setValue(500)
    assert view.start()
    view.run_to_end()
    cmp = view.comparison
    assert (cmp.m, cmp.k, len(cmp.lanes)) == (3000, 3, 2)
    assert [f.isVisibleTo(view) for f in view.lanes] == [True, True, False, False]
    assert view.lanes[1].grid.m == 3000  # 3000 is a multiple of k = 3: no rounding


def test_cancel_stops_between_chunks_and_keeps_the_measurement(view, qtbot):
    view.set_sizing(m=200_000, k=4)
    view.settings.items_spin.setValue(400_000)
    assert view.start()
    qtbot.waitUntil(lambda: view.comparison.done > 0, timeout=10_000)
    with qtbot.waitSignal(view.finished, timeout=5_000) as blocker:
        view.cancel()
    assert blocker.args == [True]
    cmp = view.comparison
    assert not view.running and 0 < cmp.done < cmp.n
    assert "cancelled after" in view.message.text()
    for lane in cmp.lanes:
        assert len(lane.filter) == cmp.done  # every lane stopped at the same insert


def test_bad_settings_are_refused_with_a_message(view):
    view.set_configs([Config("standard", "murmur3-km"), Config("standard", "murmur3-km")])
    assert not view.start()
    assert "repeats configuration 1" in view.message.text()
    view.load_lesson()
    view.settings.design_p.setText("2")
    assert not view.start()
    assert "p must be in (0, 1), got '2'" in view.message.text()
    view.settings.design_p.setText("abc")
    assert not view.start() and "'abc'" in view.message.text()
    assert view.comparison is None


def test_install_adds_a_tab_without_touching_the_main_filter(qtbot, tmp_path):
    from bloomviz.gui.main_window import MainWindow
    settings = QtCore.QSettings(str(tmp_path / "s.ini"), QtCore.QSettings.Format.IniFormat)
    window = MainWindow(settings=settings)
    qtbot.addWidget(window)
    before = window.wb.filter.bits.copy()
    install(window)
    window.show_tab(TAB_KEY)            # the view is made on its first showing
    view = window.tab_view(TAB_KEY)
    assert window.current_view() is view
    view.set_sizing(m=2000, k=3)
    view.settings.items_spin.setValue(200)
    view.settings.probes_spin.setValue(200)
    assert view.start()
    view.run_to_end()
    assert window.wb.filter.bits == before and len(window.wb.filter) == 0


def test_the_sizing_line_writes_numbers_the_languages_way(qtbot):
    # the line's words are translated when shown: its numbers follow the language too (not "30,000" in Croatian)
    from bloomviz import i18n
    was = i18n.language()
    i18n.use("hr")
    try:
        v = CompareView()
        qtbot.addWidget(v)
        v.set_sizing(m=30_000, k=3)
        v.settings.items_spin.setValue(2_000)
        text = v.settings.design_label.text()
    finally:
        i18n.use(was)
    assert "broj bitova m = 30.000" in text and "bitova po elementu: 15,0" in text and "n = 2.000" in text, text
