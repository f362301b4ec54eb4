"""The history table's cells are Qt's own, written once per row (filter_tab/history_panel.py): each reads as the
row's entry says (text, alignment, verdict colour, tooltips, a table model's flags); the newest rows are written
when announced, the rest in idle turns, and a paint writes the rows it shows before painting them."""

from __future__ import annotations

from PySide6 import QtCore, QtGui

from bloomviz.gui.filter_tab import history_panel
from bloomviz.gui.filter_tab.history_panel import HistoryModel, HistoryPanel
from bloomviz.gui.plain_text import tooltip
from bloomviz.gui.theme import verdict_colour
from bloomviz.gui.workbench import QtWorkbench
from bloomviz.vocabulary import Verdict

ROLE = QtCore.Qt.ItemDataRole


def expected_cells(e) -> list[dict]:
    texts = HistoryModel.row_texts(e)
    out = []
    for col, text in enumerate(texts):
        cell = {ROLE.DisplayRole: text, ROLE.TextAlignmentRole: history_panel._RIGHT
                if col in history_panel._NUMERIC else None, ROLE.ForegroundRole: None, ROLE.ToolTipRole: None}
        out.append(cell)
    out[3][ROLE.ForegroundRole] = QtGui.QColor(verdict_colour(e.verdict)).name()
    out[2][ROLE.ToolTipRole] = tooltip(e.label)
    if e.note:
        out[13][ROLE.ToolTipRole] = tooltip(e.note)
    if e.false_negatives:
        out[13][ROLE.ForegroundRole] = QtGui.QColor(verdict_colour(Verdict.FALSE_POSITIVE)).name()
    return out


def cells(model, row: int) -> list[dict]:
    out = []
    for col in range(model.columnCount()):
        index = model.index(row, col)
        brush = index.data(ROLE.ForegroundRole)
        align = index.data(ROLE.TextAlignmentRole)
        out.append({ROLE.DisplayRole: index.data(ROLE.DisplayRole),
                    ROLE.TextAlignmentRole: None if align is None else int(align),
                    ROLE.ForegroundRole: None if brush is None else brush.color().name(),
                    ROLE.ToolTipRole: index.data(ROLE.ToolTipRole)})
        assert model.flags(index) == history_panel._FLAGS, (row, col)
    return out


def a_history_with_a_false_negative(wb: QtWorkbench) -> None:
    assert wb.configure(16, 2, variant="counting")
    for word in ("alpha", "beta", "gamma", "delta", "<img src=x>"):
        wb.insert(word)
    wb.lookup("alpha")
    wb.lookup("never put in")
    for i in range(200):           # a non-member whose counters are all set, removed by force
        if wb.is_member(f"guest{i}") is False and wb.remove(f"guest{i}", force=True) is not None \
                and wb.history[-1].false_negatives:
            break
    wb.flush()
    assert any(e.false_negatives and e.note for e in wb.history), "no forced removal left a false negative"


def test_every_cell_reads_as_its_entry_says(qtbot):
    wb = QtWorkbench(probes=100)
    model = HistoryModel(wb)
    a_history_with_a_false_negative(wb)
    qtbot.waitUntil(lambda: model.all_written, timeout=5_000)
    assert model.rowCount() == len(wb.history) > 5
    for row, entry in enumerate(wb.history):
        assert cells(model, row) == expected_cells(entry), row


def test_the_newest_rows_are_written_at_once_and_the_rest_in_idle_turns(qtbot):
    wb = QtWorkbench(probes=50)
    assert wb.configure(4_000, 3)
    for i in range(3 * history_panel.WRITE_NOW):
        wb.insert(f"w{i}")
    wb.flush()
    wb.rollback(wb.checkpoint())          # a reset with every row there: a model made anew
    model = HistoryModel(wb)
    rows = model.rowCount()
    assert rows == 3 * history_panel.WRITE_NOW and not model.all_written
    assert cells(model, rows - 1) == expected_cells(wb.history[-1])
    assert model.index(0, 2).data() is None                 # the oldest wait for an idle turn
    qtbot.waitUntil(lambda: model.all_written, timeout=5_000)
    assert [cells(model, r) for r in range(rows)] == [expected_cells(e) for e in wb.history]


def test_a_paint_writes_the_rows_it_shows(qtbot):
    wb = QtWorkbench(probes=50)
    assert wb.configure(4_000, 3)
    for i in range(6 * history_panel.WRITE_NOW):
        wb.insert(f"w{i}")
    wb.flush()
    panel = HistoryPanel(wb)
    qtbot.addWidget(panel)
    model = panel.model_
    panel.resize(600, 200)
    panel.scrollToTop()
    panel.grab()             # a paint of the top rows, with no turn of the event loop before it (no idle writing)
    top, bottom = panel.rowAt(0), panel.rowAt(panel.viewport().height() - 1)
    assert 0 == top < bottom < model.rowCount() - history_panel.WRITE_NOW
    for row in range(top, bottom + 1):
        assert cells(model, row) == expected_cells(wb.history[row]), row
    assert model.index(bottom + 2, 0).data() is None


def test_the_model_answers_no_role_in_python():
    # QStandardItemModel.multiData asks data() role by role: a data() written here would make every cell of
    # every paint a Python call again (the paint it replaced: 5.3-5.9 ms against 2.0-2.3 ms)
    assert "data" not in HistoryModel.__dict__ and "multiData" not in HistoryModel.__dict__
