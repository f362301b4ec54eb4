"""Tools → Predict, then reveal: a class predicts a lookup on the window's filter before seeing it.

Ask takes an item (the panel's box, or the Insert and look up box), lights its positions on the grid one by one
with each position's arithmetic (``widgets.step_reveal``, as slow motion shows them; a 0 bit is named, not
interpreted), then the class votes "definitely not" / "probably in" (+1 buttons, typed counts, keys 1 and 2: the
Lesson tab's vote panel, ``widgets.predict_vote``). Reveal performs the lookup through the workbench
(``wb.lookup``: recorded in the History as any lookup, the verdict and explanation shown as usual), marks the right
choice, and says whether the class's majority was right. A running tally across questions is kept until Reset.

Nothing here changes the filter: a lookup does not, and it is the workbench's.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.gui import theme
from bloomviz.gui.messages import Messages, Msg
from bloomviz.gui.widgets.message_bar import MessageBar
from bloomviz.gui.access import motion
from bloomviz.gui.timing import ChunkRunner
from bloomviz.i18n import marks, ntr, number, tr
from bloomviz.gui.widgets.bounded_text import TOO_LONG, BoundedLine
from bloomviz.theory.limits import ITEM_LINE_CHARS
from bloomviz.gui.widgets.predict_vote import PredictPanel, Tally
from bloomviz.gui.widgets.step_reveal import reveal_steps, scheme_of
from bloomviz.lessons.predict import VERDICT_CHOICES
from bloomviz.items.encoding import typed_item
from bloomviz.workbench.limits import ItemError, check_item

STEP_MS = 700          # one position lit every 0.7 s: slow enough to read its line aloud


@dataclass
class RunningTally:
    """The class's record across questions, until Reset."""
    questions: int = 0
    votes: int = 0
    right_votes: int = 0
    majority_right: int = 0
    majority_wrong: int = 0       # ties are neither

    def add(self, votes: list[int], right: int) -> bool | None:
        """Count one revealed question; whether the majority was right (None: no votes, or a tie)."""
        self.questions += 1
        self.votes += sum(votes)
        self.right_votes += votes[right]
        top = max(votes) if votes else 0
        if not top or votes.count(top) > 1:
            return None
        won = votes.index(top) == right
        self.majority_right += won
        self.majority_wrong += not won
        return won

    def text(self) -> str:
        if not self.questions:
            return tr("No question revealed yet.")
        share = f" ({marks(f'{self.right_votes / self.votes:.0%}')})" if self.votes else ""
        return (ntr("{count} question", "{count} questions", self.questions).format(count=number(self.questions))
                + ": " + tr("{right} of {votes} votes right{share}; the majority was right {won}, wrong {lost}.").format(
                    right=number(self.right_votes), votes=number(self.votes), share=share,
                    won=ntr("{count} time", "{count} times", self.majority_right).format(
                        count=number(self.majority_right)), lost=number(self.majority_wrong)))


class PredictTool(Messages, QtWidgets.QWidget):
    class Error(Messages.Error):
        replaced = Msg("The filter was replaced: the question was about the old one. Ask again.")
        no_item = Msg("Type an item first.")
        too_long = TOO_LONG
        refused = Msg("Refused: {problem}.")
        busy = Msg("Wait: another operation is running. Reveal again once it is done.")
        lookup_refused = Msg("The lookup was refused: see the status line.")

    class Information(Messages.Information):
        type_and_ask = Msg("Type an item and press Ask.")

    def __init__(self, window, parent=None):
        super().__init__(parent)
        self._window = window
        self._item = ""
        self._steps: list = []
        self._at = 0
        self.running = RunningTally()
        self.last_right: bool | None = None     # the last revealed question's majority (None: none, or a tie)
        self.line = BoundedLine(ITEM_LINE_CHARS)
        self.line.setPlaceholderText(tr("an item (empty: the one in Insert and look up)"))
        self.line.refused.connect(lambda most: self.show_only(self.Error.too_long, most=number(most)))
        self.line.setMinimumWidth(120)
        self.ask_button = QtWidgets.QPushButton(tr("Ask"))
        self.ask_button.setToolTip(tr("Light the item's positions one by one, then let the class vote"))
        self.next_button = QtWidgets.QPushButton(tr("Next"))
        self.next_button.setToolTip(tr("The next position now"))
        self.narration = QtWidgets.QLabel(tr("Type an item and press Ask: its positions light up one by one, the "
                                             "class votes, and Reveal looks it up."))
        self.narration.setWordWrap(True)
        self.narration.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.message = MessageBar()       # in place of the narration: why nothing is asked or revealed
        self.bind_messages(self.message)
        self.vote_panel = PredictPanel(answer=self._answer)
        self.vote_panel.hide()
        self.verdict = QtWidgets.QLabel()
        self.verdict.setWordWrap(True)
        self.verdict.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.summary = QtWidgets.QLabel(self.running.text())
        self.summary.setWordWrap(True)
        self.reset_button = QtWidgets.QPushButton(tr("Reset tally"))
        self._lighter = ChunkRunner(self._light_next, self, interval_ms=STEP_MS)

        top = QtWidgets.QHBoxLayout()
        top.addWidget(self.line, 1)
        top.addWidget(self.ask_button)
        top.addWidget(self.next_button)
        tally = QtWidgets.QHBoxLayout()
        tally.addWidget(self.summary, 1)
        tally.addWidget(self.reset_button)
        # one column: the panel shares the right-hand column with the explanation (a narrow, tall place)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.message)
        layout.addWidget(self.narration)
        layout.addWidget(self.vote_panel)
        layout.addWidget(self.verdict)
        layout.addLayout(tally)
        layout.addStretch(1)
        self.ask_button.clicked.connect(lambda: self.ask())
        self.line.returnPressed.connect(lambda: self.ask())
        self.next_button.clicked.connect(self._light_next)
        self.reset_button.clicked.connect(self.reset_tally)
        self.vote_panel.revealed.connect(self._on_revealed)
        self.next_button.setEnabled(False)
        # another filter (Apply, a scenario, Open) makes the lit positions another filter's: the question is off
        window.wb.filterReset.connect(self._drop_question)

    def _drop_question(self) -> None:
        if self.vote_panel.isHidden() or self.vote_panel.tally.revealed:
            return
        self._lighter.stop()
        self._steps, self._at = [], 0
        self.vote_panel.hide()
        self.next_button.setEnabled(False)
        self._tell(self.Error.replaced)

    def keyPressEvent(self, event) -> None:
        # 1 and 2 vote wherever the focus is in the panel except the item box (which takes them as text): a key
        # event the focused button or the vote panel ignores comes up to here
        choice = {QtCore.Qt.Key.Key_1: 0, QtCore.Qt.Key.Key_2: 1}.get(event.key())
        if choice is not None and self.vote_panel.vote(choice):
            return
        super().keyPressEvent(event)

    # --- asking ----------------------------------------------------------------------------------------------
    def ask(self, item: str | None = None) -> bool:
        """Show a new question about ``item`` (default: the box's text, else Insert and look up's)."""
        window = self._window
        text = item if item is not None else (self.line.text() or window.item_panel.line.text())
        if not text:
            self._tell(self.Error.no_item)
            return False
        try:
            text = typed_item(text, "Predict")
            data = check_item(text)
        except ItemError as exc:
            self._tell(self.Error.refused, problem=exc)
            return False
        flt, grid = window.wb.filter, window.grid
        positions = [int(p) for p in flt.positions(text)]
        window.wb.flush()     # the grid read as the filter is: an operation of this turn drawn first
        was_set = [grid.value(p) > 0 if 0 <= p < grid.m else False for p in positions]
        self._steps = reveal_steps("lookup", text, data, scheme_of(flt), flt.m, flt.k, positions, was_set,
                                   tr("<b>Every position is lit.</b> What will the filter say? Vote (keys 1 and 2), "
                                      "then Reveal."), conclude=False)
        self._item, self._at = text, 0
        self.verdict.clear()
        record = {"question": tr("Will a lookup of “{item}” say it is in the set?").format(item=text),
                  "choices": [tr(label) for _, label in VERDICT_CHOICES], "right": None, "answer_text": ""}
        self.vote_panel.show_question(record, Tally([0] * len(VERDICT_CHOICES)))
        self.vote_panel.show()
        self.next_button.setEnabled(True)
        self._light_next()
        if not motion.reduced():     # reduced motion: one position per Next, none on a metronome
            self._lighter.start()
        self.vote_panel.setFocus()
        return True

    def _light_next(self) -> bool:
        """The next step of the plan on the grid; False once the last is shown (the metronome stops)."""
        if self._at >= len(self._steps):
            return False
        step = self._steps[self._at]
        self._at += 1
        self._say(f"{step.text}<br><i>step {self._at} of {len(self._steps)}</i>")
        grid = self._window.grid
        if step.lit and max(step.lit) < grid.m:
            grid.highlight(list(step.lit), list(step.kinds))
        done = self._at >= len(self._steps)
        self.next_button.setEnabled(not done)
        return not done

    # --- revealing -------------------------------------------------------------------------------------------
    def _answer(self, record: dict) -> bool:
        """Reveal: the lookup, through the workbench (History, verdict, explanation as for any lookup)."""
        if self._window.wb.busy:
            self._tell(self.Error.busy)
            return False
        self._lighter.stop()
        while self._light_next():     # every position shown before the answer
            pass
        look = self._window.wb.lookup(self._item)
        if look is None:
            self._tell(self.Error.lookup_refused)
            return False
        record["right"] = 1 if look.maybe_present else 0
        record["answer_text"] = tr("probably in the set: all its bits are 1" if look.maybe_present else
                                   "definitely not in the set: one of its bits is 0")
        return True

    def _on_revealed(self) -> None:
        tally, right = self.vote_panel.tally, self.vote_panel.record["right"]
        won = self.last_right = self.running.add(list(tally.votes), right)
        if won is None:
            self.verdict.setText(tr("No majority (no votes, or a tie)."))
        else:
            colour = theme.outcome_colour(won)
            said = tr(VERDICT_CHOICES[tally.votes.index(max(tally.votes))][1]).lower()
            self.verdict.setText(f"<span style='color:{colour}; font-weight:bold'>"
                                 f"{html.escape(tr('✓ Right') if won else tr('✗ Wrong'))}</span>: " + html.escape(
                                     tr("the class's majority said “{said}”.").format(said=said)))
        self.summary.setText(self.running.text())
        self.next_button.setEnabled(False)

    def reset_tally(self) -> None:
        self.running = RunningTally()
        self.summary.setText(self.running.text())

    def _say(self, text: str) -> None:
        """The narration, in place of any message (a fixed sentence in the window's language; a built one is
        already)."""
        self.clear_messages()
        self.narration.setText(tr(text))

    def _tell(self, message, **fields) -> None:
        self.narration.clear()
        self.show_only(message, **fields)


def install(window) -> PredictTool:
    tool = PredictTool(window)
    dock = window.add_dock("predict", "Predict, then reveal", tool, QtCore.Qt.DockWidgetArea.RightDockWidgetArea)
    dock.hide()

    def run() -> None:
        window.show_tab("filter")
        # a tab beside the explanation (the bottom row is the History's, too low for a question and its
        # choices), made when first asked for: a hidden dock tabified at start left its tab bar drawn over the
        # History in --screenshot pictures
        explain = window.docks.get("explain")
        if explain is not None and not dock.isVisible() and dock not in window.tabifiedDockWidgets(explain) \
                and window.dockWidgetArea(explain) != QtCore.Qt.DockWidgetArea.NoDockWidgetArea:
            window.tabifyDockWidget(explain, dock)
        dock.show()
        dock.raise_()
        if tool.line.text() or window.item_panel.line.text():
            tool.ask()
        else:
            tool.line.setFocus()
            tool._tell(tool.Information.type_and_ask)

    action = QtGui.QAction(tr("Predict, then reveal…"), window)
    action.setStatusTip(tr("The class predicts a lookup: its positions light one by one, votes are counted (keys "
                           "1 and 2), Reveal looks it up and marks the right choice; a tally across questions"))
    action.triggered.connect(run)
    window.menu("Tools").addAction(action)
    return tool
