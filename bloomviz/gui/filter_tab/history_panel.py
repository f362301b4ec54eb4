"""The history table: every operation with its verdict and the running counts after it.

A table model over the workbench's own list of ``HistoryEntry`` (no copy): rows are announced as they are
appended and the whole model resets when the workbench makes a new filter.

The cells a paint reads are Qt's own (a ``QStandardItemModel``), each row written once: a model answering in
Python paid a Python call per role, cell and paint, and the view asks seven roles of every cell it paints, so the
table's paint at 10^7 auto-played items was 5.3-5.9 ms of CPU against 2.0-2.3 ms for the same cells held by Qt
(9 rows x 14 columns; 12-15 ms on a loaded machine, the auto-play's longest paint after the plot's). So no
``data`` here (``QStandardItemModel.multiData`` asks ``data`` role by role, and an override in Python is that
call again). Writing a row costs ~80-100 us and ~6 KB (fourteen cells with their roles: 20,000 rows would
hold 120 MB), so only the rows shown are written: the newest ``WRITE_NOW`` when announced or reset (the rows a
view following the newest shows), and any row a paint shows that is not yet written (``HistoryPanel.paintEvent``).
A row never shown reads as empty to Qt; ``match`` (the view's type-ahead search) reads the rows' own texts.
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
# a table model's cells: selectable, enabled, never a parent (a QStandardItem's own are editable and draggable)
_FLAGS = (QtCore.Qt.ItemFlag.ItemIsSelectable | QtCore.Qt.ItemFlag.ItemIsEnabled
          | QtCore.Qt.ItemFlag.ItemNeverHasChildren)


WRITE_NOW = 16       # the newest rows written when announced or reset (~1.3 ms; a view shows ~10)
_MATCH_KIND = QtCore.Qt.MatchFlag.MatchTypeMask


class HistoryModel(QtGui.QStandardItemModel):
    #: Rows held back during bulk work were announced together (``flush``): the view follows them at once
    flushed = QtCore.Signal()

    def __init__(self, workbench: QtWorkbench, parent=None):
        super().__init__(0, len(COLUMNS), parent)
        self._prototype = QtGui.QStandardItem()    # each cell is a copy of it, with a table model's flags
        self._prototype.setFlags(_FLAGS)
        self.setItemPrototype(self._prototype)
        self._wb = workbench
        self._history = workbench.history      # the model's list (a new one with each reset)
        self._written: set[int] = set()        # the rows whose cells are written (rows never change once made)
        self._throttle = Throttle(250, self.flush, self)
        self._resetting = False
        self._set_rows_quietly(len(self._history))
        self._write_newest()
        workbench.operated.connect(self._appended)
        workbench.aboutToReset.connect(self._begin_reset)
        workbench.filterReset.connect(self._reset)
        workbench.busyChanged.connect(lambda busy: None if busy else self.flush())
        theme.notifier().changed.connect(self._on_theme)

    def _on_theme(self, _dark: bool) -> None:
        rows = self.rowCount()
        self._forget_written()      # the verdicts' colours: every row is written again
        self._write_newest()
        if rows:
            self.dataChanged.emit(self.index(0, 3), self.index(rows - 1, _NOTE))

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

    def write_rows(self, first: int, last: int) -> None:
        """Write the cells of rows ``first`` to ``last`` not yet written (rows past the model's end are left).
        Quietly: a row is written before a view paints it (a view that painted it empty repaints it: ``paintEvent``
        writes what it shows first), so no view has a cell of it to repaint."""
        last = min(last, self.rowCount() - 1, len(self._history) - 1)
        todo = [row for row in range(max(first, 0), last + 1) if row not in self._written]
        if not todo:
            return
        index, set_data = self.index, self.setData
        quiet = self.blockSignals(True)
        try:
            for row in todo:
                e = self._history[row]
                for col, text in enumerate(self.row_texts(e)):
                    cell = index(row, col)
                    set_data(cell, text)        # (the cell is made here, a copy of the prototype)
                    if col in _NUMERIC:
                        set_data(cell, _RIGHT, _ALIGN)
                set_data(index(row, 3), QtGui.QBrush(QtGui.QColor(verdict_colour(e.verdict))), _FOREGROUND)
                # an item: Qt would read "<img src=…>" in a tooltip as an image
                set_data(index(row, 2), tooltip(e.label), _TOOLTIP)
                note = getattr(e, "note", "")
                if note:
                    set_data(index(row, _NOTE), tooltip(note), _TOOLTIP)
                if getattr(e, "false_negatives", ()):
                    set_data(index(row, _NOTE), QtGui.QBrush(QtGui.QColor(verdict_colour(Verdict.FALSE_POSITIVE))),
                             _FOREGROUND)
                self._written.add(row)
        finally:
            self.blockSignals(quiet)

    def _write_newest(self) -> None:
        rows = self.rowCount()
        self.write_rows(rows - WRITE_NOW, rows - 1)

    def _forget_written(self) -> None:
        self._written.clear()

    def match(self, start, role, value, hits=1, flags=QtCore.Qt.MatchFlag.MatchStartsWith
              | QtCore.Qt.MatchFlag.MatchWrap):  # noqa: D401 - Qt's name
        """Qt's search of one column (type-ahead in the view), over the rows' texts: a row not written reads
        as empty to Qt's own. A search this does not know (another role, a pattern) writes every row first."""
        Flag = QtCore.Qt.MatchFlag
        kind = flags & _MATCH_KIND
        known = {Flag.MatchExactly, Flag.MatchFixedString, Flag.MatchContains, Flag.MatchStartsWith,
                 Flag.MatchEndsWith}
        if role != _DISPLAY or kind not in known or flags & Flag.MatchRecursive or not start.isValid():
            self.write_rows(0, self.rowCount() - 1)
            return super().match(start, role, value, hits, flags)
        rows, col, first = min(self.rowCount(), len(self._history)), start.column(), start.row()
        order = list(range(first, rows)) + (list(range(0, first)) if flags & Flag.MatchWrap else [])
        exact = kind == Flag.MatchExactly or bool(flags & Flag.MatchCaseSensitive)    # (Qt: exactly is equal)
        fold = (lambda t: t) if exact else str.casefold
        text = fold(str(value))
        found = []
        for row in order:
            cell = fold(self.row_texts(self._history[row])[col])
            if (kind == Flag.MatchContains and text in cell) or (kind == Flag.MatchStartsWith and cell.startswith(
                    text)) or (kind == Flag.MatchEndsWith and cell.endswith(text)) or (
                    kind in (Flag.MatchExactly, Flag.MatchFixedString) and cell == text):
                found.append(self.index(row, col))
                if 0 < hits <= len(found):
                    break
        return found

    @staticmethod
    def row_texts(e: HistoryEntry) -> tuple[str, ...]:
        """A row's fourteen texts."""
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
        if len(self._history) > self.rowCount():        # (a row the throttle still holds is announced with it)
            self._announce()

    def flush(self) -> None:
        self._throttle.cancel()
        if self._resetting or len(self._history) <= self.rowCount():
            return
        self._announce()
        self.flushed.emit()

    def _announce(self) -> None:
        self.setRowCount(len(self._history))
        self._write_newest()

    def _begin_reset(self) -> None:
        # Called before the workbench drops rows: from here until filterReset the model has no rows, so a
        # repaint in between asks for none of the rows that are about to go.
        if self._resetting:
            return
        self._throttle.cancel()
        self.beginResetModel()
        self._resetting = True
        self._set_rows_quietly(0)

    def _reset(self) -> None:
        self._begin_reset()
        self._history = self._wb.history
        self._set_rows_quietly(len(self._history))
        self._resetting = False
        self.endResetModel()
        self._write_newest()

    def _set_rows_quietly(self, rows: int) -> None:
        """Inside a reset: the views hear its end, not the rows going and coming."""
        quiet = self.blockSignals(True)
        try:
            self.setRowCount(rows)
        finally:
            self.blockSignals(quiet)
        self._forget_written()


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
        claim_paint(self.viewport())    # the whole table paints again (2-3 ms): other large repaints wait for it
        self._widen_for_numbers()
        self.scrollToBottom()

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt's name
        """The rows this paint shows are written first (``HistoryModel.write_rows``): Qt's paint reads Qt's cells."""
        rect = event.rect()
        top = self.rowAt(rect.top())        # -1: the paint is below the last row
        if top >= 0:
            bottom = self.rowAt(rect.bottom())
            self.model_.write_rows(top, bottom if bottom >= 0 else self.model_.rowCount() - 1)
        super().paintEvent(event)

    def sizeHintForColumn(self, column: int) -> int:  # noqa: N802 - Qt's name
        """A column fitted to its contents (a double click on its edge) measures the rows Qt measures: those in
        view and up to the header's precision beyond them, written first."""
        top, bottom = self.rowAt(0), self.rowAt(self.viewport().height())
        rows = self.model_.rowCount()
        reach = self.horizontalHeader().resizeContentsPrecision()
        reach = rows if reach <= 0 else reach
        top = 0 if top < 0 else top
        bottom = rows - 1 if bottom < 0 else bottom
        self.model_.write_rows(top - reach, bottom + reach)
        return super().sizeHintForColumn(column)

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
