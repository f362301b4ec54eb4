"""The class's vote on a question: the question and its choices in large type, a +1 button and a typed count
per choice, a tally with bars, and Reveal, which marks the right choice and says the answer.

Two users: a lesson's predict step (the Lesson tab), whose answer the runner computed already
(``bloomviz.lessons.predict``: the record holds ``right`` and ``answer_text``, shown only at Reveal), and Tools →
Predict, then reveal (``filter_tab.predict_tool``), whose answer is the lookup Reveal performs: it passes
``answer``, called at Reveal to fill those two fields (or to refuse by returning False). The votes live in a
``Tally`` the caller keeps, so the Lesson tab's Back and Next bring a step's votes and its reveal back.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Callable

from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.gui import theme
from bloomviz.i18n import marks, ntr, number, tr



@dataclass
class Tally:
    votes: list[int]
    revealed: bool = False
    typed: set = field(default_factory=set)     # choices whose count was typed rather than clicked

    @property
    def total(self) -> int:
        return sum(self.votes)


class PredictPanel(QtWidgets.QFrame):
    revealed = QtCore.Signal()
    changed = QtCore.Signal()                    # a vote or a cleared tally (the view redraws what it hides)

    def __init__(self, parent=None, answer: Callable[[dict], bool] | None = None):
        super().__init__(parent)
        self._answer = answer
        self.setFrameShape(QtWidgets.QFrame.Shape.StyledPanel)
        self.record: dict | None = None
        self.tally: Tally | None = None
        self.question = QtWidgets.QLabel()
        self.question.setWordWrap(True)
        self.question.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.rows_box = QtWidgets.QWidget()
        self.rows = QtWidgets.QGridLayout(self.rows_box)
        self.rows.setContentsMargins(0, 0, 0, 0)
        self.rows.setColumnStretch(1, 3)
        self.rows.setColumnStretch(2, 1)
        self.total = QtWidgets.QLabel()
        self.reveal_button = QtWidgets.QPushButton(tr("Reveal"))
        self.reveal_button.setToolTip(tr("Show the answer the filter gives and mark the right choice (R in presenter "
                                         "mode; Next reveals first too)"))
        self.clear_button = QtWidgets.QPushButton(tr("Clear votes"))
        self.clear_button.setToolTip(tr("Start this question again: no votes, the answer hidden"))
        self.answer = QtWidgets.QLabel()
        self.answer.setWordWrap(True)
        self.answer.setTextFormat(QtCore.Qt.TextFormat.RichText)
        buttons = QtWidgets.QHBoxLayout()
        buttons.addWidget(self.total, 1)
        buttons.addWidget(self.clear_button)
        buttons.addWidget(self.reveal_button)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addWidget(self.question)
        layout.addWidget(self.rows_box)
        layout.addLayout(buttons)
        layout.addWidget(self.answer)
        layout.addStretch(1)
        self.reveal_button.clicked.connect(self.reveal)
        self.clear_button.clicked.connect(self.clear)
        self._labels: list[QtWidgets.QLabel] = []
        self._bars: list[QtWidgets.QProgressBar] = []
        self._counts: list[QtWidgets.QSpinBox] = []
        self._plus: list[QtWidgets.QPushButton] = []
        self._compact = False

    # --- the question ----------------------------------------------------------------------------------------
    def show_question(self, record: dict, tally: Tally) -> None:
        self.record, self.tally = record, tally
        self.question.setText(f"<b>{html.escape(record['question'])}</b>")
        while self.rows.count():
            item = self.rows.takeAt(0)
            if item.widget() is not None:
                # hidden and unparented now: deleteLater alone leaves the old question painted until the event
                # loop runs, under the new one
                item.widget().hide()
                item.widget().setParent(None)
                item.widget().deleteLater()
        self._labels, self._bars, self._counts, self._plus = [], [], [], []
        for i, label in enumerate(record["choices"]):
            text = QtWidgets.QLabel(f"{i + 1}.  {html.escape(label)}")
            text.setWordWrap(True)
            bar = QtWidgets.QProgressBar()
            bar.setTextVisible(True)
            bar.setAlignment(QtCore.Qt.AlignmentFlag.AlignCenter)
            plus = QtWidgets.QPushButton("+1")
            plus.setToolTip(tr("One more vote for choice {n} (key {n} in presenter mode)").format(n=i + 1))
            plus.clicked.connect(lambda _c=False, n=i: self.vote(n))
            count = QtWidgets.QSpinBox()
            count.setRange(0, 100_000)
            count.setToolTip(tr("Type the count of raised hands"))
            count.valueChanged.connect(lambda value, n=i: self.set_count(n, value))
            count.setVisible(not self._compact)
            for column, widget in enumerate((text, bar, plus, count), start=1):
                self.rows.addWidget(widget, i, column)
            self._labels.append(text)
            self._bars.append(bar)
            self._plus.append(plus)
            self._counts.append(count)
        self._refresh()

    # --- votes -----------------------------------------------------------------------------------------------
    def vote(self, choice: int) -> bool:
        """One more vote for ``choice`` (0-based); False when there is no such choice or the answer is out."""
        if self.tally is None or not 0 <= choice < len(self.tally.votes) or self.tally.revealed:
            return False
        self.tally.votes[choice] += 1
        self._refresh()
        self.changed.emit()
        return True

    def set_count(self, choice: int, value: int) -> None:
        if self.tally is None or self.tally.revealed or self.tally.votes[choice] == value:
            return
        self.tally.votes[choice] = value
        self.tally.typed.add(choice)
        self._refresh()
        self.changed.emit()

    def reveal(self) -> bool:
        if self.tally is None or self.tally.revealed:
            return False
        if self._answer is not None and not self._answer(self.record):
            return False
        self.tally.revealed = True
        self._refresh()
        self.revealed.emit()
        return True

    def clear(self) -> None:
        if self.tally is None:
            return
        self.tally.votes[:] = [0] * len(self.tally.votes)
        self.tally.revealed = False
        self.tally.typed.clear()
        self._refresh()
        self.changed.emit()

    # --- drawing ---------------------------------------------------------------------------------------------
    def _refresh(self) -> None:
        tally, record = self.tally, self.record
        total = tally.total
        for i, (bar, count, plus, label) in enumerate(zip(self._bars, self._counts, self._plus, self._labels)):
            votes = tally.votes[i]
            bar.setRange(0, max(1, total))
            bar.setValue(votes)
            bar.setFormat(f"{votes}  ({votes / total:.0%})" if total else "0")
            blocker = QtCore.QSignalBlocker(count)
            count.setValue(votes)
            del blocker
            count.setEnabled(not tally.revealed)
            plus.setEnabled(not tally.revealed)
            right = tally.revealed and i == record["right"]
            mark = "✓ " if right else ""
            label.setText(f"{mark}{i + 1}.  {html.escape(record['choices'][i])}")
            label.setStyleSheet(f"color: {theme.colour('success')}; font-weight: bold;" if right else
                                "color: palette(mid);" if tally.revealed else "")
            palette = bar.palette()      # a palette, not a style sheet: a style sheet drops the scaled font
            palette.setColor(QtGui.QPalette.ColorRole.Highlight, QtGui.QColor(theme.colour("success")) if right else
                             self.palette().color(QtGui.QPalette.ColorRole.Mid) if tally.revealed else
                             self.palette().color(QtGui.QPalette.ColorRole.Highlight))
            bar.setPalette(palette)
        self.total.setText(ntr("{count} vote", "{count} votes", total).format(count=number(total)))
        self.reveal_button.setEnabled(not tally.revealed)
        if tally.revealed:
            self.answer.setText(f"<b>{html.escape(tr('Answer:'))}</b> " + html.escape(tr(
                "{answer} — choice {choice} is right").format(answer=record["answer_text"], choice=record["right"] + 1))
                + self._share_right())
            self.answer.show()
        else:
            self.answer.clear()
            self.answer.hide()

    def _share_right(self) -> str:
        total = self.tally.total
        if not total:
            return "."
        right = self.tally.votes[self.record["right"]]
        return html.escape(tr("; {right} of {total} votes ({share}) chose it.").format(
            right=number(right), total=number(total), share=marks(f"{right / total:.0%}")))

    def height_needed(self, width: int) -> int:
        """The height the panel needs at ``width`` with its answer shown (so Reveal does not squeeze it)."""
        layout = self.layout()
        shown = layout.totalHeightForWidth(width) if layout.hasHeightForWidth() else layout.sizeHint().height()
        if not self.answer.isVisible():
            shown += 2 * self.answer.fontMetrics().lineSpacing() + layout.spacing()
        return shown

    def set_compact(self, on: bool) -> None:
        """Presenter mode: no typed counts (the teacher votes with +1 or the keys 1–9), so the choices keep the
        width of the panel."""
        self._compact = on
        for count in self._counts:
            count.setVisible(not on)

    def set_scale(self, factor: float) -> None:
        """Every text in the panel ``factor`` times the normal size (presenter mode), the question larger still;
        rows made later inherit the panel's font."""
        font = QtWidgets.QApplication.font()
        font.setPointSizeF(font.pointSizeF() * factor)
        self.setFont(font)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.question.setFont(font)
