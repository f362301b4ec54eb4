"""One operation, one signal: the Qt adapter emits ``operated(record)`` once per operation, and the views read
what they show from that record (grid cells and marks, the history row, the explanation, the status line);
the signals that fanned the record out beside it are gone. The records are delivered in the turn of the event
loop after the operation, in order, and before any state signal (a reset, a job's end, a refusal), so a view
sees what happened in the order it happened; ``flush()`` delivers them now. Waits are on conditions (the
Explain panel and the status line redraw in later turns of the event loop)."""

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
    wb.flush()
    assert [r.op for r in records] == ["insert", "lookup", "insert batch"]
    assert records[-1] is wb.last_record and records[0].history is wb.history[0]


def test_a_record_arrives_in_the_next_turn_once_and_in_order(qtbot):
    wb = QtWorkbench(probes=16)
    records = []
    wb.operated.connect(records.append)
    wb.insert("apple")
    assert records == []                       # the operation returned before the views were told
    qtbot.waitUntil(lambda: len(records) == 1)
    wb.model.insert("pear")                    # the model called directly (a job's step does): queued too
    wb.model.lookup("pear")
    qtbot.waitUntil(lambda: len(records) == 3)
    assert [(r.op, r.item) for r in records] == [("insert", "apple"), ("insert", "pear"), ("lookup", "pear")]
    wb.flush()                                 # nothing pending: nothing delivered twice
    assert len(records) == 3


def test_state_signals_come_after_the_records_made_before_them(qtbot):
    wb = QtWorkbench(probes=16)
    seen = []
    wb.operated.connect(lambda rec: seen.append((rec.op, len(rec.history.label) > 0, wb.busy)))
    wb.aboutToReset.connect(lambda: seen.append("about to reset"))
    wb.filterReset.connect(lambda: seen.append("reset"))
    wb.error.connect(lambda message: seen.append("error"))
    wb.busyChanged.connect(lambda busy: seen.append(("busy", busy)))
    wb.jobFinished.connect(lambda *_: seen.append("finished"))
    wb.model.insert("apple")                   # made without the adapter: only the reset below delivers it
    wb.model.reset()
    assert seen == [("insert", True, False), "about to reset", "reset"]
    seen.clear()
    wb.model.insert("pear")
    wb.model.insert("")                        # refused: the refusal comes after the insert before it
    assert seen == [("insert", True, False), "error"]
    seen.clear()
    assert wb.insert_many([f"i{i}" for i in range(10)])
    wb.run_to_end()
    # the job's chunks are delivered while the views are told a job runs, before it ends, though the model's
    # job had ended when its end delivered them
    assert seen[0] == ("busy", True) and seen[-2:] == [("busy", False), "finished"]
    chunks = [s for s in seen if isinstance(s, tuple) and s[0] == "insert batch"]
    assert chunks and all(busy for _op, _label, busy in chunks)


def test_a_call_that_changes_the_model_delivers_what_is_pending_first(qtbot):
    # a view's slot that reads the model (the undo label, the history's length) reads the state of its record
    wb = QtWorkbench(probes=16)
    seen = []
    wb.operated.connect(lambda rec: seen.append((rec.item, len(wb.history), wb.undo_what)))
    wb.insert("apple")
    wb.insert("pear")
    assert seen == [("apple", 1, ("insert", "apple"))]
    with wb.quiet():                           # quiet work too: the views were told what came before it
        assert seen[-1][0] == "pear"
    wb.flush()
    assert seen == [("apple", 1, ("insert", "apple")), ("pear", 2, ("insert", "pear"))]


def test_records_made_while_the_signals_are_blocked_are_never_delivered(qtbot):
    wb = QtWorkbench(probes=16)
    records = []
    wb.operated.connect(records.append)
    wb.blockSignals(True)
    wb.insert("apple")
    wb.blockSignals(False)
    wb.insert("pear")
    wb.flush()
    assert [r.item for r in records] == ["pear"]


@pytest.mark.window(probes=200)
def test_a_typed_insert_updates_grid_history_explanation_and_status(window, qtbot):
    win = window
    for i in range(20):
        win.wb.insert(f"earlier {i}")
    win.wb.flush()
    rows = win.history_panel.model().rowCount()
    win.item_panel.line.setText("typed by a student")
    qtbot.keyClick(win.item_panel.line, QtCore.Qt.Key.Key_Return)
    rec = win.wb.last_record
    positions = win.wb.filter.positions("typed by a student")
    assert rec.op == "insert" and rec.item == "typed by a student"
    # the views draw it in the next turn of the event loop
    model = win.history_panel.model()
    qtbot.waitUntil(lambda: model.rowCount() == rows + 1)
    # the grid: the item's cells set and marked with what each was
    assert all(win.grid.value(p) == 1 for p in positions)
    marked, kinds = win.grid.highlighted()
    assert sorted(int(p) for p in marked) == sorted(positions) and kinds == list(rec.kinds)
    # the history: one more row, this item's
    assert model.index(rows, 2).data() == "typed by a student"
    assert win.item_panel.verdict_text.startswith("Inserted")
    qtbot.waitUntil(lambda: "Inserted “typed by a student”" in win.explain_panel.toPlainText())
    qtbot.waitUntil(lambda: "n = 21 " in win.status_line.label.text())    # the line drawn, not recomputed
    # undo takes it back everywhere, and the grid marks the previous operation's cells again
    win.actions_["undo"].trigger()
    assert model.rowCount() == rows
    marked, _kinds = win.grid.highlighted()
    assert sorted(int(p) for p in marked) == sorted(win.wb.last_record.highlight)
    assert "typed by a student" not in model.index(rows - 1, 2).data()
