"""The one owner that shows a widget's declared messages (``gui/messages.py``): errors, warnings and information
in a label beside the controls that caused them.

Drawn the same way everywhere: plain text (a message quotes a user's item or file name, never markup: see
``plain_text``), the most severe first, one line each; the label takes the colour of the most severe message
shown (``theme.colour``: error, warning; information in the panel's own text colour) and follows a switch of
theme; a screen reader hears the severity before the words (the colour says it to the eye alone). No other
widget colours a message itself (``tests/gui/test_message_owner.py``).
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from bloomviz.gui import theme
from bloomviz.gui.messages import Severity, severity_word

COLOUR_OF = {Severity.ERROR: "error", Severity.WARNING: "warning"}


class MessageBar(QtWidgets.QLabel):
    """Shows the messages ``show_message`` put up until ``hide_message`` takes them down."""

    changed = QtCore.Signal()

    def __init__(self, parent: QtWidgets.QWidget | None = None):
        super().__init__(parent)
        self.setWordWrap(True)
        self.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self._shown: dict[tuple, tuple[Severity, str]] = {}
        theme.notifier().changed.connect(self._paint)

    # --- the declared messages' side ---------------------------------------------------------------------------
    def show_message(self, key: tuple, severity: Severity, text: str) -> None:
        self._shown.pop(key, None)          # shown again: it moves to the end of its severity
        self._shown[key] = (Severity(severity), str(text))
        self._paint()

    def hide_message(self, key: tuple) -> None:
        if self._shown.pop(key, None) is not None:
            self._paint()

    def shown(self, key: tuple) -> bool:
        return key in self._shown

    # --- what the user sees --------------------------------------------------------------------------------------
    def messages(self) -> list[tuple[Severity, str]]:
        """(severity, text) of every message shown, the most severe first (in the order shown within one)."""
        return sorted(self._shown.values(), key=lambda entry: -entry[0])

    def severity(self) -> Severity | None:
        shown = self.messages()
        return shown[0][0] if shown else None

    def _paint(self, *_):
        shown = self.messages()
        self.setText("\n".join(text for _, text in shown))
        top = shown[0][0] if shown else None
        name = COLOUR_OF.get(top) if top is not None else None
        self.setStyleSheet(f"color: {theme.colour(name)};" if name else "")
        self.setAccessibleDescription("\n".join(f"{severity_word(s)}: {text}" for s, text in shown))
        self.changed.emit()
