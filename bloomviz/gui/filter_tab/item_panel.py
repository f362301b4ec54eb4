"""Insert and look up one item at a time, with the verdict in words.

While an item is typed, the line under the box shows its k hash positions (what an insert would set and a lookup
would test), as llimllib's tutorial does. Enter (or the Insert button) inserts the text; Ctrl+L (or the Look up button) looks it up; for a counting
filter Ctrl+R (or the Remove button) removes it — asking first when the item was never inserted, since such a
removal takes counters from other items and can cause false negatives. The verdict says
what the filter answers and — because the workbench knows what was really inserted — whether the answer is a
true positive, a true negative, a false positive (naming the items whose bits caused it) or a false negative
(naming the forced removal that caused it).
"""

from __future__ import annotations

import html
from typing import Callable

from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.filters.rows import positions_added
from bloomviz.gui.widgets.flow_layout import FlowLayout
from bloomviz.gui.messages import Messages, Msg
from bloomviz.gui.widgets.message_bar import MessageBar
from bloomviz.gui.theme import verdict_colour
from bloomviz.i18n import number, tr
from bloomviz.gui.plain_text import ask_yes_no
from bloomviz.gui.workbench import QtWorkbench
from bloomviz.gui.filter_tab import pasted_lines
from bloomviz.gui.widgets.bounded_text import BoundedLine
from bloomviz.items.encoding import ItemError, typed_item, typed_lines
from bloomviz.gui.widgets.whole_lines import WholeLinesLabel
from bloomviz.theory.limits import ITEM_BOX_CHARS
from bloomviz.workbench.limits import MAX_ITEM_BYTES
from bloomviz.vocabulary import Verdict

TITLES = {
    Verdict.INSERTED: "Inserted",
    Verdict.TRUE_POSITIVE: "Probably in the set",
    Verdict.TRUE_NEGATIVE: "Definitely not in the set",
    Verdict.FALSE_POSITIVE: "FALSE POSITIVE",
    Verdict.FALSE_NEGATIVE: "FALSE NEGATIVE",
    Verdict.REMOVED: "Removed",
    Verdict.FORCED_REMOVAL: "FORCED",
}
REMOVE_TIP = ("Remove (Ctrl+R): a counting filter keeps a small counter per position instead of a bit, so an "
              "item's k counters can be decremented again. Only inserted items should be removed: removing "
              "anything else takes counters from other items (false negatives). Saturated counters stay.")
REMOVE_OFF_TIP = "Remove works only for a counting filter (choose the variant in the Filter panel)."

SHOWN_POSITIONS = 16     # positions listed while typing; more (k up to 64) end in "…"


class ItemPanel(Messages, QtWidgets.QWidget):
    class Error(Messages.Error):
        refused = Msg("Refused: {problem}")     # the workbench's refusals, and the panel's own
        stopped = Msg("Stopped: {problem}")     # an insert that failed part way, put back (workbench/failures.py)
        too_long = Msg("Not taken: the item box holds at most {most} characters; it kept its text. For a "
                       "longer list, save it to a text file and use File → Insert from file….")

    class Information(Messages.Information):
        lines_kept = Msg("Not inserted: The lines are still in the box; nothing was inserted.")
        inserting = Msg("Inserting: {count} lines as items (Esc cancels; Undo takes them all back).")
        not_removed = Msg("Not removed: Kept the filter as it was.")

    def __init__(self, workbench: QtWorkbench, parent=None):
        super().__init__(parent)
        self._wb = workbench
        # one item or a pasted list of them: a paste past the box's limit is refused whole, said so (Qt cut
        # one silently, or, allowed 16 Mi, laid 10 MB out at every paint)
        self.line = BoundedLine(ITEM_BOX_CHARS)
        self.line.refused.connect(lambda most: self._notice(self.Error.too_long, most=number(most)))
        self.line.setPlaceholderText(tr("type an item, Enter inserts it"))
        self.line.setToolTip(tr("An item is any text (a word, an e-mail address, a URL). It becomes bytes (UTF-8) "
                                "and is hashed to k positions. At most {kib} KiB.").format(kib=MAX_ITEM_BYTES // 1024))
        self.line.returnPressed.connect(self.insert)
        self.hashes = QtWidgets.QLabel()
        self.hashes.setObjectName("typedHashes")
        self.hashes.setToolTip(tr("The typed item's k positions: the bits an insert sets and a lookup tests."))
        # one line, ending in "…" when the column is narrow (large text): the verdict below needs the height
        self.hashes.setMinimumWidth(1)
        self._hashes_text = ""
        self.line.textChanged.connect(self.show_hashes)
        self.insert_button = QtWidgets.QPushButton(tr("Insert"))
        self.insert_button.setToolTip(tr("Insert: set the item's k bits to 1 (Enter)."))
        self.insert_button.clicked.connect(self.insert)
        self.lookup_button = QtWidgets.QPushButton(tr("Look up"))
        self.lookup_button.setToolTip(tr("Look up: test the item's k bits (Ctrl+L). Any 0 means definitely absent; "
                                         "all 1 means probably present."))
        self.lookup_button.clicked.connect(self.lookup)
        self.remove_button = QtWidgets.QPushButton(tr("Remove"))
        self.remove_button.clicked.connect(self.remove)
        # ``confirm(question) -> bool`` may be replaced (tests, scripted use)
        self.confirm: Callable[[str], bool] = self._ask
        self.confirm_lines: Callable[[str], bool] = lambda q: ask_yes_no(self, tr("Insert the pasted lines?"), q)
        self.verdict = WholeLinesLabel()     # a long verdict scrolls; a line the dock cuts is not half shown
        self.verdict.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.verdict.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.verdict.setMinimumHeight(48)
        self.verdict.setAlignment(QtCore.Qt.AlignmentFlag.AlignTop | QtCore.Qt.AlignmentFlag.AlignLeft)
        self._verdict_plain = ""
        self.message = MessageBar()
        self.message.setObjectName("itemMessage")
        self.bind_messages(self.message)
        # no empty row while nothing is said: at 250 % on a 1280 x 720 projector those 20 px were the verdict's
        # first line (projector.py fits the column to auto-play's controls; the item panel gets the rest)
        self.message.changed.connect(lambda: self.message.setVisible(bool(self.message.text())))
        self.message.setVisible(False)

        buttons = FlowLayout()     # at 250 % the three side by side were wider than the panel: they wrap
        buttons.addWidget(self.insert_button)
        buttons.addWidget(self.lookup_button)
        buttons.addWidget(self.remove_button)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.line)
        layout.addLayout(buttons)
        # the typed item's positions under the buttons, over the verdict that speaks of them: above, at 250 % on a
        # 1280 x 720 window their line pushed Remove 12 px out of view (the column has room for the buttons, not
        # for one line more)
        layout.addWidget(self.hashes)
        layout.addWidget(self.message)
        layout.addWidget(self.verdict, 1)

        # Ctrl+L is the window's "Look up item" action (Edit menu), which reaches the item box too: a second
        # Ctrl+L here made the key ambiguous, and Qt then runs neither.
        remove_shortcut = QtGui.QShortcut(QtGui.QKeySequence("Ctrl+R"), self.line)
        remove_shortcut.setContext(QtCore.Qt.ShortcutContext.WidgetShortcut)
        remove_shortcut.activated.connect(self.remove)
        workbench.filterReset.connect(self._sync_remove)
        workbench.filterReset.connect(lambda: self.show_hashes(self.line.text()))
        # A verdict belongs to the filter it was made on: a new filter starts with none (a "FORCED … FALSE
        # NEGATIVES" verdict used to survive onto later filters). A rollback re-explains its last operation.
        workbench.filterReset.connect(self._after_reset)
        self._sync_remove()
        workbench.operated.connect(self._on_operated)
        workbench.error.connect(self._on_error)

    @property
    def verdict_text(self) -> str:
        """The panel's words as plain text: its message if one is shown (a refusal, a notice), else the verdict."""
        return self.message.text() or self._verdict_plain

    def show_hashes(self, text: str) -> None:
        """The typed item's positions in the current filter (read only; nothing is hashed past the item limit)."""
        self._hashes_text = ""
        if not text or len(text) > MAX_ITEM_BYTES:
            self.hashes.setText("")
            return
        try:
            item = typed_item(text)    # what Look up takes: a line with its ending is that line; a list, none
            positions = [int(p) for p in positions_added(self._wb.filter, item)] if item else []
        except (TypeError, ValueError):
            positions = []
        if not positions:
            self.hashes.setText("")
            return
        shown = ", ".join(str(p) for p in positions[:SHOWN_POSITIONS])
        more = ", …" if len(positions) > SHOWN_POSITIONS else ""
        self._hashes_text = tr("k = {k} positions: {positions}").format(k=len(positions), positions=shown + more)
        self._fit_hashes()

    def _fit_hashes(self) -> None:
        text, width = self._hashes_text, self.hashes.width()
        fits = not text or width < 50 or self.hashes.fontMetrics().horizontalAdvance(text) <= width
        self.hashes.setText(text if fits else self.hashes.fontMetrics().elidedText(
            text, QtCore.Qt.TextElideMode.ElideRight, width))
        self.hashes.setToolTip(text or tr("The typed item's k positions: the bits an insert sets and a lookup tests."))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_hashes()

    def insert(self) -> None:
        text = self.line.text()
        lines = typed_lines(text)
        if lines is not None and len(lines) > 1:   # a pasted list: offered as one item per line (pasted_lines.py)
            self._insert_lines(text, lines)
            return
        if self._wb.insert(text if lines is None else "".join(lines)) is not None:   # a line with its ending
            self.line.selectAll()

    def _insert_lines(self, text: str, lines: list[str]) -> None:
        why = pasted_lines.too_many(text, lines)
        if why is not None:
            self._on_error(why)
        elif not self.confirm_lines(pasted_lines.question(text, lines)):
            self._notice(self.Information.lines_kept)
        elif pasted_lines.insert(self._wb, lines):
            self._notice(self.Information.inserting, count=number(len(lines)))
            self.line.clear()

    def _one_item(self, action: str) -> str | None:
        """The box's one item (``typed_item``: a line copied with its ending is that line), or None when it holds
        several lines, said so: Look up and Remove take one item, only Insert takes a list."""
        try:
            return typed_item(self.line.text(), action)
        except ItemError as exc:
            self._on_error(str(exc))
            return None

    def lookup(self) -> None:
        text = self._one_item("Look up")
        if text is not None and self._wb.lookup(text) is not None:
            self.line.selectAll()

    def remove(self) -> None:
        """Remove the item (counting filter); a never-inserted item is removed only if the user confirms."""
        if not self._wb.can_remove():
            self._on_error(tr(REMOVE_OFF_TIP))
            return
        text = self._one_item("Remove")
        if text is None:
            return
        question = self._wb.removal_question(text)
        if question is not None:
            if not self.confirm(question):
                self._notice(self.Information.not_removed)
                return
            result = self._wb.remove(text, force=True)
        else:
            result = self._wb.remove(text)
        if result is not None:
            self.line.selectAll()

    def _ask(self, question: str) -> bool:
        return ask_yes_no(self, tr("Remove an item never inserted?"), question)

    def _sync_remove(self) -> None:
        on = self._wb.can_remove()
        self.remove_button.setEnabled(on)
        self.remove_button.setToolTip(tr(REMOVE_TIP if on else REMOVE_OFF_TIP))

    def _notice(self, message, **fields) -> None:
        """A message in place of the verdict: it answers the last thing the user did."""
        self._clear_verdict()
        self.show_only(message, **fields)

    def _show(self, title: str, text: str, colour: str) -> None:
        self.clear_messages()
        self._verdict_plain = f"{title}: {text}" if title else text
        self.verdict.setText(f"<b style='color:{colour}'>{html.escape(title)}</b><br>{html.escape(text)}"
                             if title else html.escape(text))

    def _on_operated(self, rec) -> None:
        if getattr(rec, "op", None) not in ("insert", "lookup", "remove"):
            return
        headline, text = self._wb.verdict_words(rec)   # a person's action: its verdict in words, now
        verdict = rec.verdict
        self._show(headline or tr(TITLES.get(verdict, verdict)), text, verdict_colour(verdict))

    def _clear_verdict(self) -> None:
        self._verdict_plain = ""
        self.verdict.clear()

    def _after_reset(self) -> None:
        self.clear_messages()
        self._clear_verdict()
        self._on_operated(self._wb.last_record)   # a rollback shows its last operation's verdict again

    def _on_error(self, message: str) -> None:
        # The workbench's refusals already open with "Refused: ", its failures with "Stopped: "; the title says it
        # once.
        stopped = tr("Stopped: ")
        if message.startswith(stopped):
            self._notice(self.Error.stopped, problem=message[len(stopped):])
            return
        text = message[len("Refused: "):] if message.startswith("Refused: ") else message
        self._notice(self.Error.refused, problem=text)
