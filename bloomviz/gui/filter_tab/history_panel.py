"""The history table: every operation with its verdict and the running counts after it.

A table model over the workbench's own list of ``HistoryEntry`` (no copy): rows are announced as they are
appended and the whole model resets when the workbench makes a new filter.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.vocabulary import Verdict
from bloomviz.gui import theme
from bloomviz.gui.plain_text import tooltip
from bloomviz.gui.theme import verdict_colour
from bloomviz.gui.timing import Throttle, claim_paint
from bloomviz.gui.workbench import QtWorkbench
from bloomviz.workbench.records import HistoryEntry
from bloomviz.i18n import number, tr

COLUMNS = (
    ("#", "Operation number since the filter was made"),
    ("Operation", "insert, lookup, a batch of inserts, or remove (a counting filter)"),
    ("Item", "The item (characters that cannot be shown are escaped, e.g. \\ud800)"),
    ("Verdict", "inserted; true positive (a member found); true negative (a non-member rejected); "
                "false positive (a non-member whose k bits were all set, by other items or by its own saturated "
                "counters); false negative (a member rejected: a forced removal took one of its counters to 0)"),
    ("n", "Inserts so far"),
    ("Lookups", "Lookups so far"),
    ("TP", "True positives so far"),
    ("TN", "True negatives so far"),
    ("FP", "False positives so far (among your lookups)"),
    ("FN", "False negatives so far (members a lookup called absent, after a forced removal)"),
    ("Fill", "Fraction of bits set after the operation"),
    ("FP rate", "False-positive rate measured on the probes after the operation"),
    ("Positions", "The item's k bit positions"),
    ("Note", "What else happened: a removal's false negatives (inserted items that now test negative), "
             "saturated counters left alone"),
)


_DISPLAY = QtCore.Qt.ItemDataRole.DisplayRole
_ALIGN = QtCore.Qt.ItemDataRole.TextAlignmentRole
_FOREGROUND = QtCore.Qt.ItemDataRole.ForegroundRole
_TOOLTIP = QtCore.Qt.ItemDataRole.ToolTipRole
_ROLES = frozenset((_DISPLAY, _ALIGN, _FOREGROUND, _TOOLTIP))
_NUMERIC = frozenset((0, 4, 5, 6, 7, 8, 9, 10, 11))
_NOTE = 13
_RIGHT = int(QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter)


class HistoryModel(QtCore.QAbstractTableModel):
    #: Rows held back during bulk work were announced together (``flush``): the view follows them at once
    flushed = QtCore.Signal()

    def __init__(self, workbench: QtWorkbench, parent=None):
        super().__init__(parent)
        self._wb = workbench
        self._history = workbench.history      # the model's list (a new one with each reset)
        self._rows = len(self._history)
        self._texts: dict[int, tuple[str, ...]] = {}   # rows never change once written: cache their texts
        self._throttle = Throttle(250, self.flush, self)
        self._resetting = False
        workbench.operated.connect(self._appended)
        workbench.aboutToReset.connect(self._begin_reset)
        workbench.filterReset.connect(self._reset)
        workbench.busyChanged.connect(lambda busy: None if busy else self.flush())
        theme.notifier().changed.connect(self._on_theme)

    def _on_theme(self, _dark: bool) -> None:
        if self._rows:
            self.dataChanged.emit(self.index(0, 3), self.index(self._rows - 1, 3))

    def rowCount(self, parent=QtCore.QModelIndex()) -> int:
        return 0 if parent.isValid() else self._rows

    def columnCount(self, parent=QtCore.QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section, orientation, role=QtCore.Qt.ItemDataRole.DisplayRole):
        if orientation != QtCore.Qt.Orientation.Horizontal:
            return None
        if role == QtCore.Qt.ItemDataRole.DisplayRole:
            return tr(COLUMNS[section][0])
        if role == QtCore.Qt.ItemDataRole.ToolTipRole:
            return tr(COLUMNS[section][1])
        return None

    def entry(self, row: int) -> HistoryEntry:
        return self._wb.history[row]

    def data(self, index, role=QtCore.Qt.ItemDataRole.DisplayRole):
        # Views ask for a dozen roles per cell on every repaint: answer the unused ones before any work.
        # A stale index (a row the workbench has dropped) answers nothing: an exception raised inside a paint
        # takes the whole process down.
        if role not in _ROLES or not index.isValid() or index.row() >= min(self._rows, len(self._history)):
            return None
        col = index.column()
        if role == _DISPLAY:
            row = index.row()
            texts = self._texts.get(row)
            if texts is None:
                texts = self._row(row)
            return texts[col]
        if role == _ALIGN:
            return _RIGHT if col in _NUMERIC else None
        e = self._history[index.row()]
        if role == _FOREGROUND and col == _NOTE and getattr(e, "false_negatives", ()):
            return QtGui.QBrush(QtGui.QColor(verdict_colour(Verdict.FALSE_POSITIVE)))
        if role == _FOREGROUND and col == 3:
            return QtGui.QBrush(QtGui.QColor(verdict_colour(e.verdict)))
        if role == _TOOLTIP and col == 2:
            return tooltip(e.label)   # an item: Qt would read "<img src=…>" in a tooltip as an image
        if role == _TOOLTIP and col == _NOTE:
            note = getattr(e, "note", "")
            return tooltip(note) if note else None
        return None

    def multiData(self, index, span) -> None:
        """Every role a delegate asks of one cell, in one call: Qt 6's delegates ask them together, and answered
        by ``data`` one role at a time a repaint of the table after an insert made ~800 calls of it."""
        row = index.row()
        if not index.isValid() or row >= min(self._rows, len(self._history)):
            for i in range(len(span)):
                span[i].clearData()
            return
        col = index.column()
        for i in range(len(span)):
            cell = span[i]
            role = cell.role()
            if role == _DISPLAY:
                texts = self._texts.get(row)
                cell.setData((texts if texts is not None else self._row(row))[col])
            elif role == _ALIGN and col in _NUMERIC:
                cell.setData(_RIGHT)
            elif role in _ROLES and role != _ALIGN and (col == 3 or col == 2 or col == _NOTE):
                value = self.data(index, role)     # a verdict's colour, a tooltip: a few cells of a row
                cell.clearData() if value is None else cell.setData(value)
            else:
                cell.clearData()

    def _row(self, row: int) -> tuple[str, ...]:
        texts = self._texts[row] = self.row_texts(self._history[row])
        if len(self._texts) > 512:
            self._texts.clear()
            self._texts[row] = texts
        return texts

    @staticmethod
    def row_texts(e: HistoryEntry) -> tuple[str, ...]:
        """A row's fourteen texts, written once (its cells are then read from them: writing the whole row for
        each cell made a row cost 14 times its words)."""
        return (
            str(e.index), tr(e.op), e.label, tr(e.verdict),
            number(e.n), number(e.lookups), number(e.true_positives), number(e.true_negatives),
            number(e.false_positives), number(e.false_negative_lookups), number(e.fill * 100, 1) + "%",
            number(e.fp_measured * 100, 2) + "%",
            ", ".join(number(int(p)) for p in e.positions[:12]) + (" …" if len(e.positions) > 12 else ""),
            getattr(e, "note", ""),
        )

    def _appended(self, rec) -> None:
        # During bulk work a row arrives with every chunk; announcing each one repaints the table each time.
        if self._resetting:
            return    # the reset under way counts this row when it ends
        if rec.op == "insert batch" and self._wb.busy:
            self._throttle.request()
            return
        total = len(self._history)
        if total > self._rows:        # (a row the throttle still holds is announced with it)
            self.beginInsertRows(QtCore.QModelIndex(), self._rows, total - 1)
            self._rows = total
            self.endInsertRows()

    def flush(self) -> None:
        self._throttle.cancel()
        total = len(self._history)
        if self._resetting or total <= self._rows:
            return
        self.beginInsertRows(QtCore.QModelIndex(), self._rows, total - 1)
        self._rows = total
        self.endInsertRows()
        self.flushed.emit()

    def _begin_reset(self) -> None:
        # Called before the workbench drops rows: from here until filterReset the model has no rows, so a
        # repaint in between asks for none of the rows that are about to go.
        if self._resetting:
            return
        self._throttle.cancel()
        self._texts.clear()
        self.beginResetModel()
        self._resetting = True
        self._rows = 0

    def _reset(self) -> None:
        self._begin_reset()
        self._history = self._wb.history
        self._rows = len(self._history)
        self._resetting = False
        self.endResetModel()


class HistoryPanel(QtWidgets.QTableView):
    def __init__(self, workbench: QtWorkbench, parent=None):
        super().__init__(parent)
        self.model_ = HistoryModel(workbench, self)
        self.setModel(self.model_)
        self.setAlternatingRowColors(True)
        self.setSelectionBehavior(QtWidgets.QAbstractItemView.SelectionBehavior.SelectRows)
        self.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        # One line per row, elided at its end: with word wrap a label was cut at its first hyphen.
        self.setWordWrap(False)
        self.setTextElideMode(QtCore.Qt.TextElideMode.ElideRight)
        header = self.horizontalHeader()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.Interactive)
        self.fit_columns()
        self.setToolTip(tr("Every operation on this filter, newest at the bottom, with the counts after it."))
        self._follow = Throttle(100, self._to_newest, self)
        # Rows arrive up to hundreds a second during auto-play; scroll to the newest at most ten times a second.
        self.model_.rowsInserted.connect(self._follow.request)
        # Rows held back during bulk work: scrolled to in the same turn, so the table paints once for them (the
        # rows, then the scroll 100 ms later, painted it twice: 5-15 ms of CPU each at 10^7 items)
        self.model_.flushed.connect(self._to_newest)

    def _to_newest(self) -> None:
        self._follow.cancel()
        claim_paint(self.viewport())    # the whole table paints again (5-6 ms): other large repaints wait for it
        self._widen_for_numbers()
        self.scrollToBottom()

    def fit_columns(self) -> None:
        """Column widths from the font: numbers as wide as their header or a typical value, text columns
        narrow enough that all fourteen fit a window of the default size (the rest elides; tooltips show it)."""
        metrics = self.fontMetrics()
        samples = {0: "999", 1: "insert batch", 2: "a typical item", 3: str(Verdict.FALSE_POSITIVE), 4: "99,999",
                   5: "9,999", 6: "999", 7: "999", 8: "999", 9: "999", 10: "99.9%", 11: "9.99%",
                   12: "1,234, 5,678", 13: "note"}
        pad = metrics.horizontalAdvance("M")
        for col, (title, _tip) in enumerate(COLUMNS):
            self.setColumnWidth(col, max(metrics.horizontalAdvance(tr(title)), metrics.horizontalAdvance(samples[col]))
                                + pad)

    NUMBER_COLUMNS = (0, 4, 5, 6, 7, 8, 9)   # #, n, lookups, TP, TN, FP, FN: counts only grow, the newest row is widest

    def _widen_for_numbers(self) -> None:
        """A count is never shown cut ("1,00…" is not a number): its column grows to the newest row's value."""
        last = self.model_.rowCount() - 1
        if last < 0:
            return
        metrics, pad = self.fontMetrics(), self.fontMetrics().horizontalAdvance("M")
        for col in self.NUMBER_COLUMNS:
            text = self.model_.index(last, col).data()
            need = metrics.horizontalAdvance(str(text)) + pad if text is not None else 0
            if need > self.columnWidth(col):
                self.setColumnWidth(col, need)
