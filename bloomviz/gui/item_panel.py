"""Insert and look up one item at a time, with the verdict in words.

Enter (or the Insert button) inserts the text; Ctrl+L (or the Look up button) looks it up. The verdict says
what the filter answers and — because the workbench knows what was really inserted — whether the answer is a
true positive, a true negative or a false positive, naming the items whose bits caused it.
"""

from __future__ import annotations

import html

from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.gui.theme import verdict_colour
from bloomviz.gui.workbench import (FALSE_POSITIVE, INSERTED, MAX_ITEM_BYTES, TRUE_NEGATIVE, TRUE_POSITIVE,
                                    Explanation, Workbench)

TITLES = {
    INSERTED: "Inserted",
    TRUE_POSITIVE: "Probably in the set",
    TRUE_NEGATIVE: "Definitely not in the set",
    FALSE_POSITIVE: "FALSE POSITIVE",
}

# Qt's line edit silently truncates beyond maxLength (32,767 by default): allow far more than the item limit
# so a huge paste reaches the workbench and is refused with its real size instead of being cut.
LINE_MAX_CHARS = 16 * 1024 * 1024


class ItemPanel(QtWidgets.QWidget):
    def __init__(self, workbench: Workbench, parent=None):
        super().__init__(parent)
        self._wb = workbench
        self._dark = False
        self.line = QtWidgets.QLineEdit()
        self.line.setMaxLength(LINE_MAX_CHARS)
        self.line.setPlaceholderText("type an item, Enter inserts it")
        self.line.setToolTip("An item is any text (a word, an e-mail address, a URL). It becomes bytes (UTF-8) "
                             f"and is hashed to k positions. At most {MAX_ITEM_BYTES // 1024} KiB.")
        self.line.returnPressed.connect(self.insert)
        self.insert_button = QtWidgets.QPushButton("Insert")
        self.insert_button.setToolTip("Insert: set the item's k bits to 1 (Enter).")
        self.insert_button.clicked.connect(self.insert)
        self.lookup_button = QtWidgets.QPushButton("Look up")
        self.lookup_button.setToolTip("Look up: test the item's k bits (Ctrl+L). Any 0 means definitely absent; "
                                      "all 1 means probably present.")
        self.lookup_button.clicked.connect(self.lookup)
        self.verdict = QtWidgets.QLabel()
        self.verdict.setWordWrap(True)
        self.verdict.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.verdict.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.verdict.setMinimumHeight(48)
        self.verdict.setAlignment(QtCore.Qt.AlignmentFlag.AlignTop | QtCore.Qt.AlignmentFlag.AlignLeft)
        self._verdict_plain = ""

        buttons = QtWidgets.QHBoxLayout()
        buttons.addWidget(self.insert_button)
        buttons.addWidget(self.lookup_button)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.line)
        layout.addLayout(buttons)
        layout.addWidget(self.verdict, 1)

        lookup_shortcut = QtGui.QShortcut(QtGui.QKeySequence("Ctrl+L"), self.line)
        lookup_shortcut.setContext(QtCore.Qt.ShortcutContext.WidgetShortcut)
        lookup_shortcut.activated.connect(self.lookup)
        workbench.operationExplained.connect(self._on_explained)
        workbench.error.connect(self._on_error)

    @property
    def verdict_text(self) -> str:
        """The verdict as plain text (what the label shows, without markup)."""
        return self._verdict_plain

    def set_dark(self, dark: bool) -> None:
        self._dark = dark

    def insert(self) -> None:
        if self._wb.insert(self.line.text()) is not None:
            self.line.selectAll()

    def lookup(self) -> None:
        if self._wb.lookup(self.line.text()) is not None:
            self.line.selectAll()

    def _show(self, title: str, text: str, colour: str) -> None:
        self._verdict_plain = f"{title}: {text}" if title else text
        if title:
            self.verdict.setText(f"<b style='color:{colour}'>{html.escape(title)}</b><br>{html.escape(text)}")
        else:
            head, sep, rest = text.partition(": ")
            self.verdict.setText(f"<b style='color:{colour}'>{html.escape(head + sep)}</b>"
                                 f"<span style='color:{colour}'>{html.escape(rest)}</span>")

    def _on_explained(self, expl: Explanation) -> None:
        if expl.op not in ("insert", "lookup"):
            return
        # The false-positive text starts with its own capitalised title; don't say it twice.
        title = "" if expl.verdict == FALSE_POSITIVE else TITLES.get(expl.verdict, expl.verdict)
        self._show(title, expl.verdict_text, verdict_colour(expl.verdict, self._dark))

    def _on_error(self, message: str) -> None:
        self._show("Refused", message, "#C0392B" if not self._dark else "#FF6B5B")
