"""The history table's cells are Qt's own, written once per row (filter_tab/history_panel.py): each reads as the
row's entry says (text, alignment, verdict colour, tooltips, a table model's flags); the newest rows are written
when announced, a paint writes the rows it shows before painting them, no other row is written, and the view's
type-ahead search finds rows never written."""

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
    model.write_rows(0, model.rowCount() - 1)      # (the rows a view would show)
    assert model.rowCount() == len(wb.history) > 5
    for row, entry in enumerate(wb.history):
        assert cells(model, row) == expected_cells(entry), row


def test_the_newest_rows_are_written_when_announced_and_no_others():
    wb = QtWorkbench(probes=50)
    assert wb.configure(4_000, 3)
    for i in range(3 * history_panel.WRITE_NOW):
        wb.insert(f"w{i}")
    wb.flush()
    model = HistoryModel(wb)            # made over a history: as after a reset
    rows = model.rowCount()
    assert rows == 3 * history_panel.WRITE_NOW
    for row in range(rows - history_panel.WRITE_NOW, rows):
        assert cells(model, row) == expected_cells(wb.history[row]), row
    assert model.index(rows - history_panel.WRITE_NOW - 1, 2).data() is None   # never shown: never written
    wb.insert("one more")
    wb.flush()
    assert cells(model, rows) == expected_cells(wb.history[rows])


def test_type_ahead_finds_rows_never_written():
    wb = QtWorkbench(probes=50)
    assert wb.configure(4_000, 3)
    for word in ("apple", "Banana", "cherry", "apricot", "banana split"):
        wb.insert(word)
    for i in range(3 * history_panel.WRITE_NOW):
        wb.lookup(f"guest{i}")
    wb.flush()
    model = HistoryModel(wb)
    flag = QtCore.Qt.MatchFlag
    item = model.index(2, 2)
    assert model.index(1, 2).data() is None                     # not written
    found = model.match(item, ROLE.DisplayRole, "ban", 1, flag.MatchStartsWith | flag.MatchWrap)
    assert [i.row() for i in found] == [4]
    found = model.match(item, ROLE.DisplayRole, "ban", -1, flag.MatchStartsWith | flag.MatchWrap)
    assert [i.row() for i in found] == [4, 1]
    assert [i.row() for i in model.match(item, ROLE.DisplayRole, "ban", -1, flag.MatchStartsWith)] == [4]
    assert [i.row() for i in model.match(model.index(0, 2), ROLE.DisplayRole, "Banana", -1,
                                         flag.MatchExactly)] == [1]
    assert [i.row() for i in model.match(model.index(0, 2), ROLE.DisplayRole, "an", -1, flag.MatchContains)] \
        == [1, 4]
    assert [i.row() for i in model.match(model.index(0, 2), ROLE.DisplayRole, "BANANA", -1,
                                         flag.MatchFixedString | flag.MatchCaseSensitive)] == []
    assert [i.row() for i in model.match(model.index(0, 1), ROLE.DisplayRole, "look", 2,
                                         flag.MatchStartsWith)] == [5, 6]
    # a search of another kind writes the rows and asks Qt's own
    assert [i.row() for i in model.match(model.index(0, 2), ROLE.DisplayRole, "^a.*t$", -1,
                                         flag.MatchRegularExpression)] == [3]


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
