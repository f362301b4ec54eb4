"""One operation, one signal: the Qt adapter emits ``operated(record)`` once per operation, and the views read
what they show from that record (grid cells and marks, the history row, the explanation, the status line);
the signals that fanned the record out beside it are gone. Waits are on conditions (the Explain panel and the
status line redraw in later turns of the event loop)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6 import QtCore

from bloomviz.gui.workbench import QtWorkbench


def test_the_adapter_has_one_signal_for_operations(qtbot):
    assert isinstance(QtWorkbench.operated, QtCore.Signal)
    for gone in ("historyAppended", "bitsChanged", "highlighted"):
        assert not hasattr(QtWorkbench, gone), gone
    wb = QtWorkbench(probes=16)
    records = []
    wb.operated.connect(records.append)
    wb.insert("apple")
    wb.lookup("apple")
    wb.insert_batch(["pear", "plum"])
    assert [r.op for r in records] == ["insert", "lookup", "insert batch"]
    assert records[-1] is wb.last_record and records[0].history is wb.history[0]


@pytest.mark.window(probes=200)
def test_a_typed_insert_updates_grid_history_explanation_and_status(window, qtbot):
    win = window
    for i in range(20):
        win.wb.insert(f"earlier {i}")
    rows = win.history_panel.model().rowCount()
    win.item_panel.line.setText("typed by a student")
    qtbot.keyClick(win.item_panel.line, QtCore.Qt.Key.Key_Return)
    rec = win.wb.last_record
    positions = win.wb.filter.positions("typed by a student")
    assert rec.op == "insert" and rec.item == "typed by a student"
    # the grid: the item's cells set and marked with what each was
    assert all(win.grid.value(p) == 1 for p in positions)
    marked, kinds = win.grid.highlighted()
    assert sorted(int(p) for p in marked) == sorted(positions) and kinds == list(rec.kinds)
    # the history: one more row, this item's
    model = win.history_panel.model()
    assert model.rowCount() == rows + 1
    assert model.index(rows, 2).data() == "typed by a student"
    assert win.item_panel.verdict_text.startswith("Inserted")
    # the explanation and the status line come in the next turns of the event loop
    qtbot.waitUntil(lambda: "Inserted “typed by a student”" in win.explain_panel.toPlainText())
    qtbot.waitUntil(lambda: "n = 21 " in win.status_line.label.text())    # the line drawn, not recomputed
    # undo takes it back everywhere, and the grid marks the previous operation's cells again
    win.actions_["undo"].trigger()
    assert model.rowCount() == rows
    marked, _kinds = win.grid.highlighted()
    assert sorted(int(p) for p in marked) == sorted(win.wb.last_record.highlight)
    assert "typed by a student" not in model.index(rows - 1, 2).data()
