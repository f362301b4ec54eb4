"""Slow motion: an insert or a lookup revealed one hash at a time, then done.

Step 1 shows the item's bytes; step 2 the scheme's own values (h1 and h2, or what the scheme uses); then for
i = 0 … k−1 the arithmetic of position i while its cell lights up on the grid (for a lookup: 1 or 0; for an
insert: already 1 or about to be set): the plan is ``widgets.step_reveal``'s, shared with the Lesson tab and
Tools → Predict, then reveal. The last step performs the operation through
the workbench, whose verdict and explanation then appear as for any insert or lookup. Space (or Next) steps;
Play steps on a timer at the chosen speed; Cancel stops without changing anything.

Nothing here changes the filter before the last step, and then only through ``Workbench.insert`` or
``Workbench.lookup`` (widgets never mutate a filter). ``install(window)`` adds the panel as a dock and
Tools → Slow motion actions.
"""

from __future__ import annotations


from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.filters.rows import positions_added
from bloomviz.gui.messages import Messages, Msg
from bloomviz.gui.widgets.message_bar import MessageBar
from bloomviz.items.encoding import typed_item
from bloomviz.workbench.limits import ItemError, check_item
from bloomviz.gui.access import motion
from bloomviz.gui.timing import ChunkRunner
from bloomviz.i18n import number, tr
from bloomviz.gui.widgets.bounded_text import TOO_LONG, BoundedLine
from bloomviz.theory.limits import ITEM_LINE_CHARS
from bloomviz.gui.widgets.step_reveal import reveal_steps, scheme_of

SPEEDS = (("step with Space", 0), ("one step a second", 1000), ("two steps a second", 500),
          ("one step every 2 s", 2000))


class SlowMotionPanel(Messages, QtWidgets.QWidget):
    finished = QtCore.Signal(str)       # "insert" or "lookup", once the operation is done

    class Error(Messages.Error):
        busy = Msg("Wait: another operation is running.")
        refused = Msg("Refused: {problem}. Nothing was changed.")
        no_item = Msg("Type an item first.")
        too_long = TOO_LONG

    class Information(Messages.Information):
        cancelled = Msg("Cancelled: nothing was inserted or looked up.")
        cancelled_because = Msg("Cancelled ({why}): nothing was inserted or looked up.")

    def __init__(self, window, parent=None):
        super().__init__(parent)
        self._window = window
        self._steps: list[tuple[str, list[int], list[str]]] = []   # (text, positions lit, kinds)
        self._at = -1
        self._active = False
        self._op = ""
        self._item = ""
        self.line = BoundedLine(ITEM_LINE_CHARS)
        self.line.setPlaceholderText(tr("an item (empty: the one in Insert and look up)"))
        self.line.refused.connect(lambda most: self.show_only(self.Error.too_long, most=number(most)))
        self.insert_button = QtWidgets.QPushButton(tr("Insert slowly"))
        self.lookup_button = QtWidgets.QPushButton(tr("Look up slowly"))
        self.next_button = QtWidgets.QPushButton(tr("Next (Space)"))
        self.play_button = QtWidgets.QPushButton(tr("Play"))
        self.cancel_button = QtWidgets.QPushButton(tr("Cancel"))
        self.speed = QtWidgets.QComboBox()
        for label, ms in SPEEDS:
            self.speed.addItem(tr(label), ms)
        self.progress = QtWidgets.QLabel()
        self.narration = QtWidgets.QLabel(tr("Type an item and choose Insert slowly or Look up slowly: each hash is "
                                             "shown with its arithmetic and its cell, one at a time."))
        self.narration.setWordWrap(True)
        self.message = MessageBar()       # in place of the narration: why nothing runs
        self.bind_messages(self.message)
        self.narration.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.narration.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        # Play: one step per interval while the slow operation runs (``next`` ends it after the last)
        self._player = ChunkRunner(lambda: (self.next(), self.running)[1], self)

        top = QtWidgets.QHBoxLayout()
        top.addWidget(self.line, 1)
        top.addWidget(self.insert_button)
        top.addWidget(self.lookup_button)
        controls = QtWidgets.QHBoxLayout()
        for widget in (self.next_button, self.play_button, self.speed, self.cancel_button):
            controls.addWidget(widget)
        controls.addWidget(self.progress, 1)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(controls)
        layout.addWidget(self.message)
        layout.addWidget(self.narration, 1)
        self.insert_button.clicked.connect(lambda: self.start("insert"))
        self.lookup_button.clicked.connect(lambda: self.start("lookup"))
        self.next_button.clicked.connect(self.next)
        self.play_button.clicked.connect(self.toggle_play)
        self.cancel_button.clicked.connect(self.cancel)
        QtGui.QShortcut(QtGui.QKeySequence(QtCore.Qt.Key.Key_Space), self, self.next,
                        context=QtCore.Qt.ShortcutContext.WidgetWithChildrenShortcut)
        # another filter (Apply, a scenario, Open, a new stage) makes the planned positions wrong: stop
        window.wb.filterReset.connect(lambda: self.cancel("the filter was replaced"))
        if hasattr(window.wb, "filterGrown"):
            window.wb.filterGrown.connect(lambda *_: self.cancel("the filter grew a stage"))
        self._set_running(False)

    @property
    def running(self) -> bool:
        return self._active

    @property
    def steps(self) -> list[str]:
        return [text for text, _, _ in self._steps]

    def _set_running(self, on: bool) -> None:
        self.next_button.setEnabled(on)
        self.play_button.setEnabled(on)
        self.cancel_button.setEnabled(on)
        self.insert_button.setEnabled(not on)
        self.lookup_button.setEnabled(not on)
        if not on:
            self._player.stop()
            self.play_button.setText(tr("Play"))

    def _say(self, text: str) -> None:
        """A step's narration, in place of any message (a fixed sentence in the window's language; a built one
        is already)."""
        self.clear_messages()
        self.narration.setText(tr(text))

    def _tell(self, message, **fields) -> None:
        self.narration.clear()
        self.show_only(message, **fields)

    def start(self, op: str, item: str | None = None) -> bool:
        wb = self._window.wb
        if self.running or wb.busy:
            self._tell(self.Error.busy)
            return False
        text = item if item is not None else (self.line.text() or self._window.item_panel.line.text())
        try:
            text = typed_item(text, "slow motion")
            data = check_item(text)
        except ItemError as exc:
            self._tell(self.Error.refused, problem=exc)
            return False
        if not text:
            self._tell(self.Error.no_item)
            return False
        self._op, self._item = op, text
        self._steps = self._plan(op, text, data)
        self._at = -1
        self._active = True
        self._set_running(True)
        self.next()
        return True

    def _plan(self, op: str, text: str, data: bytes) -> list[tuple[str, list[int], list[str]]]:
        flt = self._window.wb.filter
        # an insert sets only some of a lookup's positions in a variant made of parts (a scalable's newest stage)
        positions = [int(p) for p in (positions_added(flt, text) if op == "insert" else flt.positions(text))]
        grid = self._window.grid
        self._window.wb.flush()     # the grid read as the filter is: an operation of this turn drawn first
        was_set = [grid.value(p) > 0 if 0 <= p < grid.m else False for p in positions]
        last = ("<b>Now the verdict</b> — done through the filter, as any "
                f"{'insert' if op == 'insert' else 'lookup'}: see the verdict and the explanation.")
        return [(step.text, list(step.lit), list(step.kinds)) for step in
                reveal_steps(op, text, data, scheme_of(flt), flt.m, flt.k, positions, was_set, last)]

    def next(self) -> None:
        if not self.running:
            return
        self._at += 1
        if self._at >= len(self._steps) - 1:
            self._finish()
            return
        text, lit, kinds = self._steps[self._at]
        self.progress.setText(f"step {self._at + 1} of {len(self._steps)}")
        self._say(text)
        grid = self._window.grid
        if lit and grid.m == self._window.wb.filter.m and max(lit) < grid.m:
            grid.highlight(lit, kinds)
        else:   # the grid is being redrawn at another size: light nothing rather than the wrong cells
            grid.clear_highlight()

    def _finish(self) -> None:
        op, item = self._op, self._item
        self._at, self._active = -1, False
        self._set_running(False)
        self.progress.setText(f"step {len(self._steps)} of {len(self._steps)}")
        self._say(self._steps[-1][0])
        wb = self._window.wb
        wb.insert(item) if op == "insert" else wb.lookup(item)
        self.finished.emit(op)

    def toggle_play(self) -> None:
        if motion.reduced():      # no pages turning by themselves: every step at once, to the verdict
            while self.running:
                self.next()
            return
        if self._player.is_running:
            self._player.stop()
            self.play_button.setText(tr("Play"))
            return
        self._player.start(self.speed.currentData() or 1000)
        self.play_button.setText(tr("Pause"))

    def cancel(self, why: str = "") -> None:
        if not self.running:
            return
        self._at, self._active = -1, False
        self._set_running(False)
        self._window.grid.clear_highlight()
        self.progress.setText("")
        if why:
            self._tell(self.Information.cancelled_because, why=why)
        else:
            self._tell(self.Information.cancelled)


def install(window) -> SlowMotionPanel:
    panel = SlowMotionPanel(window)
    dock = window.add_dock("slow_motion", "Slow motion", panel, QtCore.Qt.DockWidgetArea.BottomDockWidgetArea)
    dock.hide()
    window.slow_motion = panel

    def run(op: str) -> None:
        dock.show()
        dock.raise_()
        panel.start(op)

    tools = window.menu("Tools")
    for label, op, keys in (("Insert in slow motion", "insert", "Ctrl+Alt+I"),
                            ("Look up in slow motion", "lookup", "Ctrl+Alt+L")):
        action = QtGui.QAction(tr(label), window)
        action.setShortcut(QtGui.QKeySequence(keys))
        action.setStatusTip(tr("One hash at a time: the item's bytes, the hash values, each position's "
                               "arithmetic and its cell, then the verdict (Space steps)"))
        action.triggered.connect(lambda _=False, o=op: run(o))
        tools.addAction(action)
    return panel
