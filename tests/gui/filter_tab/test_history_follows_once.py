"""The history table during bulk work: the rows held back are announced together and the table scrolls to them in
the same turn (one paint for both, not the rows and then the scroll 100 ms later), claiming that paint so other
large repaints wait for it (gui/timing.py)."""

from __future__ import annotations

from bloomviz.gui import timing
from bloomviz.gui.filter_tab.history_panel import HistoryPanel
from bloomviz.gui.workbench import QtWorkbench


def test_rows_held_back_during_a_job_are_scrolled_to_in_the_same_turn(qtbot):
    wb = QtWorkbench(probes=200)
    assert wb.configure(200_000, 4)
    panel = HistoryPanel(wb)
    qtbot.addWidget(panel)
    panel.resize(500, 90)       # a few rows in view: the newest are below it until scrolled to
    panel.show()
    qtbot.waitExposed(panel)
    seen = []
    bar = panel.verticalScrollBar()
    # after the panel's own slot (connected first): where the table stands in the turn the rows were announced
    panel.model_.flushed.connect(lambda: seen.append((panel.model_.rowCount(), bar.value(), bar.maximum(),
                                                     timing.paint_claimed())))
    finished = []
    wb.jobFinished.connect(lambda *_: finished.append(1))
    assert wb.insert_many([f"w{i}" for i in range(120_000)])
    qtbot.waitUntil(lambda: bool(finished), timeout=60_000)
    qtbot.waitUntil(lambda: panel.model_.rowCount() == len(wb.history), timeout=5_000)
    assert seen, "no rows were held back and announced together"
    assert all(value == maximum > 0 and claimed for _rows, value, maximum, claimed in seen), seen
    # the newest row ends in view
    qtbot.waitUntil(lambda: bar.value() == bar.maximum(), timeout=5_000)
    last = panel.model_.rowCount() - 1
    assert panel.rowAt(panel.viewport().height() - 2) == last or panel.visualRect(
        panel.model_.index(last, 0)).bottom() <= panel.viewport().height()
