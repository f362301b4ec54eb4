"""Every control reached with Tab, and the focus seen where it is.

- Tab leaves a table or a list (the arrows move inside it): Qt's item views keep Tab for moving from cell to
  cell, so the History table held the keyboard for good (Shift+Tab too);
- Tab leaves a box of items typed one per line (Set operations' A and B): a typed tab in an item list is never
  meant, and without this the first box held the keyboard;
- the control with the keyboard's focus has a ring in the theme's highlight colour around it (``FocusRing``)
  once the keyboard moved the focus (as Fusion's own focus drawing, a click ends it): Fusion draws the focus of
  buttons and fields, but not of a combo box, a graphics view (the bit grids, the plots) or an empty table, so
  a keyboard user could not see that the grid's arrow keys were live. One ring for every kind of control,
  drawn over the window, rather than a style sheet per kind (a style sheet replaces Fusion's drawing).
"""

from __future__ import annotations

import shiboken6
from PySide6 import QtCore, QtGui, QtWidgets

RING = 2        # px: the ring's width, drawn just outside the control
_EVENTS = {QtCore.QEvent.Type.Move, QtCore.QEvent.Type.Resize, QtCore.QEvent.Type.Show, QtCore.QEvent.Type.Hide}


def let_tab_leave(root: QtWidgets.QWidget) -> int:
    """Tables, lists and item boxes under ``root`` pass Tab on; returns how many were changed."""
    changed = 0
    for view in root.findChildren(QtWidgets.QAbstractItemView):
        if view.tabKeyNavigation() and not isinstance(view.parentWidget(), QtWidgets.QComboBox):
            view.setTabKeyNavigation(False)
            changed += 1
    for edit in root.findChildren(QtWidgets.QPlainTextEdit) + root.findChildren(QtWidgets.QTextEdit):
        if not edit.isReadOnly() and not edit.tabChangesFocus():
            edit.setTabChangesFocus(True)
            changed += 1
    return changed


class FocusRing(QtWidgets.QWidget):
    """A ring around the window's focused control, following it as it moves, resizes or scrolls; mouse clicks
    go through it."""

    def __init__(self, window: QtWidgets.QWidget):
        super().__init__(window)
        self.setObjectName("bloomvizFocusRing")
        self.setAttribute(QtCore.Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)
        self.hide()
        self.target: QtWidgets.QWidget | None = None
        QtWidgets.QApplication.instance().focusChanged.connect(self._follow)

    def _follow(self, _old, new) -> None:
        if self.target is not None and shiboken6.isValid(self.target):    # a closed dialog's control is gone
            self.target.removeEventFilter(self)
        self.target = new if new is not None and new.window() is self.window() and new is not self else None
        if self.target is not None:
            self.target.installEventFilter(self)
        self.place()

    def eventFilter(self, obj, event) -> bool:
        if obj is self.target and event.type() in _EVENTS:
            QtCore.QTimer.singleShot(0, self.place)
        return False

    def place(self) -> None:
        window, target = self.window(), self.target
        if (target is None or not shiboken6.isValid(target) or not target.isVisible()
                or not window.testAttribute(QtCore.Qt.WidgetAttribute.WA_KeyboardFocusChange)):
            self.hide()
            return
        rect = QtCore.QRect(target.mapTo(window, QtCore.QPoint(0, 0)), target.size())
        self.setGeometry(rect.adjusted(-RING, -RING, RING, RING))
        self.raise_()
        self.show()
        self.update()

    def paintEvent(self, _event) -> None:
        painter = QtGui.QPainter(self)
        pen = QtGui.QPen(self.palette().color(QtGui.QPalette.ColorRole.Highlight), RING)
        pen.setJoinStyle(QtCore.Qt.PenJoinStyle.MiterJoin)
        painter.setPen(pen)
        painter.drawRect(QtCore.QRectF(self.rect()).adjusted(RING / 2, RING / 2, -RING / 2, -RING / 2))


def install(root: QtWidgets.QWidget) -> None:
    """Tab leaves the tables and item boxes under ``root``; a window gets its focus ring (once)."""
    let_tab_leave(root)
    if root.isWindow() and root.findChild(FocusRing, "bloomvizFocusRing") is None:
        FocusRing(root)
