"""The set-operations view: grids and numbers follow the items; different parameters are refused."""

import numpy as np
import pytest
from PySide6 import QtCore

from bloomviz.filters import bitstore
from bloomviz.studies.setops import build
from bloomviz.gui.setops_tab.view import TAB_KEY, SetOpsView, install


@pytest.fixture
def view(qtbot):
    v = SetOpsView()
    qtbot.addWidget(v)
    return v


def test_default_sample_is_computed_and_drawn(view):
    r = view.report
    assert r is not None and (r.true.a, r.true.b, r.true.intersection) == (250, 250, 100)
    union_grid = view.grids["union"]
    assert np.array_equal(union_grid.picture.ravel()[:r.a.m], bitstore.unpack(r.union.bits))
    extra = view.grids["extra"].picture.ravel()[:r.a.m]
    assert int(extra.sum()) == r.extra_and_bits > 0
    assert view.table.item(3, 0).text() == "100"
    assert float(view.table.item(3, 1).text().replace(",", "")) == pytest.approx(r.estimated.intersection, abs=0.06)
    assert "yes" in view.grid_note.text()
    assert f"+{r.extra_and_bits:,}" in view.and_text.text()


def test_typed_items_are_used(view, qtbot):
    view.text_a.setPlainText("apple\npear\n\nfig")
    view.text_b.setPlainText("fig\nplum")
    qtbot.waitUntil(lambda: view.report.true.union == 4, timeout=3000)
    r = view.report
    assert (r.true.a, r.true.b, r.true.intersection) == (3, 2, 1)
    assert r.union.bits == build(["apple", "pear", "fig", "plum"], view.m_a.value(), view.k_a.value()).bits


def test_different_parameters_are_refused_with_the_cores_message(view):
    before = view.report
    view.same.setChecked(False)
    view.k_b.setValue(view.k_a.value() + 1)
    assert not view.compute()
    assert "differ in k" in view.message.text()
    assert view.report is before  # nothing replaced
    view.k_b.setValue(view.k_a.value())
    view.scheme_b.setCurrentIndex(view.scheme_b.findData("weak-shift"))
    assert not view.compute() and "differ in scheme" in view.message.text()
    view.same.setChecked(True)
    assert view.compute() and view.k_b.value() == view.k_a.value()


def test_bad_sample_is_refused(view):
    view.overlap.setValue(300)
    view.sample()
    assert "overlap must be at most" in view.message.text()


def test_install_adds_the_tab(qtbot, tmp_path):
    from bloomviz.gui.main_window import MainWindow
    w = MainWindow(settings=QtCore.QSettings(str(tmp_path / "s.ini"), QtCore.QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    install(w)
    w.show_tab(TAB_KEY)                 # the view is made on its first showing
    view = w.tab_view(TAB_KEY)
    assert w.current_view() is view
    assert len(w.wb.filter) == 0
