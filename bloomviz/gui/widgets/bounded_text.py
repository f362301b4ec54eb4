"""Text boxes that refuse a paste past their limit, saying so, instead of taking it whole or cutting it.

Qt's line edit cuts a paste silently at its maxLength (32,767 characters by default): the user's text changed
without a word. The item box had its maxLength set to 16 Mi so a huge paste reached the model and was refused
with its size, but then the box held 10 MB and Qt laid all of it out at every paint (about 3 s each; the cursor
blinks twice a second). A plain-text box wrapped a long unbroken line in time quadratic in its length: 256 Ki
digits pasted into a scenario's paragraph took 3 s to paste and 21 s to paint.

``BoundedLine``: a line edit that measures a paste (Ctrl+V, Shift+Insert, the context menu, a middle-click, a
drop) before Qt inserts it, and refuses one that would take it past its limit: the box keeps its text, the
clipboard still holds the paste, and ``refused(most)`` is emitted so its owner says why, naming the limit.
Letting Qt cut instead (maxLength = limit + 1, the edit then undone by a validator) costs 1.3-1.8 s at a
128 Ki limit (Qt's cut path; measured offscreen, against 0.06 s for a paste of the limit's length), and letting
the whole paste in first keeps an undo record per character (the process grew by 288 MB for a 10 MB paste,
measured). That pair stays only as
the net for what comes by another way (an input method): any edit past the limit is undone. (Qt's maxLength is
in UTF-16 units, so it is set to twice the limit + 1: the limit is in characters.) Text set by the program
(``setText``) is Qt's to cut there: the program keeps its own text within the limit.
``BoundedPlainText``: a plain-text box that checks a paste or drop against its limit before inserting it.
The limits are declared in ``bloomviz.theory.limits``.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.gui.messages import Msg

# One message for every box; the item box adds where a longer list of items goes.
TOO_LONG = Msg("Not taken: this box holds at most {most} characters; it kept its text as it was.")


class _Longest(QtGui.QValidator):
    def __init__(self, most: int, parent: QtCore.QObject):
        super().__init__(parent)
        self.most = most

    def validate(self, text: str, pos: int):
        # Invalid makes Qt undo the edit; any text up to the limit is as acceptable as without a validator
        return QtGui.QValidator.State.Invalid if len(text) > self.most else QtGui.QValidator.State.Acceptable


Mode = QtGui.QClipboard.Mode


class BoundedLine(QtWidgets.QLineEdit):
    """A line edit of at most ``most`` characters; ``refused(most)`` is emitted for an edit that would pass it."""

    refused = QtCore.Signal(int)

    def __init__(self, most: int, parent=None):
        super().__init__(parent)
        self.most = most
        # Qt's maxLength counts UTF-16 units, two for a character past U+FFFF (an emoji); the limit counts
        # characters. At most + 1 units Qt cut a fitting paste of emoji silently (8 into a 10-character box
        # kept 5); at twice that it never cuts what the limit allows, and the validator undoes the rest.
        self.setMaxLength(2 * most + 1)
        self.setValidator(_Longest(most, self))
        self.inputRejected.connect(lambda: self.refused.emit(self.most))

    def _fits(self, text: str) -> bool:
        if len(self.text()) - len(self.selectedText()) + len(text) <= self.most:
            return True
        self.refused.emit(self.most)
        return False

    def paste(self, mode: QtGui.QClipboard.Mode = Mode.Clipboard) -> None:
        text = QtGui.QGuiApplication.clipboard().text(mode)
        if not self.isReadOnly() and text and self._fits(text):
            self.insert(text)        # what Qt's paste does: replaces the selection, one undo step

    def keyPressEvent(self, event: QtGui.QKeyEvent) -> None:
        if event.matches(QtGui.QKeySequence.StandardKey.Paste):
            self.paste()
            event.accept()
            return
        super().keyPressEvent(event)

    def mouseReleaseEvent(self, event: QtGui.QMouseEvent) -> None:
        # X11's middle-click pastes the selection; Qt inserts it from its own release handler
        if event.button() == QtCore.Qt.MouseButton.MiddleButton \
                and QtGui.QGuiApplication.clipboard().supportsSelection() and not self.isReadOnly():
            self.deselect()
            self.paste(Mode.Selection)
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def contextMenuEvent(self, event: QtGui.QContextMenuEvent) -> None:
        menu = self.createStandardContextMenu()
        for action in menu.actions():
            if action.objectName() == "edit-paste":     # Qt's name for its Paste entry, connected to its own paste
                action.triggered.disconnect()
                action.triggered.connect(lambda: self.paste())
        menu.setAttribute(QtCore.Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(event.globalPos())

    def dropEvent(self, event: QtGui.QDropEvent) -> None:
        if event.mimeData().hasText() and not self._fits(event.mimeData().text()):
            event.ignore()
            return
        super().dropEvent(event)


class BoundedPlainText(QtWidgets.QPlainTextEdit):
    """A plain-text box of at most ``most`` characters by paste or drop; ``refused(most)`` is emitted for one
    past it. Typing one character at a time is not checked: no hand types a megabyte."""

    refused = QtCore.Signal(int)

    def __init__(self, most: int, parent=None):
        super().__init__(parent)
        self.most = most

    def insertFromMimeData(self, source: QtCore.QMimeData) -> None:
        if source.hasText():
            more = len(source.text()) - len(self.textCursor().selectedText())
            # the document counts UTF-16 units (an emoji is two), never fewer than the characters: counted
            # as characters only when that bound is past the limit (toPlainText copies the whole text)
            if self.document().characterCount() - 1 + more > self.most \
                    and len(self.toPlainText()) + more > self.most:
                self.refused.emit(self.most)
                return
        super().insertFromMimeData(source)
