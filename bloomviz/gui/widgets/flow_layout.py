"""A row of controls that wraps onto the next line when the row is narrower than they are (Qt's flow layout
example, in Python): at 250 % text a row of fields and buttons made its panel ~2,000 px wide, so the panel
scrolled sideways and the words beside it were cut at the window's edge; at normal text it is one row as before.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

QWIDGETSIZE_MAX = (1 << 24) - 1     # Qt's "no maximum"


class FlowLayout(QtWidgets.QLayout):
    """Items left to right, wrapping; its height for a width is what the wrapped rows need."""

    def __init__(self, parent=None, spacing: int = 6):
        super().__init__(parent)
        self._items: list[QtWidgets.QLayoutItem] = []
        self._spacing = spacing
        self.setContentsMargins(0, 0, 0, 0)

    def addItem(self, item: QtWidgets.QLayoutItem) -> None:  # noqa: N802 - Qt's name
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int):  # noqa: N802
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int):  # noqa: N802
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> QtCore.Qt.Orientation:  # noqa: N802
        return QtCore.Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:  # noqa: N802
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802
        return self._arrange(QtCore.QRect(0, 0, width, 0), place=False)

    def setGeometry(self, rect: QtCore.QRect) -> None:  # noqa: N802
        super().setGeometry(rect)
        self._arrange(rect, place=True)

    def sizeHint(self) -> QtCore.QSize:  # noqa: N802
        """All on one row."""
        shown = [item.sizeHint() for item in self._items if not item.isEmpty()]
        margins = self.contentsMargins()
        width = sum(s.width() for s in shown) + self._spacing * max(0, len(shown) - 1)
        height = max((s.height() for s in shown), default=0)
        return QtCore.QSize(width + margins.left() + margins.right(), height + margins.top() + margins.bottom())

    def minimumSize(self) -> QtCore.QSize:  # noqa: N802
        """The widest single item: everything else may wrap."""
        size = QtCore.QSize()
        for item in self._items:
            if not item.isEmpty():
                size = size.expandedTo(item.minimumSize())
        margins = self.contentsMargins()
        return size + QtCore.QSize(margins.left() + margins.right(), margins.top() + margins.bottom())

    def _arrange(self, rect: QtCore.QRect, place: bool) -> int:
        """Lines of items at their size hints; on each line the room left goes to the items that expand
        sideways (a line edit, or a widget whose size policy says so), as a box layout's stretch would."""
        margins = self.contentsMargins()
        area = rect.adjusted(margins.left(), margins.top(), -margins.right(), -margins.bottom())
        lines, line, width = [], [], 0
        for item in self._items:
            if item.isEmpty():
                continue
            hint = item.sizeHint()
            if line and width + self._spacing + hint.width() > area.width():
                lines.append(line)
                line, width = [], 0
            width += (self._spacing if line else 0) + hint.width()
            line.append(item)
        if line:
            lines.append(line)
        y = area.y()
        for line in lines:
            hints = [item.sizeHint() for item in line]
            spare = area.width() - sum(h.width() for h in hints) - self._spacing * (len(line) - 1)
            growing = [i for i, item in enumerate(line)     # a widget with a maximum width keeps its hint
                       if item.expandingDirections() & QtCore.Qt.Orientation.Horizontal
                       and item.maximumSize().width() >= QWIDGETSIZE_MAX]
            height = max(h.height() for h in hints)
            x = area.x()
            for i, (item, hint) in enumerate(zip(line, hints)):
                extra = spare // len(growing) if spare > 0 and i in growing else 0
                if place:
                    item.setGeometry(QtCore.QRect(x, y, hint.width() + extra, hint.height()))
                x += hint.width() + extra + self._spacing
            y += height + self._spacing
        return max(0, y - self._spacing - rect.y()) + margins.bottom()


def keep_together(*widgets: QtWidgets.QWidget) -> QtWidgets.QWidget:
    """A label and its field (or any few widgets) as one item of a flow: they wrap as one."""
    box = QtWidgets.QWidget()
    row = QtWidgets.QHBoxLayout(box)
    row.setContentsMargins(0, 0, 0, 0)
    for widget in widgets:
        row.addWidget(widget)
    return box
